package adapter_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/deliver"
	"github.com/elicitgen/elicitgen/runtime/seal"

	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// round is one invocation of a handler on a 2026-07-28 request.
type round struct {
	state     string
	responses map[string]*runtime.Response
	malformed map[string]string
	caps      adapter.ClientCaps
	args      string
}

func exSealer(t *testing.T) *seal.Sealer {
	return &seal.Sealer{Keys: testRing(t)}
}

func modernExchange(t *testing.T, s *seal.Sealer, r round) *adapter.Exchange {
	t.Helper()
	if r.caps == (adapter.ClientCaps{}) {
		r.caps = adapter.ClientCaps{Form: true, URL: true}
	}
	x, err := adapter.NewExchange(s, &adapter.Call{
		Tool: "deploy", Args: []byte(r.args), Version: runtime.Version20260728, Caps: r.caps,
		State: r.state, Responses: r.responses, Malformed: r.malformed,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Claim(context.Background(), seal.NewMemoryReplayStore(0)); err != nil {
		t.Fatal(err)
	}
	return x
}

// twoStep is a handler that asks Deploy then Approve.
func twoStep(ctx context.Context, ask runtime.Asker) (string, error) {
	d, err := testforms.AskDeploy(ctx, ask, "deploy?")
	if err != nil {
		return "", err
	}
	a, err := testforms.AskApprove(ctx, ask, "approve?")
	if err != nil {
		return "", err
	}
	return string(d.Value.Env) + "/" + string(a.Action), nil
}

func mustInputRequired(t *testing.T, x *adapter.Exchange, err error, keys ...string) string {
	t.Helper()
	var ire *runtime.InputRequiredError
	if !errors.As(err, &ire) || !errors.Is(err, runtime.ErrInputRequired) {
		t.Fatalf("handler error = %v, want input required", err)
	}
	r := x.Reply(err, runtime.UnavailableAuto)
	if r.Kind != adapter.ReplyInputRequired || r.State == "" {
		t.Fatalf("Reply = %+v, want input required with state", r)
	}
	var got []string
	for _, p := range r.Requests {
		got = append(got, p.Key)
	}
	if strings.Join(got, ",") != strings.Join(keys, ",") {
		t.Fatalf("pending keys %v, want %v", got, keys)
	}
	return r.State
}

func TestExchangeTwoStepRounds(t *testing.T) {
	ctx := context.Background()
	s := exSealer(t)
	deploy, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvProd, Replicas: 2})
	approve, _ := testforms.AcceptApprove(testforms.Approve{Approve: true})

	x := modernExchange(t, s, round{args: `{"p":1}`})
	_, err := twoStep(ctx, x)
	st1 := mustInputRequired(t, x, err, "Deploy")

	// A retry without the answer (and with an unknown key) asks again.
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st1, responses: map[string]*runtime.Response{"bogus": deploy}})
	_, err = twoStep(ctx, x)
	st1 = mustInputRequired(t, x, err, "Deploy")

	x = modernExchange(t, s, round{args: `{"p":1}`, state: st1, responses: map[string]*runtime.Response{"Deploy": deploy}})
	_, err = twoStep(ctx, x)
	st2 := mustInputRequired(t, x, err, "Approve")

	// The Deploy answer now rides in st2 only: the last retry carries
	// just the Approve answer.
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st2, responses: map[string]*runtime.Response{"Approve": approve}})
	got, err := twoStep(ctx, x)
	if err != nil || got != "prod/accept" {
		t.Fatalf("final round = %q, %v", got, err)
	}
	if r := x.Reply(nil, runtime.UnavailableAuto); r.Kind != adapter.ReplyResult || r.Err != nil {
		t.Errorf("Reply = %+v", r)
	}

	// Sealed answers win over a conflicting inputResponse.
	other, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvStaging, Replicas: 2})
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st2, responses: map[string]*runtime.Response{"Approve": approve, "Deploy": other}})
	if got, _ := twoStep(ctx, x); got != "prod/accept" {
		t.Errorf("conflicting inputResponse replaced a sealed answer: %q", got)
	}

	// The state is bound to the arguments.
	if _, err := adapter.NewExchange(s, &adapter.Call{Tool: "deploy", Args: []byte(`{"p":2}`), Version: runtime.Version20260728, State: st2}); !errors.Is(err, seal.ErrStateForeign) {
		t.Errorf("state replayed with other arguments: %v", err)
	}
}

func TestExchangeKeys(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{})
	for range 3 {
		_, _ = testforms.AskDeploy(ctx, x, "again?")
	}
	_, err := runtime.AskURL(ctx, x, "open", "https://example.com/a")
	mustInputRequired(t, x, err, "Deploy", "Deploy#2", "Deploy#3", "url")
	for _, p := range x.Pending() {
		if p.Request.Mode == runtime.ModeURL && p.Request.ElicitationID == "" {
			t.Error("URL request has no flow id")
		}
	}
}

