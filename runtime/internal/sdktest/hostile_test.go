package sdktest

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// Hostile clients, through both SDK adapters over real JSON transports:
// what a client may send and what it must not get away with.

var sdks = []string{goSDK, mcpGo}

// addTool registers a tool running b on s, wrapped as newServer wraps
// the standard tools.
func addTool(s *server, name string, b body) {
	switch s.sdk {
	case goSDK:
		cfg := &gosdk.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: s.policy}}
		s.gs.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := b(ctx, ask)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
	case mcpGo:
		cfg := &mcpgo.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: s.policy}}
		s.ms.AddTool(mgmcp.NewTool(name),
			mcpgo.Handle(cfg, func(ctx context.Context, req mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
				s.runs.Add(1)
				text, err := b(ctx, ask)
				if err != nil {
					return nil, err
				}
				return mgmcp.NewToolResultText(text), nil
			}))
	}
}

// wantInvalidParams checks that a call failed as invalid params: -32602
// on go-sdk, -32603 on mcp-go v1.2.1 (which sends every handler error so),
// with a message containing what.
func wantInvalidParams(t *testing.T, sdk string, res callResult, err error, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("call succeeded (%+v), want an error containing %q", res, what)
	}
	checkInvalidParams(t, sdk, err)
	if !strings.Contains(err.Error(), what) {
		t.Errorf("error = %v, want it to contain %q", err, what)
	}
}

// leak returns how secret shows in state, or "".
func leak(state, secret string) string {
	encodings := map[string]string{"raw": secret, "hex": hex.EncodeToString([]byte(secret))}
	for i := range 3 { // every base64 alignment
		pad := strings.Repeat("\x00", i)
		for name, enc := range map[string]*base64.Encoding{"base64": base64.StdEncoding, "base64url": base64.URLEncoding} {
			s := strings.TrimRight(enc.EncodeToString([]byte(pad+secret)), "=")
			encodings[fmt.Sprintf("%s@%d", name, i)] = s[(i*4+2)/3+1 : len(s)-1]
		}
	}
	for name, e := range encodings {
		if strings.Contains(state, e) {
			return name
		}
	}
	for _, part := range strings.Split(state, ".") {
		for i := range 4 {
			if i > len(part) {
				break
			}
			if b, err := base64.RawURLEncoding.DecodeString(part[i:][:len(part[i:])/4*4]); err == nil && strings.Contains(string(b), secret) {
				return "decoded part"
			}
		}
	}
	return ""
}

// TestStateConfidential: a gateway that logs requestState learns none of
// the answers of earlier rounds, in any encoding.
func TestStateConfidential(t *testing.T) {
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			s := newServer(t, sdk, runtime.UnavailableAuto)
			c := connect(t, s, sdk, clientOpts{answer: scripted})
			res, err := c.call(callCtx(t), "deploy2", map[string]any{"project": "alpha"})
			if err != nil || !strings.Contains(res.Text, "approved=true") {
				t.Fatalf("call = %+v, %v", res, err)
			}
			var states []string
			for _, r := range c.tap.toolResults() {
				if st, ok := r["requestState"].(string); ok {
					states = append(states, st)
				}
			}
			if len(states) < 2 {
				t.Fatalf("%d requestStates on the wire, want 2", len(states))
			}
			for _, st := range states {
				for _, secret := range []string{accepted.Branch, "feature", `"replicas"`, "Deploy"} {
					if how := leak(st, secret); how != "" {
						t.Errorf("requestState %q shows %q (%s)", st, secret, how)
					}
				}
			}
		})
	}
}

