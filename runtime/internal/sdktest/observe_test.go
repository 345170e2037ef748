package sdktest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// observe sets the adapters' Config.Observer.
func observe(o runtime.Observer) serverOpt {
	return func(so *serverOpts) { so.observer = o }
}

// eventLog keeps every event it observes, and writes each to a JSON slog
// handler too, so that a test can check both.
type eventLog struct {
	mu     sync.Mutex
	events []runtime.Event
	log    bytes.Buffer
	slog   runtime.Observer
}

func newEventLog() *eventLog {
	r := &eventLog{}
	r.slog = runtime.NewLogObserver(slog.New(slog.NewJSONHandler(lockedWriter{r}, nil)))
	return r
}

type lockedWriter struct{ r *eventLog }

// Write is called by the slog handler while Observe holds r.mu.
func (w lockedWriter) Write(b []byte) (int, error) { return w.r.log.Write(b) }

func (r *eventLog) Observe(ctx context.Context, e runtime.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Content = maps.Clone(e.Content)
	e.InvalidFields = slices.Clone(e.InvalidFields)
	r.events = append(r.events, e)
	r.slog.Observe(ctx, e)
}

// take returns the events so far and forgets them.
func (r *eventLog) take() []runtime.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := r.events
	r.events = nil
	return ev
}

// records returns the JSON lines written so far.
func (r *eventLog) records(t *testing.T) []map[string]any {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(r.log.Bytes()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// summary is an event's kind and what identifies it in a sequence.
func summary(e runtime.Event) string {
	s := e.Kind.String()
	switch e.Kind {
	case runtime.EventAsked, runtime.EventAnswered, runtime.EventInvalid:
		s += fmt.Sprintf(" %s a%d asked=%t", e.Key, e.Attempt, e.Asked)
	case runtime.EventCallEnd, runtime.EventStateRefused:
		s += " " + e.Reply
	}
	if e.Action != "" {
		s += " " + string(e.Action)
	}
	if e.Kind == runtime.EventInvalid {
		s += " " + strings.Join(e.InvalidFields, ",")
	}
	if e.Kind == runtime.EventStateRefused {
		s += " " + e.Reason
	}
	return s
}

func summaries(ev []runtime.Event) []string {
	out := make([]string, len(ev))
	for i, e := range ev {
		out[i] = summary(e)
	}
	return out
}

// digestOf is what SchemaDigest must be: the first 16 hex digits of the
// SHA-256 of the schema bytes.
func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// wireSchemas returns the requestedSchema bytes of every question the
// client received, exactly as they were on the wire.
func wireSchemas(t *testing.T, c *conn) [][]byte {
	t.Helper()
	type params struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	var out [][]byte
	c.tap.mu.Lock()
	defer c.tap.mu.Unlock()
	for _, b := range c.tap.toClient {
		var m struct {
			Method string `json:"method"`
			Params params `json:"params"`
			Result struct {
				InputRequests map[string]struct {
					Params params `json:"params"`
				} `json:"inputRequests"`
			} `json:"result"`
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if m.Method == "elicitation/create" {
			out = append(out, m.Params.RequestedSchema)
		}
		for _, k := range slices.Sorted(maps.Keys(m.Result.InputRequests)) {
			out = append(out, m.Result.InputRequests[k].Params.RequestedSchema)
		}
	}
	return out
}

// checkCallFields checks the fields every event of one call shares.
func checkCallFields(t *testing.T, ev []runtime.Event, tool, version string, wantClient bool) {
	t.Helper()
	if len(ev) == 0 {
		t.Fatal("no events")
	}
	id := ev[0].CallID
	if len(id) != 16 {
		t.Errorf("call id %q, want 16 hex digits", id)
	}
	for _, e := range ev {
		if e.CallID != id {
			t.Errorf("%s: call id %q, want %q (one call)", summary(e), e.CallID, id)
		}
		if e.Tool != tool || e.Method != "tools/call" || e.Protocol != version {
			t.Errorf("%s: tool=%q method=%q protocol=%q, want %q tools/call %q", summary(e), e.Tool, e.Method, e.Protocol, tool, version)
		}
		if wantClient && (e.ClientName != "cli" || e.ClientVersion != "v0") {
			t.Errorf("%s: client %q %q, want cli v0", summary(e), e.ClientName, e.ClientVersion)
		}
		if e.Time.IsZero() {
			t.Errorf("%s: no time", summary(e))
		}
		if e.Kind != runtime.EventCallEnd && e.Kind != runtime.EventStateRefused && e.Form == "" && e.Mode == runtime.ModeForm {
			t.Errorf("%s: no form name", summary(e))
		}
	}
}

// rounds returns the Round of each event.
func rounds(ev []runtime.Event) []int {
	out := make([]int, len(ev))
	for i, e := range ev {
		out[i] = e.Round
	}
	return out
}

// TestObserveEvents: through both adapters and all three eras, each
// event of an ask reaches the Observer with its fields.
func TestObserveEvents(t *testing.T) {
	for _, sdk := range sdks {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					for _, oc := range observeCases {
						t.Run(oc.name, func(t *testing.T) { oc.run(t, sdk, version) })
					}
				})
			}
		})
	}
}

