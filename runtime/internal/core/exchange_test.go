package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/core"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// round is one invocation of a handler on a 2026-07-28 request.
type round struct {
	state     string
	responses map[string]*core.Response
	malformed map[string]string
	caps      core.ClientCaps
	args      string
}

func exSealer(t *testing.T) *core.Sealer {
	return &core.Sealer{Keys: stateRing(t, stateKey("k1", 9))}
}

func modernExchange(t *testing.T, s *core.Sealer, r round) *core.Exchange {
	t.Helper()
	if r.caps == (core.ClientCaps{}) {
		r.caps = core.ClientCaps{Form: true, URL: true}
	}
	x, err := core.NewExchange(s, &core.Call{
		Tool: "deploy", Args: []byte(r.args), Version: core.Version20260728, Caps: r.caps,
		State: r.state, Responses: r.responses, Malformed: r.malformed,
	})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// twoStep is a handler that asks Deploy then Approve.
func twoStep(ctx context.Context, ask core.Asker) (string, error) {
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

func mustInputRequired(t *testing.T, x *core.Exchange, err error, keys ...string) string {
	t.Helper()
	var ire *core.InputRequiredError
	if !errors.As(err, &ire) || !errors.Is(err, core.ErrInputRequired) {
		t.Fatalf("handler error = %v, want input required", err)
	}
	r := x.Reply(err, core.UnavailableAuto)
	if r.Kind != core.ReplyInputRequired || r.State == "" {
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
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st1, responses: map[string]*core.Response{"bogus": deploy}})
	_, err = twoStep(ctx, x)
	st1 = mustInputRequired(t, x, err, "Deploy")

	x = modernExchange(t, s, round{args: `{"p":1}`, state: st1, responses: map[string]*core.Response{"Deploy": deploy}})
	_, err = twoStep(ctx, x)
	st2 := mustInputRequired(t, x, err, "Approve")

	// The Deploy answer now rides in st2 only: the last retry carries
	// just the Approve answer.
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st2, responses: map[string]*core.Response{"Approve": approve}})
	got, err := twoStep(ctx, x)
	if err != nil || got != "prod/accept" {
		t.Fatalf("final round = %q, %v", got, err)
	}
	if r := x.Reply(nil, core.UnavailableAuto); r.Kind != core.ReplyResult || r.Err != nil {
		t.Errorf("Reply = %+v", r)
	}

	// Sealed answers win over a conflicting inputResponse.
	other, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "b", Env: testforms.EnvStaging, Replicas: 2})
	x = modernExchange(t, s, round{args: `{"p":1}`, state: st2, responses: map[string]*core.Response{"Approve": approve, "Deploy": other}})
	if got, _ := twoStep(ctx, x); got != "prod/accept" {
		t.Errorf("conflicting inputResponse replaced a sealed answer: %q", got)
	}

	// The state is bound to the arguments.
	if _, err := core.NewExchange(s, &core.Call{Tool: "deploy", Args: []byte(`{"p":2}`), Version: core.Version20260728, State: st2}); !errors.Is(err, core.ErrStateForeign) {
		t.Errorf("state replayed with other arguments: %v", err)
	}
}