// TestStateOutdatedFormat: a state in the signed, unencrypted format of
// earlier releases is refused with a message that says so.
func TestStateOutdatedFormat(t *testing.T) {
	legacy := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"iat":1,"exp":9999999999,"tool":"deploy","a":{"Deploy":{"action":"accept"}}}`)) +
		".k1." + base64.RawURLEncoding.EncodeToString(make([]byte, 32))
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			s := newServer(t, sdk, runtime.UnavailableAuto)
			c := connect(t, s, sdk, clientOpts{answer: scripted})
			c.tap.setMutate(func(p map[string]any) { p["requestState"] = legacy })
			res, err := c.call(callCtx(t), "deploy", nil)
			wantInvalidParams(t, sdk, res, err, "signed, unencrypted format")
			if n := s.runs.Load(); n != 1 {
				t.Errorf("handler ran %d times; it must not run on an outdated state", n)
			}
		})
	}
}

// TestStateFromTheFuture: a state issued further ahead of the server's
// clock than MaxClockSkew is refused; within it, accepted.
func TestStateFromTheFuture(t *testing.T) {
	for _, sdk := range sdks {
		for _, tc := range []struct {
			back time.Duration
			ok   bool
		}{{seal.MaxClockSkew - 5*time.Second, true}, {seal.MaxClockSkew + 5*time.Second, false}} {
			t.Run(fmt.Sprintf("%s/%s", sdk, tc.back), func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				behind := func(ctx context.Context, q question) (*runtime.Response, error) {
					s.clock.Advance(-tc.back) // the instance that opens runs behind
					return scripted(ctx, q)
				}
				c := connect(t, s, sdk, clientOpts{answer: behind})
				res, err := c.call(callCtx(t), "deploy", nil)
				if tc.ok {
					if err != nil || res.Text != acceptedText {
						t.Fatalf("call = %+v, %v; want %q", res, err, acceptedText)
					}
					return
				}
				wantInvalidParams(t, sdk, res, err, "issued in the future")
			})
		}
	}
}

// TestInputResponsesCap: up to MaxInputResponses entries the extra ones
// are ignored; beyond, the request is invalid params and the handler does
// not run.
func TestInputResponsesCap(t *testing.T) {
	for _, sdk := range sdks {
		for _, extra := range []int{adapter.MaxInputResponses - 1, adapter.MaxInputResponses} {
			t.Run(fmt.Sprintf("%s/%d", sdk, extra+1), func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				c := connect(t, s, sdk, clientOpts{answer: scripted})
				c.tap.setMutate(func(p map[string]any) {
					ir, _ := p["inputResponses"].(map[string]any)
					for i := range extra {
						ir[fmt.Sprintf("x%d", i)] = map[string]any{"action": "decline"}
					}
				})
				res, err := c.call(callCtx(t), "deploy", nil)
				if extra+1 <= adapter.MaxInputResponses {
					if err != nil || res.Text != acceptedText {
						t.Fatalf("call = %+v, %v; want %q", res, err, acceptedText)
					}
					return
				}
				wantInvalidParams(t, sdk, res, err, "too many inputResponses")
				if n := s.runs.Load(); n != 1 {
					t.Errorf("handler ran %d times; it must not run past the cap", n)
				}
			})
		}
	}
}

// TestAnswerBeforeAsked: on 2026-07-28 a client may send inputResponses
// on its first call, before any question (the conformance scenario
// input-required-result-ignore-extra-params expects it to complete, so a
// server may opt in with Config.AcceptUnasked). The answer is still
// decoded and validated; the server cannot know whether a person saw a
// form.
func TestAnswerBeforeAsked(t *testing.T) {
	answer, _ := scripted(context.Background(), question{Message: deployMsg})
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			s := newServer(t, sdk, runtime.UnavailableAuto, acceptUnasked())
			c := connect(t, s, goSDK, clientOpts{answer: scripted})
			for _, tc := range []struct {
				content map[string]any
				want    string
			}{
				{answer.Content, acceptedText},
				{map[string]any{"branch": "main", "replicas": 99}, ""}, // out of bounds: refused
			} {
				res, err := c.gc.CallTool(callCtx(t), &mcp.CallToolParams{Name: "deploy",
					InputResponses: mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: tc.content}}})
				if tc.want == "" {
					// Refused: by default as a tool error the model can act
					// on (Config.AskErrors), never as a completed call.
					if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "replicas") {
						t.Errorf("invalid early answer: %+v, %v; want a tool error naming replicas", res, err)
					}
					continue
				}
				if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != tc.want {
					t.Fatalf("call = %+v, %v; want %q", res, err, tc.want)
				}
			}
			if n := len(elicitations(c)); n != 0 {
				t.Errorf("%d questions sent; the early answer should have been used", n)
			}
		})
	}
}

// contactSchema is a form of the four checked formats, as a generated
// form would describe it.
var contactSchema = &runtime.Schema{Name: "Contact", Properties: []runtime.Property{
	{Name: "email", Kind: runtime.KindString, Format: "email", Required: true},
	{Name: "site", Kind: runtime.KindString, Format: "uri", Required: true},
	{Name: "day", Kind: runtime.KindString, Format: "date", Required: true},
	{Name: "at", Kind: runtime.KindString, Format: "date-time", Required: true},
}}

// askContact asks contactSchema and checks each answer's format with
// Property.Check.
func askContact(ctx context.Context, ask runtime.Asker) (string, error) {
	r, err := ask.Ask(ctx, &runtime.Request{Mode: runtime.ModeForm, Message: "Contact?", Schema: contactSchema})
	if err != nil {
		return "", err
	}
	var bad []string
	for _, p := range contactSchema.Properties {
		v, _ := r.Content[p.Name].(string)
		if p.Check(v) != nil {
			bad = append(bad, p.Name)
		}
	}
	if len(bad) > 0 {
		return "", fmt.Errorf("%w: Contact: %s not valid", runtime.ErrInvalidContent, strings.Join(bad, ", "))
	}
	return "ok", nil
}

// TestHostileFormats: answers that earlier releases accepted are refused
// through both adapters, in both eras; RFC examples pass.
func TestHostileFormats(t *testing.T) {
	valid := map[string]any{"email": "joe.bloggs@example.com", "site": "ldap://[2001:db8::7]/c=GB?objectClass?one", "day": "1985-04-12", "at": "1985-04-12t23:20:50.52z"}
	hostile := []struct{ field, value string }{
		{"at", "2026-01-01T00:00:00+24:00"},
		{"site", "https://example.com/<script>"},
		{"site", `https://example.com/"x"`},
		{"site", "https://例子.测试/"},
		{"email", "ä@b.co"},
		{"day", "2026-02-29"},
	}
	for _, sdk := range sdks {
		for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
			t.Run(sdk+"/"+version, func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				addTool(s, "contact", askContact)
				var mu sync.Mutex
				content := valid
				answer := func(context.Context, question) (*runtime.Response, error) {
					mu.Lock()
					defer mu.Unlock()
					return &runtime.Response{Action: runtime.ActionAccept, Content: content}, nil
				}
				c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: answer})
				if res, err := c.call(callCtx(t), "contact", nil); err != nil || res.Text != "ok" {
					t.Fatalf("valid answer: %+v, %v", res, err)
				}
				for _, h := range hostile {
					mu.Lock()
					content = map[string]any{}
					for k, v := range valid {
						content[k] = v
					}
					content[h.field] = h.value
					mu.Unlock()
					// Refused either way the adapter reports it: by default a
					// tool error the model can act on.
					res, err := c.call(callCtx(t), "contact", nil)
					var why string
					switch {
					case err != nil:
						why = err.Error()
					case res.IsError:
						why = res.Text
					default:
						t.Errorf("%s=%q accepted: %+v", h.field, h.value, res)
						continue
					}
					if !strings.Contains(why, h.field) {
						t.Errorf("%s=%q: %q does not name the field", h.field, h.value, why)
					}
				}
			})
		}
	}
}

