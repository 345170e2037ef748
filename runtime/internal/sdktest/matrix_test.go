package sdktest

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

var accepted = testforms.Deploy{Branch: "feature", Env: testforms.EnvProd, Replicas: 3, Confirm: true}

const acceptedText = "deployed feature to prod x3 confirm=true"

func ptr[T any](v T) *T { return &v }

// scripted answers every form of the test tools with a valid accept,
// built with the generated Accept functions.
func scripted(_ context.Context, q question) (*runtime.Response, error) {
	switch q.Message {
	case deployMsg:
		return testforms.AcceptDeploy(accepted)
	case approveMsg:
		return testforms.AcceptApprove(testforms.Approve{Approve: true, Note: ptr("ship it")})
	case notifyMsg:
		if props, _ := q.Schema["properties"].(map[string]any); props[runtime.LegacyOptionKey("channels", "email")] != nil {
			// 2025-06-18: one checkbox per option.
			return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"channels.email": true, "channels.slack": true}}, nil
		}
		return testforms.AcceptNotify(testforms.Notify{Channels: []testforms.Channel{testforms.ChannelEmail, testforms.ChannelSlack}})
	case connectMsg:
		return &runtime.Response{Action: runtime.ActionAccept}, nil
	}
	return nil, fmt.Errorf("unexpected question %q", q.Message)
}

func respond(r *runtime.Response) answerer {
	return func(context.Context, question) (*runtime.Response, error) { return r, nil }
}

// silentUser returns a user that never answers: each answer waits until
// the ask's context ends or release is called, then fails.
func silentUser() (user answerer, release func()) {
	stop := make(chan struct{})
	user = func(ctx context.Context, _ question) (*runtime.Response, error) {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		return nil, errors.New("gave up")
	}
	return user, func() { close(stop) }
}

// clientVersion is the version a test client asks for: the SDK default
// for 2026-07-28, so the default path is what gets tested.
func clientVersion(v string) string {
	if v == runtime.Version20260728 {
		return ""
	}
	return v
}

func modernOnly(t *testing.T, version string) {
	t.Helper()
	if !runtime.EraOf(version).MultiRoundTrip() {
		t.Skipf("requestState exists only on 2026-07-28 requests; %s is push-era", version)
	}
}

func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// elicitations returns the elicitation/create params the client got,
// pushed or inside inputRequests.
func elicitations(c *conn) []map[string]any {
	var out []map[string]any
	for _, m := range c.tap.requests(false, "elicitation/create") {
		p, _ := m["params"].(map[string]any)
		out = append(out, p)
	}
	for _, r := range c.tap.toolResults() {
		irs, _ := r["inputRequests"].(map[string]any)
		keys := make([]string, 0, len(irs))
		for k := range irs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ir, _ := irs[k].(map[string]any)
			if ir["method"] == "elicitation/create" {
				p, _ := ir["params"].(map[string]any)
				out = append(out, p)
			}
		}
	}
	return out
}

func prop(params map[string]any, name string) map[string]any {
	s, _ := params["requestedSchema"].(map[string]any)
	ps, _ := s["properties"].(map[string]any)
	p, _ := ps[name].(map[string]any)
	return p
}

