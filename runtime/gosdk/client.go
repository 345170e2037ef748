package gosdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
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
func ElicitationHandler(a *answer.Answerer) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		if req == nil || req.Params == nil {
			return nil, errors.New("gosdk: elicitation without params")
		}
		p := req.Params
		r, err := answer.Elicitation(ctx, a, p.Mode, p.Message, p.URL, p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		return ElicitResult(r), nil
	}
}

// InputResponses answers the elicitations among the inputRequests of a
// 2026-07-28 input_required result with a, for a client that runs the
// multi round-trip itself (mcp.ClientOptions.MultiRoundTrip disabled):
// retry the call with these as InputResponses and the result's
// RequestState. Requests of other kinds (sampling, roots) are left out.
func InputResponses(ctx context.Context, a *answer.Answerer, requests mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	h := ElicitationHandler(a)
	out := make(mcp.InputResponseMap, len(requests))
	for key, ir := range requests {
		p, ok := ir.(*mcp.ElicitParams)
		if !ok {
			continue
		}
		r, err := h(ctx, &mcp.ElicitRequest{Params: p})
		if err != nil {
			return nil, fmt.Errorf("gosdk: answering %q: %w", key, err)
		}
		out[key] = r
	}
	return out, nil
}
