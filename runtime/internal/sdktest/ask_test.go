package sdktest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// serverOpts are the optional settings of newServer.
type serverOpts struct {
	askErrors     runtime.AskErrorPolicy
	observer      runtime.Observer
	acceptUnasked bool
	replay        seal.ReplayStore
	// pages, when set, serve every form as a hosted page in URL mode
	// (Options.Rendering url-page), holding a 2025-era call pageHold.
	pages    *page.Pages
	pageHold time.Duration
}

type serverOpt func(*serverOpts)

// acceptUnasked sets the adapters' Config.AcceptUnasked: a first call
// carrying answers completes.
func acceptUnasked() serverOpt {
	return func(o *serverOpts) { o.acceptUnasked = true }
}

// replay sets the adapters' Config.Replay.
func replay(store seal.ReplayStore) serverOpt {
	return func(o *serverOpts) { o.replay = store }
}

// askErrors sets the adapters' Config.AskErrors.
func askErrors(p runtime.AskErrorPolicy) serverOpt {
	return func(o *serverOpts) { o.askErrors = p }
}

// allBodies returns the test tools of harness_test.go and of this file.
func (s *server) allBodies() map[string]body {
	m := s.bodies()
	for name, b := range askBodies() {
		m[name] = b
	}
	return m
}

const (
	confirmMsg = "Go ahead?"
	textMsg    = "Release name?"
	regionMsg  = "Which region?"
	teamsMsg   = "Which teams?"
)

var (
	regions = []runtime.Option{{Value: "eu", Title: "Europe"}, {Value: "us", Title: "United States"}}
	teams   = []runtime.Option{{Value: "web", Title: "Web"}, {Value: "ops", Title: "Operations"}, {Value: "db", Title: "Databases"}}
)

func askBodies() map[string]body {
	return map[string]body{
		"quick": func(ctx context.Context, ask runtime.Asker) (string, error) {
			c, err := runtime.AskConfirm(ctx, ask, confirmMsg)
			if err != nil || c.Action != runtime.ActionAccept {
				return string(c.Action), err
			}
			txt, err := runtime.AskText(ctx, ask, textMsg, runtime.WithTitle("Release name"))
			if err != nil || txt.Action != runtime.ActionAccept {
				return string(txt.Action), err
			}
			ch, err := runtime.AskChoice(ctx, ask, regionMsg, regions)
			if err != nil || ch.Action != runtime.ActionAccept {
				return string(ch.Action), err
			}
			cs, err := runtime.AskChoices(ctx, ask, teamsMsg, teams)
			if err != nil || cs.Action != runtime.ActionAccept {
				return string(cs.Action), err
			}
			return fmt.Sprintf("confirm=%t text=%s choice=%s choices=%v", c.Value, txt.Value, ch.Value, cs.Value), nil
		},
		"choice": func(ctx context.Context, ask runtime.Asker) (string, error) {
			ch, err := runtime.AskChoice(ctx, ask, regionMsg, regions)
			if err != nil {
				return "", err
			}
			return "choice=" + ch.Value, nil
		},
		"retry_choice": func(ctx context.Context, ask runtime.Asker) (string, error) {
			ch, err := runtime.AskChoice(ctx, ask, regionMsg, regions, runtime.WithRetries(1))
			if err != nil {
				return "", err
			}
			return "choice=" + ch.Value, nil
		},
		"retry_deploy": func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := testforms.AskDeploy(ctx, ask, deployMsg, runtime.WithRetries(1))
			if err != nil {
				return "", err
			}
			return describeDeploy(out.Value), nil
		},
		"subscribe": func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := testforms.AskSubscribe(ctx, ask, subscribeMsg)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s %v", out.Value.Email, out.Value.Channels), nil
		},
		"two_forms": func(ctx context.Context, ask runtime.Asker) (string, error) {
			if err := runtime.CanAsk(ctx, ask, testforms.DeploySchema(), testforms.NotifySchema()); err != nil {
				return "", err
			}
			d, err := testforms.AskDeploy(ctx, ask, deployMsg)
			if err != nil {
				return "", err
			}
			n, err := testforms.AskNotify(ctx, ask, notifyMsg)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s notify %v", describeDeploy(d.Value), n.Value.Channels), nil
		},
	}
}

// quickUser answers the quick asks.
func quickUser(_ context.Context, q question) (*runtime.Response, error) {
	accept := func(c map[string]any) (*runtime.Response, error) {
		return &runtime.Response{Action: runtime.ActionAccept, Content: c}, nil
	}
	switch q.Message {
	case confirmMsg:
		return accept(map[string]any{"confirm": true})
	case textMsg:
		return accept(map[string]any{"text": "v1.2"})
	case regionMsg:
		return accept(map[string]any{"choice": "eu"})
	case teamsMsg:
		if props, _ := q.Schema["properties"].(map[string]any); props["choices"] == nil {
			return accept(map[string]any{"web": true, "ops": true}) // one checkbox per option
		}
		return accept(map[string]any{"choices": []any{"web", "ops"}})
	}
	return scripted(context.Background(), q)
}

