package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

func modernRequest(user string, caps any, state string, responses mcp.InputResponseMap) *mcp.CallToolRequest {
	return &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{
			Meta: mcp.Meta{
				adapter.MetaKeyProtocolVersion:    runtime.Version20260728,
				adapter.MetaKeyClientCapabilities: caps,
			},
			Name:           "deploy",
			Arguments:      json.RawMessage(`{"project":"alpha"}`),
			RequestState:   state,
			InputResponses: responses,
		},
		Extra: &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{UserID: user}},
	}
}

var formCaps = map[string]any{"elicitation": map[string]any{}}

func askDeploy(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
	out, err := testforms.AskDeploy(ctx, ask, "deploy?")
	if err != nil {
		return nil, err
	}
	return text(string(out.Action)), nil
}

// The state is bound to the bearer token's user: another user's retry is
// rejected with -32602 before the handler runs.
func TestStateBoundToPrincipal(t *testing.T) {
	ctx := context.Background()
	h := gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, askDeploy)
	res, err := h(ctx, modernRequest("alice", formCaps, "", nil))
	if err != nil || res.InputRequests["Deploy"] == nil || res.RequestState == "" {
		t.Fatalf("round 1 = %+v, %v", res, err)
	}
	answer := mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "decline"}}
	if res2, err := h(ctx, modernRequest("alice", formCaps, res.RequestState, answer)); err != nil || res2.Content[0].(*mcp.TextContent).Text != "decline" {
		t.Fatalf("alice's retry = %+v, %v", res2, err)
	}
	_, err = h(ctx, modernRequest("mallory", formCaps, res.RequestState, answer))
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32602 {
		t.Fatalf("mallory's retry = %v, want -32602", err)
	}
	// NewAsker's error matches the runtime sentinel and still carries the code.
	_, err = gosdk.NewAsker(ctx, &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, modernRequest("alice", formCaps, res.RequestState, nil))
	if !errors.Is(err, seal.ErrStateTampered) || !errors.As(err, &we) || we.Code != -32602 {
		t.Fatalf("NewAsker with another server's state = %v", err)
	}
}

// Capabilities come from each request's _meta.
func TestPerRequestCapabilities(t *testing.T) {
	ctx := context.Background()
	h := gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, askDeploy)
	for name, caps := range map[string]any{
		"absent":   nil,
		"empty":    map[string]any{},
		"url only": map[string]any{"elicitation": map[string]any{"url": map[string]any{}}},
	} {
		_, err := h(ctx, modernRequest("", caps, "", nil))
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != -32021 || string(we.Data) != `{"requiredCapabilities":{"elicitation":{"form":{}}}}` {
			t.Errorf("%s: %v (data %s), want -32021", name, err, dataOf(err))
		}
	}
}

func dataOf(err error) string {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return string(we.Data)
	}
	return ""
}

func TestHandlePanicsWithoutKeys(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Handle without a key ring did not panic")
		}
	}()
	gosdk.Handle(&gosdk.Config{}, askDeploy)
}

type deployArgs struct {
	Project string `json:"project"`
}

type deployOut struct {
	Env     string `json:"env"`
	Approve bool   `json:"approve"`
}

// HandleFor serves a typed tool (mcp.AddTool) in both eras, two asks.
func TestHandleForTwoStep(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	runs := 0
	mcp.AddTool(s, &mcp.Tool{Name: "deploy"}, gosdk.HandleFor(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, in deployArgs, ask runtime.Asker) (*mcp.CallToolResult, deployOut, error) {
			runs++
			d, err := testforms.AskDeploy(ctx, ask, "deploy "+in.Project+"?")
			if err != nil {
				return nil, deployOut{}, err
			}
			a, err := testforms.AskApprove(ctx, ask, "approve?")
			if err != nil {
				return nil, deployOut{}, err
			}
			return nil, deployOut{Env: string(d.Value.Env), Approve: a.Value.Approve}, nil
		}))
	for _, version := range []string{runtime.Version20251125, ""} {
		runs = 0
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
			ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				r, err := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvProd, Replicas: 1})
				if req.Params.Message == "approve?" {
					r, err = testforms.AcceptApprove(testforms.Approve{Approve: true})
				}
				if err != nil {
					return nil, err
				}
				return &mcp.ElicitResult{Action: string(r.Action), Content: r.Content}, nil
			},
		})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"project": "alpha"}})
		if err != nil {
			t.Fatalf("%q: %v", version, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var got deployOut
		_ = json.Unmarshal(b, &got)
		wantRuns := 1
		if version == "" {
			wantRuns = 3
		}
		if got != (deployOut{Env: "prod", Approve: true}) || runs != wantRuns {
			t.Errorf("%q: structured %s after %d runs, want prod/true after %d", version, b, runs, wantRuns)
		}
		cs.Close()
		ss.Close()
	}
}

// A 2025-11-25 client that declared elicitation but reached go-sdk's
// stateless HTTP handler cannot be asked (no session to push on): the
// tool error says exactly that and where to go, not that the client
// lacks the capability.
func TestStatelessEndpointLegacyClient(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v1"}, nil)
	s.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}, askDeploy))
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer srv.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{}})
	if err != nil || !res.IsError || len(res.Content) == 0 {
		t.Fatalf("CallTool = %+v, %v; want a tool error", res, err)
	}
	got := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(got, gosdk.SessionlessReason) || strings.Contains(got, "did not declare") {
		t.Errorf("text = %q; want the stateless reason", got)
	}
}