// TestDuplicateKeysLastWins: an answer with a key twice is read as both
// SDKs decode JSON: the last occurrence wins, and it is validated.
func TestDuplicateKeysLastWins(t *testing.T) {
	for _, sdk := range sdks {
		for _, tc := range []struct {
			content string
			want    string // result text, or "" for invalid params
		}{
			{`{"branch":"feature","env":"prod","confirm":true,"replicas":99,"replicas":2}`, "deployed feature to prod x2 confirm=true"},
			{`{"branch":"feature","env":"prod","confirm":true,"replicas":2,"replicas":99}`, ""},
		} {
			t.Run(sdk, func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto, askErrors(runtime.AskErrorsJSONRPC))
				c := connect(t, s, sdk, clientOpts{answer: scripted})
				c.tap.setMutate(func(p map[string]any) {
					p["inputResponses"] = json.RawMessage(`{"Deploy":{"action":"accept","content":` + tc.content + `}}`)
				})
				res, err := c.call(callCtx(t), "deploy", nil)
				sent := false
				c.tap.mu.Lock()
				for _, m := range c.tap.toServer {
					sent = sent || strings.Contains(string(m), tc.content)
				}
				c.tap.mu.Unlock()
				if !sent {
					t.Fatal("the duplicate keys did not reach the server")
				}
				if tc.want == "" {
					wantInvalidParams(t, sdk, res, err, "replicas")
					return
				}
				if err != nil || res.Text != tc.want {
					t.Fatalf("call = %+v, %v; want %q", res, err, tc.want)
				}
			})
		}
	}
}