func TestExchangeKeys(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{})
	for range 3 {
		_, _ = testforms.AskDeploy(ctx, x, "again?")
	}
	_, err := core.AskURL(ctx, x, "open", "https://example.com/a")
	mustInputRequired(t, x, err, "Deploy", "Deploy#2", "Deploy#3", "url")
	for _, p := range x.Pending() {
		if p.Request.Mode == core.ModeURL && p.Request.ElicitationID == "" {
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
	handler := func(x *core.Exchange) (string, error) {
		var err error
		var envs []string
		for range 2 {
			out, aerr := testforms.AskDeploy(ctx, x, "deploy?", core.WithKey("deploy.target"))
			err = errors.Join(err, aerr)
			envs = append(envs, string(out.Value.Env))
		}
		_, aerr := core.AskURL(ctx, x, "open", "https://example.com/a", core.WithKey("link"))
		return strings.Join(envs, ","), errors.Join(err, aerr)
	}
	x := modernExchange(t, s, round{})
	_, err := handler(x)
	st := mustInputRequired(t, x, err, "deploy.target", "deploy.target#2", "link")

	x = modernExchange(t, s, round{state: st, responses: map[string]*core.Response{
		"deploy.target": deploy, "deploy.target#2": deploy, "link": {Action: core.ActionAccept},
	}})
	if got, err := handler(x); err != nil || got != "prod,prod" {
		t.Fatalf("retry = %q, %v", got, err)
	}

	// A keyed URL flow keeps its flow id under its own key.
	x = modernExchange(t, s, round{})
	_, err = core.AskURLFlow(ctx, x, "connect", func(id string) string { return "https://example.com/c?flow=" + id }, core.WithKey("connect"))
	mustInputRequired(t, x, err, "connect")
}

// A bad key fails the ask before anything is sent.
func TestWithKeyInvalid(t *testing.T) {
	ctx := context.Background()
	page := func(string) string { return "https://example.com/" }
	for _, key := range []string{"", "user name", "Deploy#2", "ключ", strings.Repeat("k", core.MaxKeyLen+1)} {
		a := elicittest.New(elicittest.Decline(), elicittest.Decline(), elicittest.Decline())
		_, err1 := testforms.AskDeploy(ctx, a, "deploy?", core.WithKey(key))
		_, err2 := core.AskURL(ctx, a, "open", "https://example.com/", core.WithKey(key))
		_, err3 := core.AskURLFlow(ctx, a, "open", page, core.WithKey(key))
		for _, err := range []error{err1, err2, err3} {
			if !errors.Is(err, core.ErrInvalidKey) {
				t.Errorf("WithKey(%q): %v, want ErrInvalidKey", key, err)
			}
		}
		if n := len(a.Requests()); n != 0 {
			t.Errorf("WithKey(%q): %d requests sent", key, n)
		}
	}
	if _, err := testforms.AskDeploy(ctx, elicittest.New(elicittest.Decline()), "?", core.WithKey(strings.Repeat("k", core.MaxKeyLen))); err != nil {
		t.Errorf("a %d-character key: %v", core.MaxKeyLen, err)
	}
	// The Exchange checks the key of a request made by hand, too.
	x := modernExchange(t, exSealer(t), round{})
	_, err := x.Ask(ctx, &core.Request{Mode: core.ModeForm, Key: "a b", Schema: testforms.DeploySchema()})
	if !errors.Is(err, core.ErrInvalidKey) || len(x.Pending()) != 0 {
		t.Errorf("Exchange.Ask with key %q: %v, %d pending", "a b", err, len(x.Pending()))
	}
}

func TestExchangeMalformedAndInvalid(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{malformed: map[string]string{"Deploy": "content must be a JSON object"}})
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	var ve *core.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), `inputResponses["Deploy"]: content must be a JSON object`) {
		t.Fatalf("malformed answer: %v", err)
	}
	if r := x.Reply(err, core.UnavailableAuto); r.Kind != core.ReplyInvalidParams {
		t.Errorf("Reply = %+v, want invalid params", r)
	}

	x = modernExchange(t, exSealer(t), round{responses: map[string]*core.Response{
		"Deploy": {Action: core.ActionAccept, Content: map[string]any{"replicas": "three", "extra": 1}},
	}})
	_, err = testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.As(err, &ve) || ve.Field("replicas") == nil || ve.Field("extra") == nil {
		t.Fatalf("invalid answer: %v", err)
	}
	x = modernExchange(t, exSealer(t), round{responses: map[string]*core.Response{"Deploy": {Action: "maybe"}}})
	_, err = testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, core.ErrInvalidAction) || x.Reply(err, 0).Kind != core.ReplyInvalidParams {
		t.Fatalf("unknown action: %v", err)
	}
}

func TestExchangeCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := modernExchange(t, exSealer(t), round{})
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, context.Canceled) || errors.Is(err, core.ErrInputRequired) {
		t.Fatalf("ask with a cancelled context = %v", err)
	}
	if len(x.Pending()) != 0 {
		t.Error("a cancelled ask left a pending request")
	}
}

func TestExchangeUnavailable(t *testing.T) {
	ctx := context.Background()
	x := modernExchange(t, exSealer(t), round{caps: core.ClientCaps{URL: true}}) // URL only
	_, err := testforms.AskDeploy(ctx, x, "deploy?")
	if !errors.Is(err, core.ErrUnavailable) || len(x.Pending()) != 0 {
		t.Fatalf("form ask of a URL-only client = %v", err)
	}
	r := x.Reply(err, core.UnavailableAuto)
	data, _ := json.Marshal(r.Data)
	if r.Kind != core.ReplyMissingCapability || string(data) != `{"requiredCapabilities":{"elicitation":{"form":{}}}}` {
		t.Errorf("Auto on 2026: %+v %s", r, data)
	}
	if r := x.Reply(err, core.UnavailableToolError); r.Kind != core.ReplyToolError || !strings.Contains(r.Text, "- replicas: required, integer") {
		t.Errorf("ToolError: %+v", r)
	}
	if r := x.Reply(err, core.UnavailablePassThrough); r.Kind != core.ReplyResult || !errors.Is(r.Err, core.ErrUnavailable) {
		t.Errorf("PassThrough: %+v", r)
	}

	push := func(version string, caps core.ClientCaps) (*core.Exchange, *elicittest.Asker) {
		a := elicittest.New(elicittest.Accept(map[string]any{"channels": []any{"email"}}))
		x, err := core.NewExchange(nil, &core.Call{Tool: "t", Version: version, Caps: caps, Push: a})
		if err != nil {
			t.Fatal(err)
		}
		return x, a
	}
	form := core.ClientCaps{Form: true}
	for _, tc := range []struct {
		version string
		caps    core.ClientCaps
		ask     func(*core.Exchange) error
	}{
		{core.Version20250618, form, func(x *core.Exchange) error { _, err := testforms.AskNotify(ctx, x, "?"); return err }},
		{"2025-03-26", form, func(x *core.Exchange) error { _, err := testforms.AskDeploy(ctx, x, "?"); return err }},
		{core.Version20251125, core.ClientCaps{}, func(x *core.Exchange) error { _, err := testforms.AskDeploy(ctx, x, "?"); return err }},
		{core.Version20251125, form, func(x *core.Exchange) error {
			_, err := core.AskURL(ctx, x, "?", "https://example.com")
			return err
		}},
		{core.Version20250618, core.ClientCaps{Form: true, URL: true}, func(x *core.Exchange) error {
			_, err := core.AskURL(ctx, x, "?", "https://example.com")
			return err
		}},
	} {
		x, a := push(tc.version, tc.caps)
		err := tc.ask(x)
		if !errors.Is(err, core.ErrUnavailable) || len(a.Requests()) != 0 {
			t.Errorf("%s %+v: ask = %v after %d pushes, want unavailable and none", tc.version, tc.caps, err, len(a.Requests()))
		}
		if r := x.Reply(err, core.UnavailableAuto); r.Kind != core.ReplyToolError {
			t.Errorf("%s: Auto on a push era = %+v, want a tool error", tc.version, r)
		}
	}
	// The same multi-select form goes through on 2025-11-25.
	x, a := push(core.Version20251125, form)
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
		p := core.PageURL("https://acme.example/connect", "flow", id)
		pages = append(pages, p)
		return p
	}
	x := modernExchange(t, s, round{})
	_, err := core.AskURLFlow(ctx, x, "connect", page)
	st := mustInputRequired(t, x, err, "url")
	sent := x.Pending()[0].Request

	x = modernExchange(t, s, round{state: st, responses: map[string]*core.Response{"url": {Action: core.ActionAccept}}})
	out, err := core.AskURLFlow(ctx, x, "connect", page)
	if err != nil || out.Action != core.ActionAccept {
		t.Fatalf("retry = %+v, %v", out, err)
	}
	if len(pages) != 2 || pages[0] != pages[1] || sent.URL != pages[0] || !strings.HasSuffix(pages[0], "flow="+out.FlowID) {
		t.Errorf("flow not stable: pages %v, sent %q, outcome %+v", pages, sent.URL, out)
	}
	if _, err := core.AskURLFlow(ctx, x, "connect", func(string) string { return "http://evil.example/" }); !errors.Is(err, core.ErrUnsafeURL) {
		t.Errorf("unsafe page URL: %v", err)
	}
}

