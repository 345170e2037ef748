package gosdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// An invalid answer from a client that does not check its own answers
// (the TypeScript clients) gets elicitgen's message on a 2025-era
// connection too, in the re-ask and in the tool error, not go-sdk's
// jsonschema text.
func TestPushInvalidAnswerOwnMessage(t *testing.T) {
	for _, version := range []string{runtime.Version20250618, runtime.Version20251125} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
			opts := []runtime.Option{{Value: "eu", Title: "Europe"}, {Value: "us", Title: "United States"}}
			s.AddTool(&mcp.Tool{Name: "pick", InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
				func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
					_, err := runtime.AskChoice(ctx, ask, "Where?", opts, runtime.WithRetries(1))
					return nil, err
				}))
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var messages []string
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					messages = append(messages, req.Params.Message)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "eu"}}, nil
				},
			})
			// Past go-sdk's client-side check: the answer a TypeScript
			// client sends unchecked.
			c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					if _, ok := res.(*mcp.ElicitResult); ok && err == nil {
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "mars"}}, nil
					}
					return res, err
				}
			})
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pick", Arguments: map[string]any{}})
			if err != nil || !res.IsError || len(res.Content) == 0 {
				t.Fatalf("call = %+v, %v; want an isError result", res, err)
			}
			want := `"Your choice" (choice): "mars" is not one of "eu", "us"`
			if txt := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(txt, want) || strings.Contains(txt, "validating") {
				t.Errorf("tool error = %q, want it to say %s", txt, want)
			}
			person := `Your choice must be one of "Europe", "United States" ("mars" is not)`
			if len(messages) != 2 || !strings.Contains(messages[1], person) || strings.Contains(messages[1], "choice:") {
				t.Errorf("messages = %q, want the re-ask to say %s", messages, person)
			}
		})
	}
}

// A 2026-07-28 input_required result carries no "content": null.
func TestInputRequiredNoNullContent(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	s.AddTool(&mcp.Tool{Name: "pick", InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			_, err := runtime.AskConfirm(ctx, ask, "Go?")
			return nil, err
		}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var wire strings.Builder
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	})
	cs, err := c.Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: &syncWriter{b: &wire}}, &mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20260728})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pick", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(wire.String(), `"input_required"`) {
		t.Fatalf("no input_required result on the wire:\n%s", wire.String())
	}
	for _, line := range strings.Split(wire.String(), "\n") {
		if strings.Contains(line, `"input_required"`) && strings.Contains(line, `"content":null`) {
			t.Errorf("input_required with content null: %s", line)
		}
	}
}

type syncWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// InputSchema infers a tool's input schema without nullable type unions;
// fields with omitempty are optional.
func TestInputSchemaNoNullUnions(t *testing.T) {
	type args struct {
		Org        string   `json:"org"`
		Recipients []string `json:"recipients"`
		Days       *int     `json:"days,omitempty"`
		KR         string   `json:"kr,omitempty"`
	}
	b, err := json.Marshal(gosdk.InputSchema[args]())
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if strings.Contains(got, "null") || !strings.Contains(got, `"recipients":{"type":"array"`) || !strings.Contains(got, `"days":{"type":"integer"}`) ||
		!strings.Contains(got, `"required":["org","recipients"]`) {
		t.Errorf("schema = %s", got)
	}
}

// A go-sdk client checks its own answer and refuses to send an invalid
// one: the field is named in elicitgen's words, not jsonschema-go's.
func TestClientRefusedOwnAnswer(t *testing.T) {
	ctx := context.Background()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
	opts := []runtime.Option{{Value: "eu", Title: "Europe"}, {Value: "us", Title: "United States"}}
	s.AddTool(&mcp.Tool{Name: "pick", InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}},
		func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			_, err := runtime.AskChoice(ctx, ask, "Where?", opts)
			return nil, err
		}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "mars"}}, nil
		},
	})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pick", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Fatalf("call = %+v, %v", res, err)
	}
	txt := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(txt, `"Your choice" (choice): the answer does not fit this field`) || strings.Contains(txt, "validating") || strings.Contains(txt, "oneOf") {
		t.Errorf("text = %q", txt)
	}
}
