package mcpgo

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/answer"
	"github.com/mark3labs/mcp-go/mcp"
)

// ElicitationResult converts a client-side answer (from the generated
// AcceptT, DeclineT or CancelT) into mcp-go's elicitation result.
func ElicitationResult(r *runtime.Response) *mcp.ElicitationResult {
	if r == nil {
		return nil
	}
	res := &mcp.ElicitationResult{}
	res.Action = mcp.ElicitationResponseAction(r.Action)
	if r.Content != nil {
		res.Content = r.Content
	}
	return res
}

// ElicitationHandler answers an mcp-go client's elicitations with an
// Answerer (pass it to client.WithElicitationHandler): each request is
// matched to a form by its schema and answered by that form's typed
// function. It serves pushed elicitation/create requests (2025-06-18,
// 2025-11-25) and the input requests of a 2026-07-28 input_required
// result alike: the client fills inputResponses with its answers and
// retries the call.
type ElicitationHandler struct {
	// Answerer answers the requests.
	Answerer *answer.Answerer
}

// Elicit implements client.ElicitationHandler.
func (h ElicitationHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	p := req.Params
	r, err := answer.Elicitation(ctx, h.Answerer, p.Mode, p.Message, p.URL, p.RequestedSchema)
	if err != nil {
		return nil, err
	}
	return ElicitationResult(r), nil
}

// InputResponses answers the elicitations among the inputRequests of a
// 2026-07-28 input_required result with a, for a client that runs the
// multi round-trip itself: retry the call with these as InputResponses
// and the result's RequestState. Requests of other kinds (sampling,
// roots) are left out.
func InputResponses(ctx context.Context, a *answer.Answerer, requests mcp.InputRequests) (mcp.InputResponses, error) {
	h := ElicitationHandler{Answerer: a}
	out := make(mcp.InputResponses, len(requests))
	for key, ir := range requests {
		if ir.Method != mcp.MethodElicitationCreate || ir.Elicitation == nil {
			continue
		}
		r, err := h.Elicit(ctx, mcp.ElicitationRequest{Params: *ir.Elicitation})
		if err != nil {
			return nil, fmt.Errorf("mcpgo: answering %q: %w", key, err)
		}
		out[key] = mcp.NewElicitationInputResponse(*r)
	}
	return out, nil
}
