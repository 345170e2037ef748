package page

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Void ends page id of the call b when its client ended the flow that
// sent the person there (a URL-mode request declined, cancelled or
// failed): an open page is closed with action as its answer, and the
// answer, given on the page or not, is taken. No later call then takes an
// answer from the page. A page taken already, expired or gone is left as
// it is. It fails with ErrForeign when the page belongs to another call
// and with ErrStore when the store fails.
func (p *Pages) Void(ctx context.Context, id string, b seal.Binding, action runtime.Action) error {
	e, err := p.store.Get(ctx, id)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil
	case err != nil:
		return storeErr("void", err)
	}
	q, err := decodeQuestion(e.Question)
	if err != nil {
		return err
	}
	if q.binding() != b {
		return fmt.Errorf("elicit page: void: %w", ErrForeign)
	}
	if e.Status == StatusOpen {
		enc, err := json.Marshal(&answer{Action: action})
		if err != nil {
			return fmt.Errorf("elicit page: void: %w", err)
		}
		if err := p.store.Answer(ctx, id, enc); err != nil && !errors.Is(err, ErrAnswered) && !errors.Is(err, ErrNotFound) {
			return storeErr("void", err)
		}
	}
	if _, err := p.store.Take(ctx, id); err != nil && !errors.Is(err, ErrTaken) && !errors.Is(err, ErrNotFound) {
		return storeErr("void", err)
	}
	return nil
}