// WithKey names a question in inputRequests; a repeated key is numbered
// and the answer is found under it on the retry.
func TestExchangeWithKey(t *testing.T) {
	ctx := context.Background()
	s := exSealer(t)
	deploy, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvProd, Replicas: 2})
	handler := func(x *adapter.Exchange) (string, error) {
		var err error
		var envs []string
		for range 2 {
			out, aerr := testforms.AskDeploy(ctx, x, "deploy?", runtime.WithKey("deploy.target"))
			err = errors.Join(err, aerr)
			if v, ok := out.Accepted(); ok {
				envs = append(envs, string(v.Env))
			}
		}
		_, aerr := runtime.AskURL(ctx, x, "open", "https://example.com/a", runtime.WithKey("link"))
		return strings.Join(envs, ","), errors.Join(err, aerr)
	}
	x := modernExchange(t, s, round{})
	_, err := handler(x)
	st := mustInputRequired(t, x, err, "deploy.target", "deploy.target#2", "link")

	x = modernExchange(t, s, round{state: st, responses: map[string]*runtime.Response{
		"deploy.target": deploy, "deploy.target#2": deploy, "link": {Action: runtime.ActionAccept},
	}})
	if got, err := handler(x); err != nil || got != "prod,prod" {
		t.Fatalf("retry = %q, %v", got, err)
	}

	// A keyed URL flow keeps its flow id under its own key.
	x = modernExchange(t, s, round{})
	_, err = runtime.AskURLFlow(ctx, x, "connect", func(id string) string { return "https://example.com/c?flow=" + id }, runtime.WithKey("connect"))
	mustInputRequired(t, x, err, "connect")
}

// A bad key fails the ask before anything is sent.
func TestWithKeyInvalid(t *testing.T) {
	ctx := context.Background()
	page := func(string) string { return "https://example.com/" }
	for _, key := range []string{"", "user name", "Deploy#2", "ключ", strings.Repeat("k", runtime.MaxKeyLen+1)} {
		a := elicittest.New(elicittest.Decline(), elicittest.Decline(), elicittest.Decline())
		_, err1 := testforms.AskDeploy(ctx, a, "deploy?", runtime.WithKey(key))
		_, err2 := runtime.AskURL(ctx, a, "open", "https://example.com/", runtime.WithKey(key))
		_, err3 := runtime.AskURLFlow(ctx, a, "open", page, runtime.WithKey(key))
		for _, err := range []error{err1, err2, err3} {
			if !errors.Is(err, runtime.ErrInvalidKey) {
				t.Errorf("WithKey(%q): %v, want ErrInvalidKey", key, err)
			}
		}
		if n := len(a.Requests()); n != 0 {
			t.Errorf("WithKey(%q): %d requests sent", key, n)
		}
	}
	if _, err := testforms.AskDeploy(ctx, elicittest.New(elicittest.Decline()), "?", runtime.WithKey(strings.Repeat("k", runtime.MaxKeyLen))); err != nil {
		t.Errorf("a %d-character key: %v", runtime.MaxKeyLen, err)
	}
	// The Exchange checks the key of a request made by hand, too.
	x := modernExchange(t, exSealer(t), round{})
	_, err := x.Ask(ctx, &runtime.Request{Mode: runtime.ModeForm, Key: "a b", Schema: testforms.DeploySchema()})
	if !errors.Is(err, runtime.ErrInvalidKey) || len(x.Pending()) != 0 {
		t.Errorf("Exchange.Ask with key %q: %v, %d pending", "a b", err, len(x.Pending()))
	}
}

func TestExchangeMalformedAndInvalid(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{malformed: map[string]string{"Deploy": "content must be a JSON object"}})
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `inputResponses["Deploy"]: content must be a JSON object`) {
		t.Fatalf("malformed answer: %v", err)
	}
	if r := x.Reply(err, runtime.UnavailableAuto); r.Kind != adapter.ReplyInvalidParams {
		t.Errorf("Reply = %+v, want invalid params", r)
	}

	x = modernExchange(t, exSealer(t), round{responses: map[string]*runtime.Response{
		"Deploy": {Action: runtime.ActionAccept, Content: map[string]any{"replicas": "three", "extra": 1}},
	}})
	_, err = testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.As(err, &ve) || ve.Field("replicas") == nil || ve.Field("extra") == nil {
		t.Fatalf("invalid answer: %v", err)
	}
	x = modernExchange(t, exSealer(t), round{responses: map[string]*runtime.Response{"Deploy": {Action: "maybe"}}})
	_, err = testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, runtime.ErrInvalidAction) || x.Reply(err, 0).Kind != adapter.ReplyInvalidParams {
		t.Fatalf("unknown action: %v", err)
	}
}

func TestExchangeCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := modernExchange(t, exSealer(t), round{})
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrInputRequired) {
		t.Fatalf("ask with a cancelled context = %v", err)
	}
	if len(x.Pending()) != 0 {
		t.Error("a cancelled ask left a pending request")
	}
}

func TestExchangeUnavailable(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{caps: adapter.ClientCaps{URL: true}}) // URL only
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, runtime.ErrUnavailable) || len(x.Pending()) != 0 {
		t.Fatalf("form ask of a URL-only client = %v", err)
	}
	r := x.Reply(err, runtime.UnavailableAuto)
	data, _ := json.Marshal(r.Data)
	if r.Kind != adapter.ReplyMissingCapability || string(data) != `{"requiredCapabilities":{"elicitation":{"form":{}}}}` {
		t.Errorf("Auto on 2026: %+v %s", r, data)
	}
	if r := x.Reply(err, runtime.UnavailableToolError); r.Kind != adapter.ReplyToolError || !strings.Contains(r.Text, "- replicas: required, integer") {
		t.Errorf("ToolError: %+v", r)
	}
	if r := x.Reply(err, runtime.UnavailablePassThrough); r.Kind != adapter.ReplyResult || !errors.Is(r.Err, runtime.ErrUnavailable) {
		t.Errorf("PassThrough: %+v", r)
	}

	push := func(version string, caps adapter.ClientCaps) (*adapter.Exchange, *elicittest.Asker) {
		a := elicittest.New(elicittest.Accept(map[string]any{"channels": []any{"email"}}))
		x, err := adapter.NewExchange(nil, &adapter.Call{Tool: "t", Version: version, Caps: caps, Peer: deliver.Peer{Push: a}})
		if err != nil {
			t.Fatal(err)
		}
		return x, a
	}
	form := adapter.ClientCaps{Form: true}
	for _, tc := range []struct {
		version string
		caps    adapter.ClientCaps
		ask     func(*adapter.Exchange) error
	}{
		{runtime.Version20250618, form, func(x *adapter.Exchange) error {
			// A form of optional multi-selects only would be sent empty.
			only := &runtime.Schema{Name: "Only", Properties: []runtime.Property{{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}}}}}
			_, err := x.Ask(ctx, &runtime.Request{Mode: runtime.ModeForm, Schema: only})
			return err
		}},
		{"2025-03-26", form, func(x *adapter.Exchange) error { _, err := testforms.AskDeploy(ctx, x, "?"); return err }},
		{runtime.Version20251125, adapter.ClientCaps{}, func(x *adapter.Exchange) error { _, err := testforms.AskDeploy(ctx, x, "?"); return err }},
		{runtime.Version20251125, form, func(x *adapter.Exchange) error {
			_, err := runtime.AskURL(ctx, x, "?", "https://example.com")
			return err
		}},
		{runtime.Version20250618, adapter.ClientCaps{Form: true, URL: true}, func(x *adapter.Exchange) error {
			_, err := runtime.AskURL(ctx, x, "?", "https://example.com")
			return err
		}},
	} {
		x, a := push(tc.version, tc.caps)
		err := tc.ask(x)
		if !errors.Is(err, runtime.ErrUnavailable) || len(a.Requests()) != 0 {
			t.Errorf("%s %+v: ask = %v after %d pushes, want unavailable and none", tc.version, tc.caps, err, len(a.Requests()))
		}
		if r := x.Reply(err, runtime.UnavailableAuto); r.Kind != adapter.ReplyToolError {
			t.Errorf("%s: Auto on a push era = %+v, want a tool error", tc.version, r)
		}
	}
	// The same multi-select form goes through on 2025-11-25.
	x, a := push(runtime.Version20251125, form)
	out, err := testforms.AskNotify(ctx, x, "?")
	if v, ok := out.Accepted(); err != nil || !ok || len(v.Channels) != 1 || len(a.Requests()) != 1 {
		t.Errorf("multi-select on 2025-11-25 = %+v, %v", out, err)
	}
}

func TestAskURLFlowStableAcrossRounds(t *testing.T) {
	ctx := context.Background()
	s := exSealer(t)
	var pages []string
	page := func(id string) string {
		p := deliver.PageURL("https://acme.example/connect", "flow", id)
		pages = append(pages, p)
		return p
	}
	x := modernExchange(t, s, round{})
	_, err := runtime.AskURLFlow(ctx, x, "connect", page)
	st := mustInputRequired(t, x, err, "url")
	sent := x.Pending()[0].Request

	x = modernExchange(t, s, round{state: st, responses: map[string]*runtime.Response{"url": {Action: runtime.ActionAccept}}})
	out, err := runtime.AskURLFlow(ctx, x, "connect", page)
	if err != nil || out.Action != runtime.ActionAccept {
		t.Fatalf("retry = %+v, %v", out, err)
	}
	if len(pages) != 2 || pages[0] != pages[1] || sent.URL != pages[0] || !strings.HasSuffix(pages[0], "flow="+out.FlowID) {
		t.Errorf("flow not stable: pages %v, sent %q, outcome %+v", pages, sent.URL, out)
	}
	if _, err := runtime.AskURLFlow(ctx, x, "connect", func(string) string { return "http://evil.example/" }); !errors.Is(err, runtime.ErrUnsafeURL) {
		t.Errorf("unsafe page URL: %v", err)
	}
}

