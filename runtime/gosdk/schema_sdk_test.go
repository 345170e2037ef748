package gosdk

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
)

// schemaSDK is the go-sdk release whose private validateElicitSchema
// (reached from ServerSession.Elicit) sentSchema recognizes on the stack
// (schema.go). go-sdk v1.8.0 has no public way to skip its check of an
// accepted answer: ServerSession.Elicit always re-reads the
// requestedSchema, no ServerOptions field turns that off, and a sending
// middleware belongs to the whole mcp.Server (elicitgen's handlers are
// given sessions of servers they do not own).
const schemaSDK = "v1.8.0"

// The workaround in schema.go was verified against schemaSDK: a go-sdk
// upgrade fails here first, to re-check the stack walk (and look for a
// public seam) before the version below moves.
func TestSentSchemaSDKVersion(t *testing.T) {
	// The test binary carries no module versions: the module's go.mod
	// says which go-sdk every build of this module uses.
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/modelcontextprotocol/go-sdk" {
			got = f[1]
		}
		if f := strings.Fields(line); len(f) >= 1 && f[0] == "replace" && strings.Contains(line, "modelcontextprotocol/go-sdk") {
			t.Fatalf("go.mod replaces go-sdk (%s): check schema.go's workaround against the replacement", strings.TrimSpace(line))
		}
	}
	if got != schemaSDK {
		t.Fatalf("go-sdk is %q; schema.go's sentSchema reads go-sdk %s's private %s on the stack: "+
			"check that ServerSession.Elicit still validates through it (TestSentSchemaSkipsSDKCheck), "+
			"use a public seam if the new release has one, then set schemaSDK", got, schemaSDK, validateElicitSchema)
	}
}

// go-sdk's ServerSession.Elicit refuses an accepted answer that does not
// fit a plain requestedSchema with its own text, and returns the content
// of the same answer to a sentSchema: the check this file's workaround
// skips is still there, and the stack walk still finds it.
func TestSentSchemaSkipsSDKCheck(t *testing.T) {
	const schema = `{"type":"object","properties":{"choice":{"type":"string","enum":["eu","us"]}},"required":["choice"]}`
	for _, tc := range []struct {
		name   string
		schema any
		wantOK bool
	}{
		{"raw", json.RawMessage(schema), false},
		{"sent", sentSchema(schema), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
			ct, st := mcp.NewInMemoryTransports()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var sent string
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "mars"}}, nil
				},
			})
			// Past go-sdk's client-side check, and a record of the schema
			// the client was sent.
			c.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					if r, ok := req.(*mcp.ElicitRequest); ok {
						b, _ := json.Marshal(r.Params.RequestedSchema)
						sent = string(b)
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "mars"}}, nil
					}
					return next(ctx, method, req)
				}
			})
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: "Where?", RequestedSchema: tc.schema})
			if !strings.Contains(sent, `"enum":["eu","us"]`) {
				t.Errorf("client was sent schema %s, want the form's", sent)
			}
			if !tc.wantOK {
				if err == nil || !strings.Contains(err.Error(), "does not match requested schema") {
					t.Fatalf("Elicit with a plain schema = %+v, %v; want go-sdk's own refusal (if go-sdk no longer checks answers, schema.go's workaround can go)", res, err)
				}
				return
			}
			if err != nil || res == nil || res.Content["choice"] != "mars" {
				t.Fatalf("Elicit with a sentSchema = %+v, %v; want the client's content back unchecked (go-sdk's check moved: see schema.go)", res, err)
			}
		})
	}
}
