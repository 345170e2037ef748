package adapter_test

import (
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// toolCall is what a minimal SDK hands its tool handlers: the tool, its
// raw arguments, the negotiated protocol version, and on 2026-07-28 the
// requestState and inputResponses the client echoed.
type toolCall struct {
	Tool, Version, State string
	Args                 []byte
	InputResponses       map[string]*runtime.Response
}

// handle is the whole tool wrapper of an adapter for that SDK: Start
// opens the call's exchange (the era rules, the sealed state, the
// answers), Claim spends a state that carries answers, the handler asks
// through the exchange, and Finish says what to send. The adapter
// translates only its SDK's types. It returns what it would send, and
// the requestState of an input_required reply.
func handle(ctx context.Context, s *adapter.Options, c toolCall, handler func(ctx context.Context, ask runtime.Asker) (string, error)) (sent, state string) {
	call := &adapter.Call{Tool: c.Tool, Args: c.Args, Version: c.Version, Caps: adapter.ClientCaps{Form: true}}
	x, err := s.Start(call, c.State, c.InputResponses, nil, nil)
	if err == nil {
		err = s.Claim(ctx, x)
	}
	if err != nil {
		code, msg := adapter.StartError(err)
		return fmt.Sprintf("JSON-RPC error %d: %s", code, msg), ""
	}
	text, herr := handler(ctx, x)
	r := s.Finish(x, herr)
	switch r.Kind {
	case adapter.ReplyResult:
		if r.Err != nil {
			return "error: " + r.Err.Error(), ""
		}
		return "result: " + text, ""
	case adapter.ReplyInputRequired:
		// A real adapter sends r.Requests (each Request's schema encoded
		// for its version) as inputRequests, with r.State as requestState.
		return fmt.Sprintf("input_required: %s asks %q", r.Requests[0].Key, r.Requests[0].Request.Message), r.State
	case adapter.ReplyToolError:
		return "tool error: " + r.Text, ""
	}
	return "JSON-RPC error: " + r.Message, ""
}

// A minimal adapter for a 2026-07-28 SDK: the first call returns
// input_required; the client answers with the sealed state, the handler
// gets the typed answer, and the same state sent again is refused.
func Example() {
	ctx := context.Background()
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Replay: seal.NewMemoryReplayStore(0)}
	deploy := func(ctx context.Context, ask runtime.Asker) (string, error) {
		out, err := runtime.AskConfirm(ctx, ask, "Deploy web to production?", runtime.WithKey("approve"))
		if err != nil {
			return "", err // input required: Finish turns it into the reply
		}
		if yes, ok := out.Accepted(); ok && yes {
			return "deployed", nil
		}
		return "not deployed", nil
	}

	first := toolCall{Tool: "deploy", Version: runtime.Version20260728, Args: []byte(`{"service":"web"}`)}
	sent, state := handle(ctx, s, first, deploy)
	fmt.Println(sent)

	// The client retries with the state of the first reply and its answer.
	answer := map[string]*runtime.Response{"approve": {Action: runtime.ActionAccept, Content: map[string]any{"confirm": true}}}
	second := toolCall{Tool: "deploy", Version: runtime.Version20260728, Args: first.Args, State: state, InputResponses: answer}
	sent, _ = handle(ctx, s, second, deploy)
	fmt.Println(sent)
	sent, _ = handle(ctx, s, second, deploy) // a replay of the same state
	fmt.Println(sent)
	// Output:
	// input_required: approve asks "Deploy web to production?"
	// result: deployed
	// JSON-RPC error -32602: invalid requestState: elicit: request state already used: its answers reached the tool once; call the tool again without requestState to be asked again
}