// recorder records the questions a user saw and answers with f.
type recorder struct {
	mu   sync.Mutex
	seen []question
	f    func(n int, q question) (*runtime.Response, error)
}

func (r *recorder) answer(_ context.Context, q question) (*runtime.Response, error) {
	r.mu.Lock()
	r.seen = append(r.seen, q)
	n := len(r.seen)
	r.mu.Unlock()
	return r.f(n, q)
}

func (r *recorder) questions() []question {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

// badChoice is an invalid answer that both SDKs let through to the
// runtime: a valid choice with an unknown field.
func badChoice() *runtime.Response {
	return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "eu", "bogus": 1}}
}

func choiceAnswer(v string) *runtime.Response {
	return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": v}}
}

var askMatrix = []matrixCase{
	{"quick_asks", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: quickUser})
		res, err := c.call(callCtx(t), "quick", nil)
		if want := "confirm=true text=v1.2 choice=eu choices=[web ops]"; err != nil || res.IsError || res.Text != want {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
		checkEra(t, s, c, version, "Confirm", "Text", "Choice", "Choices")
		params := elicitations(c)
		if len(params) != 4 {
			t.Fatalf("%d elicitations, want 4", len(params))
		}
		for i, want := range map[int][2]string{0: {"confirm", "Confirm"}, 1: {"text", "Release name"}, 2: {"choice", "Your choice"}} {
			p := prop(params[i], want[0])
			if p["title"] != want[1] {
				t.Errorf("elicitation %d: property %s = %v, want title %q", i, want[0], p, want[1])
			}
		}
		for i, p := range params {
			schema, _ := p["requestedSchema"].(map[string]any)
			props, _ := schema["properties"].(map[string]any)
			if len(props) == 0 {
				t.Errorf("elicitation %d has an empty schema: %v", i, schema)
			}
			for name, v := range props {
				if title, _ := v.(map[string]any)["title"].(string); title == "" || strings.EqualFold(title, "value") {
					t.Errorf("elicitation %d: property %s has title %q", i, name, title)
				}
			}
		}
		if fmt.Sprint(prop(params[2], "choice")["enum"]) != "[eu us]" && version == runtime.Version20250618 {
			t.Errorf("2025-06-18 choice = %v, want enum", prop(params[2], "choice"))
		}
		if version == runtime.Version20250618 {
			if p := prop(params[3], "ops"); p["type"] != "boolean" || p["title"] != "Operations" {
				t.Errorf("2025-06-18 AskChoices: ops = %v, want a boolean titled Operations", p)
			}
		} else if p := prop(params[3], "choices"); p["type"] != "array" || p["title"] != "Your choices" {
			t.Errorf("AskChoices: choices = %v, want a titled multi-select", p)
		}
	}},
	{"quick_choice_outside_options", func(t *testing.T, sdk, version string) {
		if sdk == goSDK && runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("go-sdk's client refuses to send an answer outside the schema's options")
		}
		// go-sdk's client checks its own answer and does not send it
		// (the field is named in elicitgen's words); mcp-go's sends it,
		// and the runtime refuses it.
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: respond(choiceAnswer("mars"))})
		res, err := c.call(callCtx(t), "choice", nil)
		if sdk == goSDK {
			if err != nil || !res.IsError || !strings.HasPrefix(res.Text, `The answer was invalid: "Your choice" (choice): `) || strings.Contains(res.Text, "/properties/") {
				t.Fatalf("call = %+v, %v; want a tool error naming the bad choice", res, err)
			}
			return
		}
		if err != nil || !res.IsError || !strings.Contains(res.Text, `The answer was invalid: "Your choice" (choice):`) || !strings.Contains(res.Text, `"mars"`) {
			t.Fatalf("call = %+v, %v; want a tool error naming the bad choice", res, err)
		}
	}},
	{"retry_invalid", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(n int, q question) (*runtime.Response, error) {
			if n == 1 {
				return badChoice(), nil
			}
			return choiceAnswer("us"), nil
		}}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), "retry_choice", nil)
		if err != nil || res.IsError || res.Text != "choice=us" {
			t.Fatalf("call = %+v, %v; want choice=us", res, err)
		}
		qs := u.questions()
		if len(qs) != 2 {
			t.Fatalf("user was asked %d times, want 2", len(qs))
		}
		if qs[0].Message != regionMsg || !strings.HasPrefix(qs[1].Message, regionMsg) ||
			!strings.Contains(qs[1].Message, "The previous answer was not accepted") || !strings.Contains(qs[1].Message, "bogus is not a field of this form") {
			t.Errorf("messages = %q, %q; want the second to say what was wrong", qs[0].Message, qs[1].Message)
		}
		// 2026-07-28: another input_required round for the same key.
		checkEra(t, s, c, version, "Choice", "Choice")
		// The re-ask went through the handler's middleware, numbered.
		if n := s.reasked.Load(); n != 1 {
			t.Errorf("the wrapper saw %d re-asks, want 1", n)
		}
	}},
	{"same_invalid_answer", func(t *testing.T, sdk, version string) {
		// A client that cannot fill a field sends the same invalid answer
		// again: the server stops asking and tells the model which fields
		// to ask for in the conversation.
		if sdk == goSDK {
			t.Skip("go-sdk's client checks its own answer and does not send an invalid one (gosdk's TestPushInvalidAnswerOwnMessage answers past it)")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(int, question) (*runtime.Response, error) { return choiceAnswer("mars"), nil }}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), "retry_choice", nil)
		want := `The user's client sent the same invalid answer twice ("Your choice" (choice): "mars" is not one of "eu", "us"), so it apparently cannot fill in "Your choice" (choice). Ask the user for "Your choice" (choice) in the conversation`
		if err != nil || !res.IsError || !strings.HasPrefix(res.Text, want) {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
		if n := len(u.questions()); n != 2 {
			t.Errorf("user was asked %d times, want 2", n)
		}
	}},
	{"retry_used_up", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(i int, _ question) (*runtime.Response, error) {
			r := badChoice()
			r.Content["bogus"] = i // a different invalid answer each time
			return r, nil
		}}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), "retry_choice", nil)
		if err != nil || !res.IsError || !strings.Contains(res.Text, "The answer was invalid") {
			t.Fatalf("call = %+v, %v; want an invalid-answer tool error", res, err)
		}
		if n := len(u.questions()); n != 2 {
			t.Errorf("user was asked %d times, want 2 (one retry)", n)
		}
	}},
	{"invalid_tool_error", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version),
			answer: respond(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"replicas": 3, "bogus": true}})})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err != nil || !res.IsError || !strings.HasPrefix(res.Text, "The answer was invalid: bogus: is not a field of this form") {
			t.Fatalf("call = %+v, %v; want an invalid-answer tool error", res, err)
		}
	}},
	{"timeout_tool_error", func(t *testing.T, sdk, version string) {
		if runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("2026-07-28: the server never waits for the user, so there is no timeout to report")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		user, release := silentUser()
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
		t.Cleanup(release)
		res, err := c.call(callCtx(t), "timeout", nil)
		if err != nil || !res.IsError || res.Text != "The user did not answer within 150ms: ask again later, or ask the user in the conversation." {
			t.Fatalf("call = %+v, %v; want a timeout tool error", res, err)
		}
		<-s.askErrs
	}},
	{"client_failure_tool_error", func(t *testing.T, sdk, version string) {
		if runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("2026-07-28: a client that fails to answer fails its own retry; the server never sees it")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version),
			answer: func(context.Context, question) (*runtime.Response, error) {
				return nil, errors.New("form renderer crashed")
			}})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err != nil || !res.IsError || !strings.HasPrefix(res.Text, "Could not ask the user (") || !strings.Contains(res.Text, "try again later") {
			t.Fatalf("call = %+v, %v; want a could-not-ask tool error", res, err)
		}
	}},
	{"unavailable_tool_error", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableToolError)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version)})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err != nil || !res.IsError || !strings.Contains(res.Text, "cannot ask") || !strings.Contains(res.Text, "Ask the user for these fields") {
			t.Fatalf("call = %+v, %v; want a cannot-ask tool error", res, err)
		}
	}},
	{"malformed_input_responses", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		c.tap.setMutate(func(p map[string]any) {
			p["inputResponses"] = map[string]any{"Deploy": 12345}
		})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err == nil {
			t.Fatalf("malformed inputResponses gave a result: %+v", res)
		}
		checkInvalidParams(t, sdk, err)
	}},
	{"optional_multi_select", func(t *testing.T, sdk, version string) {
		// On 2025-06-18 the optional multi-select is left out of the form,
		// not the whole form unavailable; the value takes its default.
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: func(_ context.Context, q question) (*runtime.Response, error) {
			content := map[string]any{"email": "ana@example.com"}
			if props, _ := q.Schema["properties"].(map[string]any); props["channels"] != nil {
				content["channels"] = []any{"slack"}
			}
			return &runtime.Response{Action: runtime.ActionAccept, Content: content}, nil
		}})
		res, err := c.call(callCtx(t), "subscribe", nil)
		want := "ana@example.com [slack]"
		if version == runtime.Version20250618 {
			want = "ana@example.com [email]"
		}
		if err != nil || res.IsError || res.Text != want {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
	}},
	{"can_ask_all_first", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		res, err := c.call(callCtx(t), "two_forms", nil)
		// On 2025-06-18 Notify's required multi-select is asked as one
		// boolean per option: both forms can be asked.
		if want := acceptedText + " notify [email slack]"; err != nil || res.Text != want {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
	}},
}

// TestAskMatrix runs the quick-ask, retry, error-reply and CanAsk cases
// for each SDK and protocol era.
func TestAskMatrix(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					for _, mc := range askMatrix {
						t.Run(mc.name, func(t *testing.T) { mc.run(t, sdk, version) })
					}
				})
			}
		})
	}
}
