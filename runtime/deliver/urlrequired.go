package deliver

import (
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// URLRequiredError is returned by a handler that cannot proceed until the
// user completes URL-mode steps out of band (2025-11-25's
// URLElicitationRequiredError). The exchange of the call
// (adapter.Exchange.Reply) sends it as JSON-RPC -32042 on 2025-11-25
// requests, as an input_required result on 2026-07-28 ones, and treats it
// as unavailable for clients without URL mode.
type URLRequiredError struct {
	// Requests are URL-mode requests with an ElicitationID each.
	Requests []*runtime.Request
}

// Error implements error.
func (e *URLRequiredError) Error() string {
	return fmt.Sprintf("elicit: %d URL-mode elicitation(s) required", len(e.Requests))
}

// RequireURL returns a *URLRequiredError for one page. It checks rawURL
// with CheckURL; flowID is the elicitationId (2025-11-25) and the
// correlation id sealed in requestState (2026-07-28); empty means random.
func RequireURL(message, rawURL, flowID string) error {
	if err := wire.CheckURL(rawURL); err != nil {
		return err
	}
	if flowID == "" {
		flowID = wire.NewID()
	}
	return &URLRequiredError{Requests: []*runtime.Request{{Mode: runtime.ModeURL, Message: message, URL: rawURL, ElicitationID: flowID}}}
}