var observeCases = []struct {
	name string
	run  func(t *testing.T, sdk, version string)
}{
	{"accept", func(t *testing.T, sdk, version string) {
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		if res, err := c.call(callCtx(t), "deploy", nil); err != nil || res.Text != acceptedText {
			t.Fatalf("call = %+v, %v", res, err)
		}
		ev := rec.take()
		want := []string{"asked Deploy a1 asked=true", "answered Deploy a1 asked=true accept", "call_end result"}
		wantRounds := []int{1, 1, 1}
		if runtime.EraOf(version).MultiRoundTrip() {
			want = []string{"asked Deploy a1 asked=true", "call_end input_required", "answered Deploy a1 asked=true accept", "call_end result"}
			wantRounds = []int{1, 1, 2, 2}
		}
		if got := summaries(ev); !slices.Equal(got, want) {
			t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got := rounds(ev); !slices.Equal(got, wantRounds) {
			t.Errorf("rounds = %v, want %v", got, wantRounds)
		}
		checkCallFields(t, ev, "deploy", version, true)
		// The digest is that of the exact bytes the client received.
		wire := wireSchemas(t, c)
		if len(wire) != 1 {
			t.Fatalf("%d schemas on the wire, want 1", len(wire))
		}
		sent, _ := testforms.DeploySchema().JSON(version)
		if !bytes.Equal(wire[0], sent) {
			t.Logf("wire %s\nsent %s", wire[0], sent)
		}
		for _, e := range ev {
			if e.Kind == runtime.EventCallEnd {
				if e.RoundTime <= 0 || e.CallTime < e.RoundTime {
					t.Errorf("%s: round %v call %v", summary(e), e.RoundTime, e.CallTime)
				}
				continue
			}
			if e.SchemaDigest != digestOf(wire[0]) || e.Form != "Deploy" || e.Mode != runtime.ModeForm {
				t.Errorf("%s: form %q mode %q digest %q, want Deploy form %q", summary(e), e.Form, e.Mode, e.SchemaDigest, digestOf(wire[0]))
			}
			if e.Kind == runtime.EventAnswered && e.WaitTime <= 0 {
				t.Errorf("answered: wait time %v, want > 0", e.WaitTime)
			}
			if e.Content != nil {
				t.Errorf("%s: content %v without WithAuditFields", summary(e), e.Content)
			}
		}
		// The audit record has the documented attributes.
		recs := rec.records(t)
		if len(recs) != len(ev) {
			t.Fatalf("%d records for %d events", len(recs), len(ev))
		}
		for _, r := range recs {
			for _, k := range []string{"event", "tool", "protocol", "client", "call_id", "round"} {
				if _, ok := r[k]; !ok {
					t.Errorf("record %v lacks %q", r, k)
				}
			}
			if r["event"] != "call_end" {
				for _, k := range []string{"form", "asked", "schema", "attempt"} {
					if _, ok := r[k]; !ok {
						t.Errorf("record %v lacks %q", r, k)
					}
				}
			}
			if r["event"] == "answered" && (r["action"] != "accept" || r["asked"] != true || r["form"] != "Deploy" || r["client"] != "cli") {
				t.Errorf("answered record %v", r)
			}
		}
	}},
	{"decline", func(t *testing.T, sdk, version string) {
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: respond(&runtime.Response{Action: runtime.ActionDecline})})
		if res, err := c.call(callCtx(t), "deploy", nil); err != nil || res.Text != "declined" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		got := summaries(rec.take())
		if i := slices.Index(got, "answered Deploy a1 asked=true decline"); i < 0 || got[len(got)-1] != "call_end result" {
			t.Errorf("events %v, want a decline then call_end result", got)
		}
	}},
	{"invalid_then_retry", func(t *testing.T, sdk, version string) {
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		var n int
		var mu sync.Mutex
		user := func(_ context.Context, q question) (*runtime.Response, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			if n == 1 {
				return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "eu", "bogus": true}}, nil
			}
			return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "eu"}}, nil
		}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
		if res, err := c.call(callCtx(t), "retry_choice", nil); err != nil || res.Text != "choice=eu" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		ev := rec.take()
		want := []string{
			"asked Choice a1 asked=true", "answered Choice a1 asked=true accept", "invalid Choice a1 asked=true (1 other keys)",
			"asked Choice a2 asked=true", "answered Choice a2 asked=true accept", "call_end result",
		}
		if runtime.EraOf(version).MultiRoundTrip() {
			want = []string{
				"asked Choice a1 asked=true", "call_end input_required",
				"answered Choice a1 asked=true accept", "invalid Choice a1 asked=true (1 other keys)", "asked Choice a2 asked=true", "call_end input_required",
				"answered Choice a2 asked=true accept", "call_end result",
			}
		}
		if got := summaries(ev); !slices.Equal(got, want) {
			t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		checkCallFields(t, ev, "retry_choice", version, true)
		if runtime.EraOf(version).MultiRoundTrip() {
			if got := rounds(ev); !slices.Equal(got, []int{1, 1, 2, 2, 2, 2, 3, 3}) {
				t.Errorf("rounds = %v", got)
			}
		}
	}},
	{"timed_out", func(t *testing.T, sdk, version string) {
		if runtime.EraOf(version).MultiRoundTrip() {
			t.Skip("2026-07-28: the server never waits for the user")
		}
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		user, release := silentUser()
		defer release()
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
		_, _ = c.call(callCtx(t), "timeout", nil)
		<-s.askErrs
		got := summaries(rec.take())
		if !slices.Contains(got, "timed_out") || !strings.HasPrefix(got[len(got)-1], "call_end ") {
			t.Errorf("events %v, want timed_out then call_end", got)
		}
	}},
	{"unavailable", func(t *testing.T, sdk, version string) {
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version)}) // no elicitation capability
		_, _ = c.call(callCtx(t), "deploy", nil)
		ev := rec.take()
		if len(ev) != 2 || ev[0].Kind != runtime.EventUnavailable || ev[1].Kind != runtime.EventCallEnd {
			t.Fatalf("events %v, want unavailable, call_end", summaries(ev))
		}
		if !strings.Contains(ev[0].Reason, "did not declare") || ev[0].Form != "Deploy" {
			t.Errorf("unavailable: form %q reason %q", ev[0].Form, ev[0].Reason)
		}
		want := "tool_error"
		if runtime.EraOf(version).MultiRoundTrip() && sdk == goSDK {
			want = "missing_capability"
		}
		if ev[1].Reply != want || ev[1].Reason != "unavailable" {
			t.Errorf("call_end reply %q reason %q, want %q unavailable", ev[1].Reply, ev[1].Reason, want)
		}
	}},
	{"state_refused", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		for _, tc := range []struct {
			name, reason string
			setup        func(s *server, c *conn)
		}{
			{"tampered", seal.RefusedTampered, func(s *server, c *conn) {
				c.tap.setMutate(func(p map[string]any) { p["requestState"] = forgeAnswer(t, p["requestState"].(string)) })
			}},
			{"foreign", seal.RefusedForeign, func(s *server, c *conn) {
				c.tap.setMutate(func(p map[string]any) { p["arguments"] = map[string]any{"project": "prod"} })
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := newEventLog()
				s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
				c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
				tc.setup(s, c)
				if _, err := c.call(callCtx(t), "deploy", map[string]any{"project": "alpha"}); err == nil {
					t.Fatal("bad state accepted")
				}
				ev := rec.take()
				want := []string{"asked Deploy a1 asked=true", "call_end input_required", "state_refused invalid_params " + tc.reason, "call_end invalid_params"}
				if got := summaries(ev); !slices.Equal(got, want) {
					t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
				if ev[2].Round != 2 || ev[2].Tool != "deploy" || ev[2].Protocol != version {
					t.Errorf("refusal: round %d tool %q protocol %q", ev[2].Round, ev[2].Tool, ev[2].Protocol)
				}
			})
		}
		t.Run("expired", func(t *testing.T) {
			rec := newEventLog()
			s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
			slow := func(ctx context.Context, q question) (*runtime.Response, error) {
				s.clock.Advance(stateTTL + time.Minute)
				return scripted(ctx, q)
			}
			c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: slow})
			_, _ = c.call(callCtx(t), "deploy", nil)
			// A late answer to the question the state asked reaches the
			// handler as a decline, audited as expired, never as the
			// client's accept.
			ev := rec.take()
			expired := false
			for _, e := range ev {
				expired = expired || e.Kind == runtime.EventAnswered && e.Action == runtime.ActionDecline && e.Reason == runtime.ReasonExpired
			}
			if got := summaries(ev); !expired || slices.Contains(got, "answered Deploy a1 asked=true accept") {
				t.Errorf("events %v, want the answer audited as an expired decline", got)
			}
		})
	}},
	{"url", func(t *testing.T, sdk, version string) {
		if !runtime.EraOf(version).URLMode() {
			t.Skip("URL mode needs 2025-11-25 or later")
		}
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted, url: true})
		if _, err := c.call(callCtx(t), "connect", nil); err != nil {
			t.Fatal(err)
		}
		ev := rec.take()
		var kinds []string
		for _, e := range ev {
			if e.Kind == runtime.EventAsked || e.Kind == runtime.EventAnswered {
				kinds = append(kinds, e.Kind.String())
				if e.Mode != runtime.ModeURL || e.Key != "url" || e.Form != "" || e.SchemaDigest != "" {
					t.Errorf("%s: mode %q key %q form %q digest %q, want a URL-mode question", summary(e), e.Mode, e.Key, e.Form, e.SchemaDigest)
				}
			}
		}
		if !slices.Equal(kinds, []string{"asked", "answered"}) {
			t.Errorf("events %v, want the URL question asked and answered", summaries(ev))
		}
		// A handler that needs URL steps before it can go on (-32042 on
		// 2025-11-25, input_required on 2026-07-28) asks them too.
		_, _ = c.call(callCtx(t), "connect_required", nil)
		ev = rec.take()
		want := "url_required"
		if runtime.EraOf(version).MultiRoundTrip() {
			want = "input_required"
		}
		if len(ev) < 2 || ev[0].Kind != runtime.EventAsked || ev[0].Mode != runtime.ModeURL || ev[1].Kind != runtime.EventCallEnd || ev[1].Reply != want {
			t.Errorf("events %v, want asked (url) and call_end %s", summaries(ev), want)
		}
	}},
	{"unasked", func(t *testing.T, sdk, version string) {
		modernOnly(t, version)
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec), acceptUnasked())
		c := connect(t, s, goSDK, clientOpts{answer: scripted})
		answer, _ := scripted(context.Background(), question{Message: deployMsg})
		res, err := c.gc.CallTool(callCtx(t), &mcp.CallToolParams{Name: "deploy",
			InputResponses: mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: answer.Content}}})
		if err != nil || res.IsError {
			t.Fatalf("call = %+v, %v", res, err)
		}
		want := []string{"answered Deploy a1 asked=false accept", "call_end result"}
		ev := rec.take()
		if got := summaries(ev); !slices.Equal(got, want) {
			t.Fatalf("events %v, want %v", got, want)
		}
		if ev[0].WaitTime != 0 {
			t.Errorf("unasked answer has a wait time %v", ev[0].WaitTime)
		}
	}},
	{"audit_fields", func(t *testing.T, sdk, version string) {
		rec := newEventLog()
		s := newServer(t, sdk, runtime.UnavailableAuto)
		addObservedTool(s, "deploy_audit", rec, func(ctx context.Context, ask runtime.Asker) (string, error) {
			out, err := testforms.AskDeploy(ctx, ask, deployMsg, runtime.WithAuditFields("env", "replicas"))
			if err != nil {
				return "", err
			}
			return describeDeploy(out.Value), nil
		})
		addObservedTool(s, "deploy_badaudit", rec, func(ctx context.Context, ask runtime.Asker) (string, error) {
			_, err := testforms.AskDeploy(ctx, ask, deployMsg, runtime.WithAuditFields("nope"))
			return "", err
		})
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: scripted})
		if res, err := c.call(callCtx(t), "deploy_audit", nil); err != nil || res.Text != acceptedText {
			t.Fatalf("call = %+v, %v", res, err)
		}
		var answered *runtime.Event
		for _, e := range rec.take() {
			if e.Kind == runtime.EventAnswered {
				answered = &e
			}
		}
		if answered == nil || len(answered.Content) != 2 || answered.Content["env"] != "prod" || answered.Content["replicas"] != 3.0 {
			t.Fatalf("answered = %+v, want content env=prod replicas=3 only", answered)
		}
		var found bool
		for _, r := range rec.records(t) {
			if c, ok := r["content"].(map[string]any); ok {
				found = c["env"] == "prod" && len(c) == 2
			}
		}
		if !found {
			t.Error("no record carries content {env, replicas}")
		}
		if strings.Contains(rec.log.String(), accepted.Branch) {
			t.Errorf("a record holds the branch %q, which was not named", accepted.Branch)
		}
		res, err := c.call(callCtx(t), "deploy_badaudit", nil)
		if err == nil && !res.IsError {
			t.Fatalf("an unknown audit field was accepted: %+v", res)
		}
		if n := len(wireSchemas(t, c)); n != 1 {
			t.Errorf("%d questions sent; a bad WithAuditFields must fail before asking", n)
		}
	}},
}