func inputKeys(r map[string]any) []string {
	irs, _ := r["inputRequests"].(map[string]any)
	var keys []string
	for k := range irs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkEra asserts how the question travelled: pushed as
// elicitation/create on 2025 eras, inside input_required results (with
// readable keys and a requestState) on 2026-07-28, never both.
func checkEra(t *testing.T, s *server, c *conn, version string, keys ...string) {
	t.Helper()
	pushed := c.tap.requests(false, "elicitation/create")
	results := c.tap.toolResults()
	if !runtime.EraOf(version).MultiRoundTrip() {
		if len(pushed) != len(keys) {
			t.Errorf("%s: %d elicitation/create requests pushed, want %d", version, len(pushed), len(keys))
		}
		for _, r := range results {
			if r["resultType"] == "input_required" || r["inputRequests"] != nil {
				t.Errorf("%s: push-era result carries input_required: %v", version, r)
			}
		}
		if n := s.runs.Load(); n != 1 {
			t.Errorf("%s: handler ran %d times, want 1", version, n)
		}
		return
	}
	if len(pushed) != 0 {
		t.Errorf("2026-07-28: server pushed %d elicitation/create requests", len(pushed))
	}
	if len(results) != len(keys)+1 {
		t.Fatalf("2026-07-28: %d tools/call results, want %d", len(results), len(keys)+1)
	}
	states := map[string]bool{}
	for i, key := range keys {
		r := results[i]
		if r["resultType"] != "input_required" {
			t.Errorf("round %d: resultType = %v, want input_required", i+1, r["resultType"])
		}
		if got := inputKeys(r); !slices.Equal(got, []string{key}) {
			t.Errorf("round %d: inputRequests keys = %v, want [%s]", i+1, got, key)
		}
		st, _ := r["requestState"].(string)
		if st == "" || states[st] {
			t.Errorf("round %d: requestState %q missing or reused", i+1, st)
		}
		states[st] = true
		if ct, _ := r["content"].([]any); len(ct) > 0 { // mcp-go always writes "content": []
			t.Errorf("round %d: input_required result has content %v", i+1, r["content"])
		}
	}
	if last := results[len(keys)]; last["resultType"] != "complete" {
		t.Errorf("final resultType = %v, want complete", last["resultType"])
	}
	if n := int(s.runs.Load()); n != len(keys)+1 {
		t.Errorf("handler ran %d times, want %d", n, len(keys)+1)
	}
}

type matrixCase struct {
	name string
	run  func(t *testing.T, sdk, version string)
}

var matrix = []matrixCase{
	{"accept", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		res, err := c.call(callCtx(t), "deploy", map[string]any{"project": "alpha"})
		if err != nil || res.IsError || res.Text != acceptedText {
			t.Fatalf("call = %+v, %v; want %q", res, err, acceptedText)
		}
		checkEra(t, s, c, version, "Deploy")
		// The wire schema follows the client's era.
		params := elicitations(c)
		if len(params) != 1 {
			t.Fatalf("%d elicitations on the wire", len(params))
		}
		env, branch, confirm := prop(params[0], "env"), prop(params[0], "branch"), prop(params[0], "confirm")
		if version == runtime.Version20250618 {
			if fmt.Sprint(env["enumNames"]) != "[Staging Production]" || fmt.Sprint(env["enum"]) != "[staging prod]" || env["oneOf"] != nil {
				t.Errorf("2025-06-18 env = %v, want enum + enumNames", env)
			}
			if _, has := branch["default"]; has {
				t.Errorf("2025-06-18 branch keeps a string default: %v", branch)
			}
			if _, has := env["default"]; has {
				t.Errorf("2025-06-18 env keeps a string default: %v", env)
			}
			if confirm["default"] != false {
				t.Errorf("2025-06-18 confirm lost its boolean default: %v", confirm)
			}
		} else {
			if env["oneOf"] == nil || env["enumNames"] != nil || branch["default"] != "main" {
				t.Errorf("%s env = %v branch = %v, want oneOf and defaults", version, env, branch)
			}
			if params[0]["mode"] != "form" {
				t.Errorf("%s mode = %v, want form", version, params[0]["mode"])
			}
		}
	}},
	{"defaults", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version),
			answer: respond(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"replicas": 2}})})
		res, err := c.call(callCtx(t), "deploy", nil)
		if want := "deployed main to staging x2 confirm=false"; err != nil || res.Text != want {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
	}},
	{"decline", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: respond(testforms.DeclineDeploy())})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err != nil || res.IsError || res.Text != "declined" {
			t.Fatalf("call = %+v, %v; want declined", res, err)
		}
		checkEra(t, s, c, version, "Deploy")
	}},
	{"cancel", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: respond(testforms.CancelDeploy())})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err != nil || res.IsError || res.Text != "cancelled" {
			t.Fatalf("call = %+v, %v; want cancelled", res, err)
		}
		checkEra(t, s, c, version, "Deploy")
	}},
	{"invalid_content", func(t *testing.T, sdk, version string) {
		content := map[string]any{"replicas": 3, "bogus": true}
		if sdk == mcpGo { // go-sdk's own client would refuse to send a wrong type
			content["branch"] = 42
		}
		s := newServer(t, sdk, runtime.UnavailableAuto, askErrors(runtime.AskErrorsJSONRPC))
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version),
			answer: respond(&runtime.Response{Action: runtime.ActionAccept, Content: content})})
		res, err := c.call(callCtx(t), "deploy", nil)
		if err == nil {
			t.Fatalf("invalid answer accepted: %+v", res)
		}
		checkInvalidParams(t, sdk, err)
		if !strings.Contains(err.Error(), "bogus: is not a field of this form") {
			t.Errorf("error does not name the unknown field: %v", err)
		}
		if sdk == mcpGo && !strings.Contains(err.Error(), "branch: must be a string") {
			t.Errorf("error does not name the mistyped field: %v", err)
		}
	}},
	{"no_capability", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version)})
		res, err := c.call(callCtx(t), "deploy", nil)
		if sdk == goSDK && runtime.EraOf(version).MultiRoundTrip() {
			if errCode(err) != -32021 {
				t.Fatalf("call = %+v, %v; want -32021", res, err)
			}
			rc, _ := errData(err)["requiredCapabilities"].(map[string]any)
			if _, ok := rc["elicitation"].(map[string]any); !ok {
				t.Errorf("-32021 data = %v, want requiredCapabilities.elicitation", errData(err))
			}
		} else {
			if err != nil || !res.IsError {
				t.Fatalf("call = %+v, %v; want a tool error", res, err)
			}
			for _, want := range []string{"cannot ask", `Question: "Deploy what, where?"`, "- replicas: required, integer, minimum 1, maximum 10", `- env ("Environment"): optional, one of "staging" (Staging), "prod" (Production)`} {
				if !strings.Contains(res.Text, want) {
					t.Errorf("tool error text lacks %q:\n%s", want, res.Text)
				}
			}
		}
		if len(elicitations(c)) != 0 {
			t.Errorf("an elicitation was sent to a client without the capability")
		}
	}},
	{"two_step", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		res, err := c.call(callCtx(t), "deploy2", map[string]any{"project": "alpha"})
		if want := acceptedText + ` approved=true note="ship it"`; err != nil || res.Text != want {
			t.Fatalf("call = %+v, %v; want %q", res, err, want)
		}
		checkEra(t, s, c, version, "Deploy", "Approve")
	}},
	{"tampered_state", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		c.tap.setMutate(func(p map[string]any) { p["requestState"] = forgeAnswer(t, p["requestState"].(string)) })
		res, err := c.call(callCtx(t), "deploy", nil)
		checkStateRejected(t, sdk, s, res, err, "tampered")
	}},
	{"expired_state", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		s := newServer(t, sdk, runtime.UnavailableAuto)
		slowUser := func(ctx context.Context, q question) (*runtime.Response, error) {
			s.clock.Advance(stateTTL + time.Minute) // the user took too long
			return scripted(ctx, q)
		}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: slowUser})
		res, err := c.call(callCtx(t), "deploy", nil)
		// The answer came after the question closed: the handler runs
		// again and gets a decline (Outcome.Expired), never the accept.
		if err != nil || res.IsError || res.Text != "declined" {
			t.Fatalf("a late answer: %+v, %v; want the expired decline", res, err)
		}
		if n := s.runs.Load(); n != 2 {
			t.Errorf("handler ran %d times, want 2 (the ask, the expired decline)", n)
		}
	}},
	{"foreign_state", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		c.tap.setMutate(func(p map[string]any) { p["arguments"] = map[string]any{"project": "prod"} })
		res, err := c.call(callCtx(t), "deploy2", map[string]any{"project": "alpha"})
		checkStateRejected(t, sdk, s, res, err, "issued for another call")
	}},
	{"cancelled_context", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		entered, stop := make(chan struct{}, 1), make(chan struct{})
		user := func(ctx context.Context, q question) (*runtime.Response, error) {
			entered <- struct{}{}
			select { // a user who never answers
			case <-ctx.Done():
			case <-stop:
			}
			return nil, errors.New("gave up")
		}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
		t.Cleanup(func() { close(stop) }) // runs before connect's cleanup
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { _, err := c.call(ctx, "slow", nil); done <- err }()
		<-entered
		start := time.Now()
		cancel()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("cancelled call succeeded")
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("client call still running 3s after cancel")
		}
		if runtime.EraOf(version).MultiRoundTrip() {
			if n := len(s.askErrs); n != 0 {
				t.Errorf("2026-07-28: server-side ask blocked or failed (%d errors); it must return input_required at once", n)
			}
			return
		}
		select {
		case err := <-s.askErrs:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("server-side ask = %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("server-side ask returned %v after cancel", d)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("server-side ask still waiting 3s after the client cancelled")
		}
	}},
	{"ask_timeout", func(t *testing.T, sdk, version string) {
		if runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("2026-07-28: the server never waits for the user (it returns input_required), so a per-ask timeout has nothing to bound")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		user, release := silentUser()
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
		t.Cleanup(release)
		res, err := c.call(callCtx(t), "timeout", nil)
		if err == nil && !res.IsError {
			t.Errorf("timed-out ask produced a result: %+v", res)
		}
		select {
		case err := <-s.askErrs:
			if !errors.Is(err, runtime.ErrTimeout) {
				t.Errorf("server-side ask = %v, want ErrTimeout", err)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("no server-side ask result")
		}
	}},
	{"multi_select", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		res, err := c.call(callCtx(t), "notify", nil)
		if version == runtime.Version20250618 {
			// Asked as one boolean per option, mapped back to the list.
			qs := elicitations(c)
			if len(qs) != 1 || !strings.Contains(fmt.Sprint(qs[0]), "channels.slack") || strings.Contains(fmt.Sprint(qs[0]), `"array"`) {
				t.Errorf("2025-06-18 questions = %v; want one boolean per option", qs)
			}
		}
		if err != nil || res.Text != "notify [email slack]" {
			t.Fatalf("call = %+v, %v", res, err)
		}
	}},
	{"url_mode", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		var seen []question
		user := func(ctx context.Context, q question) (*runtime.Response, error) {
			seen = append(seen, q)
			return scripted(ctx, q)
		}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user, url: true})
		res, err := c.call(callCtx(t), "connect", map[string]any{"account": "acme"})
		if version == runtime.Version20250618 {
			if err != nil || !res.IsError || !strings.Contains(res.Text, "URL mode needs protocol version 2025-11-25") {
				t.Fatalf("call = %+v, %v; want an unavailable tool error", res, err)
			}
			return
		}
		if err != nil || len(seen) != 1 {
			t.Fatalf("call = %+v, %v; %d questions", res, err, len(seen))
		}
		q := seen[0]
		u, perr := url.Parse(q.URL)
		if perr != nil || q.Mode != "url" || u.Scheme != "https" {
			t.Fatalf("question = %+v", q)
		}
		flow := u.Query().Get("flow")
		if want := "url accept flow=" + flow; res.Text != want {
			t.Errorf("result %q, want %q (flow id stable across rounds)", res.Text, want)
		}
		if runtime.EraOf(version).MultiRoundTrip() {
			if q.ElicitationID != "" {
				t.Errorf("2026-07-28 URL request carries elicitationId %q", q.ElicitationID)
			}
			checkEra(t, s, c, version, "url")
		} else if q.ElicitationID != flow {
			t.Errorf("elicitationId %q, want the flow id %q", q.ElicitationID, flow)
		}
	}},
	{"url_complete", func(t *testing.T, sdk, version string) {
		if version == runtime.Version20250618 {
			t.Skip("2025-06-18 has no URL mode (covered by url_mode)")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted, url: true})
		res, err := c.call(callCtx(t), "connect_done", nil)
		flow, ok := strings.CutPrefix(res.Text, "completed flow=")
		if err != nil || !ok || flow == "" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		if runtime.EraOf(version).MultiRoundTrip() {
			if n := len(c.tap.requests(false, "notifications/elicitation/complete")); n != 0 {
				t.Errorf("2026-07-28: %d completion notifications sent; the method no longer exists", n)
			}
			return
		}
		select {
		case id := <-c.notes:
			if id != flow {
				t.Errorf("completion for %q, want %q", id, flow)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("no notifications/elicitation/complete")
		}
	}},
	{"url_required", func(t *testing.T, sdk, version string) {
		if runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("2026-07-28 removed -32042 (reserved); a handler asks with AskURLFlow, which becomes input_required (url_mode)")
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted, url: true})
		res, err := c.call(callCtx(t), "connect_required", nil)
		if version == runtime.Version20250618 {
			if err != nil || !res.IsError || !strings.Contains(res.Text, "URL mode needs protocol version 2025-11-25") {
				t.Fatalf("call = %+v, %v; want an unavailable tool error", res, err)
			}
			return
		}
		if errCode(err) != -32042 {
			t.Fatalf("call = %+v, %v; want -32042", res, err)
		}
		var raw map[string]any
		for _, m := range c.tap.messages(false) {
			if e, ok := m["error"].(map[string]any); ok {
				raw = e
			}
		}
		data, _ := raw["data"].(map[string]any)
		els, _ := data["elicitations"].([]any)
		var el map[string]any
		if len(els) == 1 {
			el, _ = els[0].(map[string]any)
		}
		if el["mode"] != "url" || el["elicitationId"] != "f-1" || el["url"] != "https://acme.example/link?flow=f-1" {
			t.Errorf("-32042 data = %v", raw["data"])
		}
	}},
	{"url_no_capability", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted}) // form only
		res, err := c.call(callCtx(t), "connect", nil)
		if sdk == goSDK && runtime.EraOf(version).MultiRoundTrip() {
			rc, _ := errData(err)["requiredCapabilities"].(map[string]any)
			el, _ := rc["elicitation"].(map[string]any)
			if errCode(err) != -32021 || el["url"] == nil {
				t.Fatalf("call = %+v, %v; want -32021 requiring elicitation.url", res, err)
			}
			return
		}
		if err != nil || !res.IsError || !strings.Contains(res.Text, "browser") {
			t.Fatalf("call = %+v, %v; want a tool error", res, err)
		}
	}},
	{"hostile_multi_select", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		// 50,000 repeated items: refused in linear time, with a short error.
		items := make([]any, 50000)
		for i := range items {
			items[i] = "email"
		}
		s := newServer(t, sdk, runtime.UnavailableAuto)
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version),
			answer: respond(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"channels": items}})})
		res, err := c.call(callCtx(t), "notify", nil)
		why := refusal(t, res, err)
		if !strings.Contains(why, `item "email" is repeated`) || len(why) > 2000 {
			t.Fatalf("refusal (%d bytes): %.500v", len(why), why)
		}
	}},
	{"hostile_numbers", func(t *testing.T, sdk, version string) {
		if sdk != mcpGo {
			t.Skip("go-sdk's client checks the content against the schema before sending it")
		}
		for _, c := range []struct {
			value any
			want  string
		}{
			{int64(9007199254740993), "outside the JSON-safe integer range"},
			{int64(9223372036854775807), "outside the JSON-safe integer range"},
			{3.5, "must be an integer, got 3.5"},
			{1e300, "outside the JSON-safe integer range"},
		} {
			t.Run(fmt.Sprint(c.value), func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				conn := connect(t, s, sdk, clientOpts{version: clientVersion(version),
					answer: respond(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"replicas": c.value}})})
				res, err := conn.call(callCtx(t), "deploy", nil)
				if why := refusal(t, res, err); !strings.Contains(why, "replicas: ") || !strings.Contains(why, c.want) {
					t.Errorf("call = %+v, %v; want %q", res, err, c.want)
				}
			})
		}
	}},
}