func TestReplyURLRequired(t *testing.T) {
	herr := core.RequireURL("link your account", "https://acme.example/link", "flow-1")
	mk := func(version string, caps core.ClientCaps) *core.Exchange {
		x, err := core.NewExchange(exSealer(t), &core.Call{Tool: "t", Version: version, Caps: caps})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	both := core.ClientCaps{Form: true, URL: true}
	if r := mk(core.Version20251125, both).Reply(herr, 0); r.Kind != core.ReplyURLRequired || r.Requests[0].Request.ElicitationID != "flow-1" {
		t.Errorf("2025-11-25: %+v", r)
	}
	if r := mk(core.Version20260728, both).Reply(herr, 0); r.Kind != core.ReplyInputRequired || r.Requests[0].Key != "url" {
		t.Errorf("2026-07-28: %+v", r)
	}
	if r := mk(core.Version20250618, both).Reply(herr, 0); r.Kind != core.ReplyToolError {
		t.Errorf("2025-06-18: %+v", r)
	}
	if r := mk(core.Version20260728, core.ClientCaps{Form: true}).Reply(herr, 0); r.Kind != core.ReplyMissingCapability {
		t.Errorf("2026-07-28 without url: %+v", r)
	}
	if err := core.RequireURL("x", "https://user:pw@acme.example/", ""); !errors.Is(err, core.ErrUnsafeURL) {
		t.Errorf("credentials in URL: %v", err)
	}
}

func TestParseClientCaps(t *testing.T) {
	for _, tc := range []struct {
		version string
		caps    any
		want    core.ClientCaps
	}{
		{core.Version20251125, nil, core.ClientCaps{}},
		{core.Version20251125, `{}`, core.ClientCaps{}},
		{core.Version20251125, `{"sampling":{}}`, core.ClientCaps{}},
		{core.Version20251125, `{"elicitation":null}`, core.ClientCaps{}},
		{core.Version20251125, `{"elicitation":{}}`, core.ClientCaps{Form: true}},
		{core.Version20251125, `{"elicitation":{"url":{}}}`, core.ClientCaps{URL: true}},
		{core.Version20251125, `{"elicitation":{"form":{},"url":{}}}`, core.ClientCaps{Form: true, URL: true}},
		{core.Version20260728, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, core.ClientCaps{Form: true}},
		{core.Version20250618, `{"elicitation":{"url":{}}}`, core.ClientCaps{Form: true}},
		{core.Version20260728, struct {
			Elicitation map[string]any `json:"elicitation"`
		}{map[string]any{"url": struct{}{}}}, core.ClientCaps{URL: true}},
	} {
		got, err := core.ParseClientCaps(tc.version, tc.caps)
		if err != nil || got != tc.want {
			t.Errorf("ParseClientCaps(%s, %v) = %+v, %v; want %+v", tc.version, tc.caps, got, err, tc.want)
		}
	}
	if _, err := core.ParseClientCaps(core.Version20251125, `[`); err == nil {
		t.Error("bad JSON accepted")
	}
}

func TestAskUserText(t *testing.T) {
	err := &core.UnavailableError{Reason: "no elicitation", Mode: core.ModeForm, Schema: testforms.DeploySchema(), Message: "Deploy what?"}
	text := core.AskUserText(err)
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
	if core.AskUserText(errors.New("other")) != "" {
		t.Error("text for a non-unavailable error")
	}
}
