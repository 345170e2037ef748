package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// The go-sdk adapter wraps tool handlers only. A prompt that asks a form
// (prompts/get may return input_required on 2026-07-28) is wired here
// directly on runtime.Exchange, the core the adapter is built on: the
// same sealed state, keys and era rules.

// promptHandler is a prompt handler that can ask the user through ask.
type promptHandler func(ctx context.Context, req *mcp.GetPromptRequest, ask runtime.Asker) (*mcp.GetPromptResult, error)

// handlePrompt wraps h as an mcp.PromptHandler.
func handlePrompt(cfg *gosdk.Config, h promptHandler) mcp.PromptHandler {
	sealer := &runtime.Sealer{Keys: cfg.Keys, TTL: cfg.StateTTL, Now: cfg.Now}
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		version := req.ProtocolVersion()
		args, err := json.Marshal(req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		call := &runtime.Call{Tool: "prompt " + req.Params.Name, Args: args, Version: version}
		if c := req.ClientCapabilities(); c != nil && c.Elicitation != nil {
			caps, err := runtime.ParseClientCaps(version, c)
			if err != nil {
				return nil, err
			}
			call.Caps = caps
		}
		if runtime.Modern(version) {
			call.State = req.Params.RequestState
			call.Responses, call.Malformed = promptResponses(req.Params.InputResponses)
		} else {
			call.Push = pushPrompt(req.Session, version)
		}
		x, err := runtime.NewExchange(sealer, call)
		if err != nil {
			return nil, &jsonrpc.Error{Code: runtime.CodeInvalidParams, Message: runtime.InvalidStateMessage(err)}
		}
		res, err := h(ctx, req, x)
		r := x.Reply(err, cfg.Unavailable)
		switch r.Kind {
		case runtime.ReplyInputRequired:
			out := &mcp.GetPromptResult{InputRequests: make(mcp.InputRequestMap, len(r.Requests)), RequestState: r.State}
			for _, p := range r.Requests {
				params, err := formParams(p.Request, version)
				if err != nil {
					return nil, err
				}
				out.InputRequests[p.Key] = params
			}
			return out, nil
		case runtime.ReplyInvalidParams:
			return nil, &jsonrpc.Error{Code: runtime.CodeInvalidParams, Message: r.Message}
		case runtime.ReplyMissingCapability:
			data, _ := json.Marshal(r.Data)
			return nil, &jsonrpc.Error{Code: runtime.CodeMissingRequiredClientCapability, Message: r.Message, Data: data}
		case runtime.ReplyToolError:
			return nil, errors.New(r.Text) // a prompt has no isError result
		}
		if r.Err != nil {
			return nil, r.Err
		}
		return res, nil
	}
}

// formParams encodes a form request for a client speaking version.
func formParams(req *runtime.Request, version string) (*mcp.ElicitParams, error) {
	if req.Mode != runtime.ModeForm {
		return nil, fmt.Errorf("prompt: %s-mode requests are not supported here", req.Mode)
	}
	b, err := req.Schema.AppendJSON(nil, runtime.SchemaVersion(version))
	if err != nil {
		return nil, err
	}
	return &mcp.ElicitParams{Mode: "form", Message: req.Message, RequestedSchema: json.RawMessage(b)}, nil
}

// promptResponses reads the elicitation answers of a retry.
func promptResponses(m mcp.InputResponseMap) (map[string]*runtime.Response, map[string]string) {
	out := map[string]*runtime.Response{}
	bad := map[string]string{}
	for k, v := range m {
		if r, ok := v.(*mcp.ElicitResult); ok && r != nil {
			out[k] = &runtime.Response{Action: runtime.Action(r.Action), Content: r.Content}
		} else {
			bad[k] = fmt.Sprintf("not an elicitation result (%T)", v)
		}
	}
	return out, bad
}

// pushPrompt asks with elicitation/create on a 2025-era session.
func pushPrompt(ss *mcp.ServerSession, version string) runtime.Asker {
	return runtime.AskerFunc(func(ctx context.Context, req *runtime.Request) (*runtime.Response, error) {
		params, err := formParams(req, version)
		if err != nil {
			return nil, err
		}
		if ss == nil {
			return nil, &runtime.UnavailableError{Reason: "no session", Mode: req.Mode, Schema: req.Schema, Message: req.Message}
		}
		res, err := ss.Elicit(ctx, params)
		switch {
		case err != nil && strings.Contains(err.Error(), "does not match requested schema"):
			return nil, fmt.Errorf("%w: %v", runtime.ErrInvalidContent, err)
		case err != nil:
			return nil, err
		}
		return &runtime.Response{Action: runtime.Action(res.Action), Content: res.Content}, nil
	})
}
