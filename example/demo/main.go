// Command demo runs the elicitgen example server in process with a
// scripted go-sdk client on protocol 2026-07-28, and prints, for each
// tool call, the question the server asked, the Go struct of the form
// beside the requestedSchema elicitgen generated from it (as sent, byte
// for byte), the client's answer and the tool's result.
//
//	go run ./example/demo
//
// On 2026-07-28 a question travels inside an input_required result; the
// client asks the user (here: a script) and retries the call with the
// answer, which the server checks against the schema it sent before the
// tool sees a typed value. The output is deterministic.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/internal/wiretest"
	"github.com/elicitgen/elicitgen/runtime"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// step is one scripted tool call.
type step struct {
	title  string
	tool   string
	args   map[string]any
	meta   map[string]any // the request's _meta
	elicit bool           // the client can be asked
	form   any            // the zero value of the form struct the tool asks, if any
	answer func(q *mcp.ElicitParams, schema map[string]any) *mcp.ElicitResult
	audit  bool // print the step's audit records
}

var steps = []step{
	{
		title: "deploy: the branch is pre-filled with the service's current branch",
		tool:  app.ToolDeploy, args: map[string]any{"service": "billing"}, elicit: true, form: forms.Deploy{},
		answer: func(_ *mcp.ElicitParams, s map[string]any) *mcp.ElicitResult {
			return accept(map[string]any{"branch": defaultOf(s, "branch"), "environment": "production", "confirmed": true})
		},
		audit: true,
	},
	{
		title: "deploy in Japanese: the request prefers ja-JP (SEP-2792 acceptLanguage), so titles and options come from forms/elicit.ja.json; the values are the same",
		tool:  app.ToolDeploy, args: map[string]any{"service": "billing"}, elicit: true,
		meta: map[string]any{runtime.MetaKeyAcceptLanguage: "ja-JP, en;q=0.5"},
		answer: func(_ *mcp.ElicitParams, s map[string]any) *mcp.ElicitResult {
			return accept(map[string]any{"branch": defaultOf(s, "branch"), "environment": "staging", "confirmed": true})
		},
	},
	{
		title: "book a table: the date is full, so the tool offers the next free one",
		tool:  app.ToolBook, args: map[string]any{"date": "2026-12-24", "party_size": 4}, elicit: true, form: forms.Rebook{},
		answer: func(_ *mcp.ElicitParams, s map[string]any) *mcp.ElicitResult {
			return accept(map[string]any{"try_another_date": true, "preferred_date": defaultOf(s, "preferred_date")})
		},
	},
	{
		title: "key results: only this org's key results are offered",
		tool:  app.ToolKR, args: map[string]any{"org": "acme"}, elicit: true, form: forms.KRArgs{},
		answer: func(*mcp.ElicitParams, map[string]any) *mcp.ElicitResult {
			return accept(map[string]any{"kr": "kr-activation"})
		},
	},
	{
		title: "campaign: approval names the recipient count",
		tool:  app.ToolCampaign, args: map[string]any{"campaign": "Spring sale", "recipients": []string{"ana@example.com", "bo@example.com", "cy@example.com"}}, elicit: true, form: forms.CampaignApproval{},
		answer: func(*mcp.ElicitParams, map[string]any) *mcp.ElicitResult {
			return accept(map[string]any{"approved": true, "send_window": "tonight"})
		},
	},
	{
		title: "connect an account: URL mode, the credentials never pass through the client",
		tool:  app.ToolConnect, args: map[string]any{"provider": "github"}, elicit: true,
		answer: func(*mcp.ElicitParams, map[string]any) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "accept"} },
	},
	{
		title: "deploy, declined",
		tool:  app.ToolDeploy, args: map[string]any{"service": "search"}, elicit: true, form: forms.Deploy{},
		answer: func(*mcp.ElicitParams, map[string]any) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} },
		audit:  true,
	},
	{
		title: "campaign, from a client that cannot be asked (no elicitation capability)",
		tool:  app.ToolCampaign, args: map[string]any{"campaign": "Winter sale", "recipients": []string{"ana@example.com"}},
	},
}

func accept(content map[string]any) *mcp.ElicitResult {
	return &mcp.ElicitResult{Action: "accept", Content: content}
}

