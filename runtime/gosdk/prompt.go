package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
)

// PromptHandler is a prompt handler (prompts/get) that can ask the user
// through ask.
type PromptHandler func(ctx context.Context, req *mcp.GetPromptRequest, ask runtime.Asker) (*mcp.GetPromptResult, error)

// promptBinding returns the name a prompt's sealed requestState is bound
// to (with a digest of its arguments and the principal): "prompt " and
// the prompt name, which no valid tool name equals, so that a prompt's
// state never opens for a tool of the same name, nor the reverse.
func promptBinding(name string) string { return "prompt " + name }

// HandlePrompt wraps h as an mcp.PromptHandler for
// (*mcp.Server).AddPrompt, with the era rules of Handle: on a 2025-06-18
// or 2025-11-25 connection an ask sends elicitation/create and waits; on
// a 2026-07-28 request an unanswered ask makes prompts/get return
// input_required with inputRequests and a sealed requestState, bound to
// the prompt name, a digest of its arguments and the principal
// (Config.PromptPrincipal), and the client's retry runs h again. A
// tampered, expired or foreign state is answered with JSON-RPC -32602
// (an error that also matches runtime.ErrInvalidState) before h runs.
//
// A prompt result has no isError: where a tool would answer a tool error
// telling the model what to ask the user (Config.Unavailable), the prompt
// fails with JSON-RPC -32603 and that text as the message (an error that
// also matches runtime.ErrUnavailable).
//
// HandlePrompt panics if cfg has no key ring, or sets Principal but not
// PromptPrincipal.
func HandlePrompt(cfg *Config, h PromptHandler) mcp.PromptHandler {
	mustConfig(cfg)
	if cfg.Principal != nil && cfg.PromptPrincipal == nil {
		panic("gosdk: HandlePrompt: Config.Principal is set, so Config.PromptPrincipal must be too")
	}
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		p := req.Params
		args, err := json.Marshal(p.Arguments) // a map[string]string always marshals
		if err != nil {
			return nil, err
		}
		call := &adapter.Call{Tool: promptBinding(p.Name), Args: args, Principal: cfg.promptPrincipal(ctx, req), Language: cfg.language(ctx, req),
			Origin: cfg.origin(ctx, "prompts/get", p.Name)}
		x, err := newExchange(ctx, cfg, req, call, p.RequestState, p.InputResponses)
		if err != nil {
			return nil, err // -32602; go-sdk sends a prompt's error with the code it wraps
		}
		res, err := h(ctx, req, x)
		r := x.Reply(err, cfg.Unavailable)
		x.ObserveEnd(r)
		switch r.Kind {
		case adapter.ReplyInputRequired:
			in, err := inputRequests(r.Requests, cfg.FormApps && x.Caps().App)
			if err != nil {
				return nil, err
			}
			return &mcp.GetPromptResult{InputRequests: in, RequestState: r.State}, nil
		case adapter.ReplyToolError:
			return nil, &codedError{err: r.Err, code: adapter.CodeInternalError, msg: r.Text}
		case adapter.ReplyResult:
			if r.Err != nil {
				return nil, r.Err
			}
			return res, nil
		}
		return nil, replyError(r, x.Era().Version())
	}
}

func (c *Config) promptPrincipal(ctx context.Context, req *mcp.GetPromptRequest) string {
	if c.PromptPrincipal != nil {
		return c.PromptPrincipal(ctx, req)
	}
	return tokenUser(req.Extra)
}