// addObservedTool registers a tool running b on s, observed by obs.
func addObservedTool(s *server, name string, obs runtime.Observer, b body) {
	switch s.sdk {
	case goSDK:
		cfg := &gosdk.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: s.policy, Observer: obs}}
		s.gs.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				text, err := b(ctx, ask)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
	case mcpGo:
		cfg := &mcpgo.Config{Options: adapter.Options{Keys: s.keys, StateTTL: stateTTL, Now: s.clock.Now, Unavailable: s.policy, Observer: obs}}
		s.ms.AddTool(mgmcp.NewTool(name),
			mcpgo.Handle(cfg, func(ctx context.Context, req mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
				text, err := b(ctx, ask)
				if err != nil {
					return nil, err
				}
				return mgmcp.NewToolResultText(text), nil
			}))
	}
}

// TestObserveNoAnswerValues: by default no answer value appears in any
// record, whatever the event: accepted, invalid, retried, multi-step,
// quick asks, on every era and through both adapters.
func TestObserveNoAnswerValues(t *testing.T) {
	const secret = "zq-7731-secret"
	for _, sdk := range sdks {
		for _, version := range versions {
			t.Run(sdk+"/"+version, func(t *testing.T) {
				rec := newEventLog()
				s := newServer(t, sdk, runtime.UnavailableAuto, observe(rec))
				var mu sync.Mutex
				tries := map[string]int{}
				user := func(ctx context.Context, q question) (*runtime.Response, error) {
					mu.Lock()
					tries[q.Message]++
					n := tries[q.Message]
					mu.Unlock()
					switch {
					case q.Message == deployMsg:
						return testforms.AcceptDeploy(testforms.Deploy{Branch: secret, Env: testforms.EnvProd, Replicas: 4})
					case q.Message == approveMsg:
						return testforms.AcceptApprove(testforms.Approve{Approve: true, Note: ptr(secret)})
					case strings.HasPrefix(q.Message, regionMsg) && n == 1:
						return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "eu", "bogus": secret}}, nil
					case strings.HasPrefix(q.Message, regionMsg):
						return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"choice": "eu"}}, nil
					case q.Message == textMsg:
						return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"text": secret}}, nil
					}
					return quickUser(ctx, q)
				}
				c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
				for _, tool := range []string{"deploy2", "retry_choice", "quick"} {
					if _, err := c.call(callCtx(t), tool, nil); err != nil {
						t.Fatalf("%s: %v", tool, err)
					}
				}
				ev := rec.take()
				if len(ev) < 10 {
					t.Fatalf("only %d events: %v", len(ev), summaries(ev))
				}
				kinds := map[runtime.EventKind]bool{}
				for _, e := range ev {
					kinds[e.Kind] = true
					if e.Content != nil {
						t.Errorf("%s: content %v", summary(e), e.Content)
					}
				}
				for _, k := range []runtime.EventKind{runtime.EventAsked, runtime.EventAnswered, runtime.EventInvalid, runtime.EventCallEnd} {
					if !kinds[k] {
						t.Errorf("no %s event: the test does not cover it", k)
					}
				}
				if log := rec.log.String(); strings.Contains(log, secret) {
					t.Errorf("an answer value is in the records:\n%s", log)
				}
				if s := fmt.Sprintf("%+v", ev); strings.Contains(s, secret) {
					t.Errorf("an answer value is in the events: %s", s)
				}
			})
		}
	}
}
