package sdktest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// addApproversTool registers name asking Deploy with approvers that
// exclude the requester, under a Config that even accepts unasked
// answers (the loosest), with the principal requester.
func addApproversTool(s *server, name, requester string) {
	policy := runtime.Approvers{Principals: []string{"alice", "bob"}, ExcludeRequester: true}
	body := func(ctx context.Context, ask runtime.Asker) (string, error) {
		out, err := testforms.AskDeploy(ctx, ask, deployMsg, runtime.WithApprovers(policy))
		if err != nil {
			return "", err
		}
		if v, ok := out.Accepted(); ok {
			return describeDeploy(v), nil
		}
		return string(out.Action), nil
	}
	opts := adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, AcceptUnasked: true}
	switch s.sdk {
	case goSDK:
		cfg := &gosdk.Config{Options: opts, Principal: func(context.Context, *mcp.CallToolRequest) string { return requester }}
		s.gs.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := body(ctx, ask)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
	case mcpGo:
		cfg := &mcpgo.Config{Options: opts, Principal: func(context.Context, mgmcp.CallToolRequest) string { return requester }}
		s.ms.AddTool(mgmcp.NewTool(name),
			mcpgo.Handle(cfg, func(ctx context.Context, req mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := body(ctx, ask)
				if err != nil {
					return nil, err
				}
				return mgmcp.NewToolResultText(text), nil
			}))
	}
}

// TestApproversClientFormRefused: the client's own form answers as the
// requester, so a question that excludes the requester never takes an
// answer from it: not one the client sends unasked in inputResponses
// (2026-07-28), not one from its form on any era. Without hosted pages
// the question is unavailable, and says who must answer.
func TestApproversClientFormRefused(t *testing.T) {
	pre := json.RawMessage(`{"Deploy":{"action":"accept","content":{"branch":"evil","env":"prod","replicas":3,"confirm":true}}}`)
	for _, sdk := range sdks {
		for _, version := range versions {
			t.Run(sdk+"/"+version, func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				addApproversTool(s, "approve", "alice")
				c := connect(t, s, sdk, clientOpts{version: version, answer: scripted})
				var res callResult
				var err error
				if runtime.EraOf(version).MultiRoundTrip() {
					res, err = c.callWithPreAnswers(callCtx(t), "approve", pre)
				} else {
					res, err = c.call(callCtx(t), "approve", nil)
				}
				// Unavailable, on every era a tool error saying who must
				// answer (never -32021: no capability would help).
				if err != nil || !res.IsError || strings.Contains(res.Text, "deployed") || !strings.Contains(res.Text, "one of alice, bob (not the person who asked)") {
					t.Errorf("result %+v, %v: want the question unavailable, saying who must answer", res, err)
				}
				if n := len(elicitations(c)); n != 0 {
					t.Errorf("the requester's client was asked %d forms", n)
				}
			})
		}
	}
}