// refusal returns why a call whose answer must be refused was refused:
// the JSON-RPC error, or by default the text of the tool error the model
// reads (Config.AskErrors). A completed call fails the test.
func refusal(t *testing.T, res callResult, err error) string {
	t.Helper()
	switch {
	case err != nil:
		return err.Error()
	case res.IsError:
		return res.Text
	}
	t.Fatalf("hostile answer accepted: %.200v", res)
	return ""
}

// forgeAnswer flips one bit of a sealed state's ciphertext, as a client
// trying to change an earlier answer would have to: the AEAD must refuse
// it.
func forgeAnswer(t *testing.T, state string) string {
	head, body, ok := strings.Cut(strings.TrimPrefix(state, "v3."), ".")
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if !ok || err != nil || !strings.HasPrefix(state, "v3.") || len(raw) < 40 {
		t.Errorf("requestState %q is not v3.kid.sealed", state)
		return state
	}
	raw[len(raw)-20] ^= 1
	return "v3." + head + "." + base64.RawURLEncoding.EncodeToString(raw)
}

func checkStateRejected(t *testing.T, sdk string, s *server, res callResult, err error, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("bad requestState accepted: %+v", res)
	}
	checkInvalidParams(t, sdk, err)
	if !strings.Contains(err.Error(), "invalid requestState") || !strings.Contains(err.Error(), what) {
		t.Errorf("error = %v, want invalid requestState: %s", err, what)
	}
	if n := s.runs.Load(); n != 1 {
		t.Errorf("handler ran %d times; it must not run on a bad state", n)
	}
}

// TestMatrix runs every case for each SDK (server and client of the same
// SDK, over real JSON) and each protocol era.
func TestMatrix(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					for _, mc := range matrix {
						t.Run(mc.name, func(t *testing.T) { mc.run(t, sdk, version) })
					}
				})
			}
		})
	}
}