// defaultOf returns the default the server sent for a property.
func defaultOf(schema map[string]any, name string) any {
	props, _ := schema["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	return p["default"]
}

// flowID matches the random flow id of a URL-mode request, masked in the
// output to keep it deterministic.
var flowID = regexp.MustCompile(`[0-9a-f]{32}`)

func mask(s string) string { return flowID.ReplaceAllString(s, "<flow-id>") }

// roundLine says what a round is on 2026-07-28.
const roundLine = "A round on 2026-07-28: the server's question travels in an input_required result; the client asks the user and calls the tool again with the answer (and the sealed requestState), so any server instance can take the next round."

func run(ctx context.Context, w io.Writer) error {
	keys, err := seal.NewKeyRing(seal.Key{ID: "demo", Secret: bytes.Repeat([]byte("elicitgen-demo!!"), 2)})
	if err != nil {
		return err
	}
	audit := &auditLog{}
	server := app.NewServer(app.Options{Keys: keys, Observer: audit.observer()})
	fmt.Fprintln(w, "elicitgen example: the server in process, a scripted go-sdk client on protocol 2026-07-28")
	fmt.Fprintln(w, roundLine)
	for i, st := range steps {
		fmt.Fprintf(w, "\n== %d. %s\n", i+1, st.title)
		if err := runStep(ctx, w, server, st); err != nil {
			return fmt.Errorf("%s: %w", st.tool, err)
		}
		if records := audit.take(); st.audit {
			printAudit(w, records)
		}
	}
	return nil
}

func runStep(ctx context.Context, w io.Writer, server *mcp.Server, st step) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tp := &tap{schemas: map[string]json.RawMessage{}}
	opts := &mcp.ClientOptions{}
	if st.elicit {
		opts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}}
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			p := req.Params
			fmt.Fprintf(w, "question (%s mode): %s\n", p.Mode, mask(p.Message))
			if lang, ok := p.Meta[runtime.MetaKeyContentLanguage].(string); ok {
				fmt.Fprintf(w, "question _meta: the form is in %q (SEP-2792 contentLanguage)\n", lang)
			}
			var schema map[string]any
			if raw := tp.schema(p.Message); raw != nil {
				var buf bytes.Buffer
				_ = json.Indent(&buf, raw, "", "  ")
				if st.form != nil {
					t := reflect.TypeOf(st.form)
					fmt.Fprint(w, sideBySide("Go struct forms."+t.Name()+" (example/forms/forms.go)", structSource(t), "became the requestedSchema sent", buf.String()))
				} else {
					fmt.Fprintf(w, "schema sent:\n%s\n", buf.String())
				}
				_ = json.Unmarshal(raw, &schema)
			}
			if p.URL != "" {
				fmt.Fprintf(w, "url: %s\n", mask(p.URL))
			}
			a := st.answer(p, schema)
			fmt.Fprintf(w, "answer: %s", a.Action)
			if a.Content != nil {
				b, _ := json.Marshal(a.Content)
				fmt.Fprintf(w, " %s", b)
			}
			fmt.Fprintln(w)
			return a, nil
		}
	}
	ct, sst := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, sst, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo-client", Version: "v0"}, opts).Connect(ctx, &wiretest.Transport{Transport: ct, Read: tp.received, Write: tp.sent}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	args, _ := json.Marshal(st.args)
	fmt.Fprintf(w, "call: %s %s\n", st.tool, args)
	if st.meta != nil {
		meta, _ := json.Marshal(st.meta)
		fmt.Fprintf(w, "_meta: %s\n", meta)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: st.tool, Arguments: st.args, Meta: maps.Clone(st.meta)}) // the client adds its own keys
	if err != nil {
		return err
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, strings.TrimSpace(t.Text))
		}
	}
	fmt.Fprintf(w, "rounds: %d (tools/call requests sent)\n", tp.calls())
	kind := "result"
	if res.IsError {
		kind = "result (isError)"
	}
	fmt.Fprintf(w, "%s: %s\n", kind, mask(string(structured)))
	for _, t := range texts {
		fmt.Fprintf(w, "  | %s\n", strings.ReplaceAll(mask(t), "\n", "\n  | "))
	}
	return nil
}

// tap watches the client's connection: it counts tools/call requests and
// keeps the raw requestedSchema of each input request, by message, so the
// demo can show the schema exactly as the server wrote it.
type tap struct {
	mu      sync.Mutex
	n       int
	schemas map[string]json.RawMessage
}

func (t *tap) calls() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

func (t *tap) schema(message string) json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.schemas[message]
}

func (t *tap) sent(m jsonrpc.Message) jsonrpc.Message {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "tools/call" {
		t.mu.Lock()
		t.n++
		t.mu.Unlock()
	}
	return m
}

func (t *tap) received(m jsonrpc.Message) {
	r, ok := m.(*jsonrpc.Response)
	if !ok || len(r.Result) == 0 {
		return
	}
	var res struct {
		InputRequests map[string]struct {
			Params struct {
				Message         string          `json:"message"`
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			} `json:"params"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(r.Result, &res) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ir := range res.InputRequests {
		if len(ir.Params.RequestedSchema) > 0 {
			t.schemas[ir.Params.Message] = ir.Params.RequestedSchema
		}
	}
}