func TestReplyURLRequired(t *testing.T) {
	herr := deliver.RequireURL("link your account", "https://acme.example/link", "flow-1")
	mk := func(version string, caps adapter.ClientCaps) *adapter.Exchange {
		x, err := adapter.NewExchange(exSealer(t), &adapter.Call{Tool: "t", Version: version, Caps: caps})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	both := adapter.ClientCaps{Form: true, URL: true}
	if r := mk(runtime.Version20251125, both).Reply(herr, 0); r.Kind != adapter.ReplyURLRequired || r.Requests[0].Request.ElicitationID != "flow-1" {
		t.Errorf("2025-11-25: %+v", r)
	}
	if r := mk(runtime.Version20260728, both).Reply(herr, 0); r.Kind != adapter.ReplyInputRequired || r.Requests[0].Key != "url" {
		t.Errorf("2026-07-28: %+v", r)
	}
	if r := mk(runtime.Version20250618, both).Reply(herr, 0); r.Kind != adapter.ReplyToolError {
		t.Errorf("2025-06-18: %+v", r)
	}
	if r := mk(runtime.Version20260728, adapter.ClientCaps{Form: true}).Reply(herr, 0); r.Kind != adapter.ReplyMissingCapability {
		t.Errorf("2026-07-28 without url: %+v", r)
	}
	if err := deliver.RequireURL("x", "https://user:pw@acme.example/", ""); !errors.Is(err, runtime.ErrUnsafeURL) {
		t.Errorf("credentials in URL: %v", err)
	}
}

func TestParseClientCaps(t *testing.T) {
	for _, tc := range []struct {
		version string
		caps    any
		want    adapter.ClientCaps
	}{
		{runtime.Version20251125, nil, adapter.ClientCaps{}},
		{runtime.Version20251125, `{}`, adapter.ClientCaps{}},
		{runtime.Version20251125, `{"sampling":{}}`, adapter.ClientCaps{}},
		{runtime.Version20251125, `{"elicitation":null}`, adapter.ClientCaps{}},
		{runtime.Version20251125, `{"elicitation":{}}`, adapter.ClientCaps{Form: true}},
		{runtime.Version20251125, `{"elicitation":{"url":{}}}`, adapter.ClientCaps{URL: true}},
		{runtime.Version20251125, `{"elicitation":{"form":{},"url":{}}}`, adapter.ClientCaps{Form: true, URL: true}},
		{runtime.Version20260728, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, adapter.ClientCaps{Form: true}},
		{runtime.Version20250618, `{"elicitation":{"url":{}}}`, adapter.ClientCaps{Form: true}},
		{runtime.Version20260728, struct {
			Elicitation map[string]any `json:"elicitation"`
		}{map[string]any{"url": struct{}{}}}, adapter.ClientCaps{URL: true}},
	} {
		got, err := adapter.ParseClientCaps(tc.version, tc.caps)
		if err != nil || got != tc.want {
			t.Errorf("ParseClientCaps(%s, %v) = %+v, %v; want %+v", tc.version, tc.caps, got, err, tc.want)
		}
	}
	if _, err := adapter.ParseClientCaps(runtime.Version20251125, `[`); err == nil {
		t.Error("bad JSON accepted")
	}
}

func TestAskUserText(t *testing.T) {
	err := &runtime.UnavailableError{Reason: "no elicitation", Mode: runtime.ModeForm, Schema: testforms.DeploySchema(), Message: "Deploy what?"}
	text := runtime.AskUserText(err)
	for _, want := range []string{
		"(no elicitation)", `Question: "Deploy what?"`, "(form Deploy)",
		"- branch: optional, string, at least 1 character, default \"main\". The git branch to deploy.",
		`- env ("Environment"): optional, one of "staging" (Staging), "prod" (Production), default "staging"`,
		"- replicas: required, integer, minimum 1, maximum 10",
		"- confirm: optional, boolean, default false",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if runtime.AskUserText(errors.New("other")) != "" {
		t.Error("text for a non-unavailable error")
	}
}

func testRing(t testing.TB) *seal.KeyRing {
	t.Helper()
	r, err := seal.NewKeyRing(seal.Key{ID: "k1", Secret: bytes.Repeat([]byte{9}, seal.MinKeySize)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
