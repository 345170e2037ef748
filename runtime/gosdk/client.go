package gosdk

import (
	"context"
	"errors"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ElicitResult converts a client-side answer (from the generated
// AcceptT, DeclineT or CancelT) into go-sdk's elicitation result.
func ElicitResult(r *runtime.Response) *mcp.ElicitResult {
	if r == nil {
		return nil
	}
	return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}
}

// ElicitationHandler returns a go-sdk client elicitation handler
// (mcp.ClientOptions.ElicitationHandler) that answers with a: each
// request is matched to a form by its schema and answered by that form's
// typed function. It serves pushed elicitation/create requests
// (2025-06-18, 2025-11-25) and the input requests of a 2026-07-28
// input_required result alike: the client fills inputResponses with its
// answers and retries the call.
func ElicitationHandler(a *runtime.Answerer) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if req == nil || req.Params == nil {
			return nil, errors.New("gosdk: elicitation without params")
		}
		p := req.Params
		var (
			r   *runtime.Response
			err error
		)
		if p.Mode == "url" {
			r, err = a.AnswerURL(ctx, p.Message, p.URL)
		} else {
			r, err = a.Answer(ctx, p.Message, p.RequestedSchema)
		}
		if err != nil {
			return nil, err
		}
		return ElicitResult(r), nil
	}
}
