package tasks_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// extSchema compiles one definition of the extension's official schema
// (testdata/ext-tasks-schema.json: schema/draft/schema.json of
// modelcontextprotocol/ext-tasks at e434597).
func extSchema(t *testing.T, def string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/ext-tasks-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://example.invalid/ext-tasks.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url + "#/$defs/" + def)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// valid checks raw against def of the official schema.
func valid(t *testing.T, def string, raw []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := extSchema(t, def).Validate(v); err != nil {
		t.Errorf("%s does not match %s: %v", raw, def, err)
	}
	if strings.Contains(string(raw), "requestState") {
		t.Errorf("%s carries requestState", raw)
	}
}

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var elicit = json.RawMessage(`{"method":"elicitation/create","params":{"mode":"form","message":"Deploy?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}`)

func newServer() (*tasks.Server, *page.MemoryStore, *clock) {
	clk := &clock{now: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}
	st := page.NewMemoryStore()
	st.Now = clk.Now
	return &tasks.Server{Store: tasks.NewStore(st), Now: clk.Now}, st, clk
}

func call(t *testing.T, s *tasks.Server, principal, method, params string) (json.RawMessage, *tasks.Error) {
	t.Helper()
	res, err := s.Serve(context.Background(), tasks.Call{Method: method, Params: json.RawMessage(params), Principal: principal, Declared: true})
	if err != nil {
		e, ok := errors.AsType[*tasks.Error](err)
		if !ok {
			t.Fatalf("%s: error %v is not a *tasks.Error", method, err)
		}
		return nil, e
	}
	return res, nil
}

func get(t *testing.T, s *tasks.Server, principal, id string) map[string]any {
	t.Helper()
	res, e := call(t, s, principal, tasks.MethodGet, `{"taskId":"`+id+`"}`)
	if e != nil {
		t.Fatalf("tasks/get: %v", e)
	}
	valid(t, "GetTaskResult", res)
	var m map[string]any
	if err := json.Unmarshal(res, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLifecycleMatchesTheOfficialSchema(t *testing.T) {
	s, _, clk := newServer()
	ctx := context.Background()
	var runs []tasks.Record
	s.Run = func(_ context.Context, r tasks.Record) tasks.Step {
		runs = append(runs, r)
		return tasks.Step{Result: json.RawMessage(`{"resultType":"complete","content":[{"type":"text","text":"deployed"}],"isError":false}`)}
	}
	r, err := s.Create(ctx, "alice", "deploy", "sha256:x", json.RawMessage(`{"env":"prod"}`), 72*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	cr, err := json.Marshal(s.CreateResult(r))
	if err != nil {
		t.Fatal(err)
	}
	valid(t, "CreateTaskResult", cr)
	if !strings.Contains(string(cr), `"resultType":"task"`) || !strings.Contains(string(cr), `"ttlMs":259200000`) || !strings.Contains(string(cr), `"createdAt":"2026-12-02T09:00:00.000Z"`) {
		t.Errorf("CreateTaskResult = %s", cr)
	}
	if m := get(t, s, "alice", r.ID); m["status"] != "working" || m["resultType"] != "complete" {
		t.Errorf("new task = %v", m)
	}

	clk.Add(time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	m := get(t, s, "alice", r.ID)
	if m["status"] != "input_required" || m["inputRequests"].(map[string]any)["deploy"] == nil {
		t.Errorf("asking task = %v", m)
	}
	if m["lastUpdatedAt"] != "2026-12-02T10:00:00.000Z" {
		t.Errorf("lastUpdatedAt = %v", m["lastUpdatedAt"])
	}

	clk.Add(48 * time.Hour) // two days later, within the 72 hours
	ack, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"deploy":{"action":"accept","content":{"ok":true}}}}`)
	if e != nil {
		t.Fatal(e)
	}
	valid(t, "UpdateTaskResult", ack)
	if string(ack) != `{"resultType":"complete"}` {
		t.Errorf("ack = %s", ack)
	}
	if len(runs) != 1 || string(runs[0].Answers["deploy"]) != `{"action":"accept","content":{"ok":true}}` || string(runs[0].Args) != `{"env":"prod"}` {
		t.Fatalf("runs = %+v", runs)
	}
	m = get(t, s, "alice", r.ID)
	if m["status"] != "completed" || m["result"] == nil || m["inputRequests"] != nil || m["pollIntervalMs"] != nil {
		t.Errorf("completed task = %v", m)
	}
}

func TestPartialUpdatesAndIgnoredKeys(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	var runs atomic.Int32
	s.Run = func(_ context.Context, r tasks.Record) tasks.Step {
		runs.Add(1)
		if len(r.Answers) != 2 {
			t.Errorf("run with answers %v, want both", r.Answers)
		}
		return tasks.Step{Result: json.RawMessage(`{"content":[],"isError":true}`)}
	}
	r, _ := s.Create(ctx, "alice", "multi", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"a": elicit, "b": elicit}}); err != nil {
		t.Fatal(err)
	}
	// An unknown key, a non-object answer and one real answer.
	if _, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"unknown-key":{"ignored":true},"b":"yes","a":{"action":"accept","content":{"ok":true}}}}`); e != nil {
		t.Fatal(e)
	}
	m := get(t, s, "alice", r.ID)
	reqs := m["inputRequests"].(map[string]any)
	if m["status"] != "input_required" || reqs["a"] != nil || reqs["b"] == nil || runs.Load() != 0 {
		t.Fatalf("after a partial update: %v, runs %d", m, runs.Load())
	}
	// Answering a again changes nothing.
	if _, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"a":{"action":"decline"}}}`); e != nil {
		t.Fatal(e)
	}
	if _, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"b":{"action":"accept","content":{"ok":true}}}}`); e != nil {
		t.Fatal(e)
	}
	got, _ := s.Store.Get(ctx, r.ID)
	if got.Status != tasks.StatusCompleted || runs.Load() != 1 || string(got.Answers["a"]) != `{"action":"accept","content":{"ok":true}}` {
		t.Errorf("task %+v after both answers, %d runs", got, runs.Load())
	}
	// A tool result with isError is completed, not failed.
	if m := get(t, s, "alice", r.ID); m["status"] != "completed" || m["error"] != nil {
		t.Errorf("isError result: %v", m)
	}
}

func TestKeysAreUniqueOverTheTasksLife(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	s.Run = func(context.Context, tasks.Record) tasks.Step {
		return tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}} // the same key again
	}
	r, _ := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	// The run that asks the used key again fails the task: the answer is
	// acknowledged, nothing waits for ever.
	if _, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"deploy":{"action":"accept","content":{"ok":true}}}}`); e != nil {
		t.Fatal(e)
	}
	m := get(t, s, "alice", r.ID)
	if m["status"] != "failed" || !strings.Contains(m["statusMessage"].(string), "already used") {
		t.Fatalf("a run that asks a used key again: %v", m)
	}
	r, _ = s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"other": elicit}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); !errors.Is(err, tasks.ErrKeyReused) {
		t.Errorf("Settle with a used key: %v, want ErrKeyReused", err)
	}
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"bad\nkey": elicit}}); err == nil {
		t.Error("Settle with an invalid key succeeded")
	}
	// The adapters number a form's second ask: such a key is a key.
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"Deploy#2": elicit}}); err != nil {
		t.Errorf("Settle with a numbered key: %v", err)
	}
}

func TestOnlyTheCreatorReachesATask(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	r, _ := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	unknown := `{"taskId":"` + r.ID + `"}`
	for _, m := range []string{tasks.MethodGet, tasks.MethodCancel} {
		if _, e := call(t, s, "mallory", m, unknown); e == nil || e.Code != tasks.CodeInvalidParams {
			t.Errorf("%s by another principal: %v, want -32602", m, e)
		}
	}
	if _, e := call(t, s, "mallory", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"deploy":{"action":"accept","content":{"ok":true}}}}`); e == nil || e.Code != tasks.CodeInvalidParams {
		t.Errorf("tasks/update by another principal: %v, want -32602", e)
	}
	if m := get(t, s, "alice", r.ID); m["status"] != "input_required" {
		t.Errorf("after another principal's calls: %v", m)
	}
	if _, e := call(t, s, "alice", tasks.MethodGet, `{"taskId":"guessed"}`); e == nil || e.Code != tasks.CodeInvalidParams {
		t.Errorf("unknown id: %v", e)
	}
}

func TestUndeclaredAndUnknownMethods(t *testing.T) {
	s, _, _ := newServer()
	for _, m := range []string{tasks.MethodGet, tasks.MethodUpdate, tasks.MethodCancel} {
		_, err := s.Serve(context.Background(), tasks.Call{Method: m, Params: json.RawMessage(`{"taskId":"gate-test"}`)})
		e, ok := errors.AsType[*tasks.Error](err)
		if !ok || e.Code != tasks.CodeMissingCapability || !strings.Contains(string(e.Data), `"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}`) {
			t.Errorf("%s undeclared: %v", m, err)
		}
	}
	for _, m := range []string{"tasks/list", "tasks/result"} {
		if _, e := call(t, s, "", m, `{}`); e == nil || e.Code != tasks.CodeMethodNotFound {
			t.Errorf("%s: %v, want -32601", m, e)
		}
	}
	for _, p := range []string{`{}`, `{"taskId":7}`, `[`, ``} {
		if _, e := call(t, s, "", tasks.MethodGet, p); e == nil || e.Code != tasks.CodeInvalidParams {
			t.Errorf("tasks/get %q: %v, want -32602", p, e)
		}
	}
	if _, e := call(t, s, "", tasks.MethodUpdate, `{"taskId":"x"}`); e == nil || e.Code != tasks.CodeInvalidParams {
		t.Errorf("tasks/update without inputResponses: %v", e)
	}
}

func TestCancel(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	ran := false
	s.Run = func(context.Context, tasks.Record) tasks.Step {
		ran = true
		return tasks.Step{Result: json.RawMessage(`{}`)}
	}
	r, _ := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second cancel is of a terminal task: the same ack
		ack, e := call(t, s, "alice", tasks.MethodCancel, `{"taskId":"`+r.ID+`"}`)
		if e != nil || string(ack) != `{"resultType":"complete"}` {
			t.Fatalf("cancel: %s %v", ack, e)
		}
		valid(t, "CancelTaskResult", ack)
	}
	// An answer that arrives after the cancel is acknowledged and dropped.
	if _, e := call(t, s, "alice", tasks.MethodUpdate, `{"taskId":"`+r.ID+`","inputResponses":{"deploy":{"action":"accept","content":{"ok":true}}}}`); e != nil {
		t.Fatal(e)
	}
	if m := get(t, s, "alice", r.ID); m["status"] != "cancelled" || ran {
		t.Errorf("cancelled task: %v, ran %v", m, ran)
	}
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Result: json.RawMessage(`{}`)}); !errors.Is(err, tasks.ErrTerminal) {
		t.Errorf("settling a cancelled task: %v", err)
	}
}

func TestFailedTaskCarriesTheError(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	r, _ := s.Create(ctx, "", "protocol_error_job", "", nil, 0)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Err: &tasks.Error{Code: -32603, Message: "upstream failed"}}); err != nil {
		t.Fatal(err)
	}
	m := get(t, s, "", r.ID)
	e, _ := m["error"].(map[string]any)
	if m["status"] != "failed" || e["code"] != float64(-32603) || m["result"] != nil || m["statusMessage"] != "upstream failed" {
		t.Errorf("failed task: %v", m)
	}
	if _, ok := m["ttlMs"]; !ok || m["ttlMs"] != nil {
		t.Errorf("ttlMs of an unlimited task = %v, want null", m["ttlMs"])
	}
}

func TestExpiredTaskIsUnknown(t *testing.T) {
	s, st, clk := newServer()
	ctx := context.Background()
	r, _ := s.Create(ctx, "alice", "deploy", "", nil, 72*time.Hour)
	clk.Add(72*time.Hour - time.Millisecond)
	get(t, s, "alice", r.ID)
	clk.Add(time.Millisecond)
	if _, e := call(t, s, "alice", tasks.MethodGet, `{"taskId":"`+r.ID+`"}`); e == nil || e.Code != tasks.CodeInvalidParams {
		t.Errorf("expired task: %v", e)
	}
	for range 64 {
		if _, err := s.Create(ctx, "alice", "deploy", "", nil, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if st.Len() != 64 {
		t.Errorf("store holds %d records, want the expired one swept", st.Len())
	}
}

func TestTheLastAnswerRunsTheToolOnce(t *testing.T) {
	s, _, _ := newServer()
	ctx := context.Background()
	var runs atomic.Int32
	s.Run = func(context.Context, tasks.Record) tasks.Step {
		runs.Add(1)
		return tasks.Step{Result: json.RawMessage(`{"content":[]}`)}
	}
	r, _ := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if _, err := s.Settle(ctx, r.ID, tasks.Step{Requests: map[string]json.RawMessage{"deploy": elicit}}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			_, _ = s.Serve(ctx, tasks.Call{Method: tasks.MethodUpdate, Principal: "alice", Declared: true,
				Params: json.RawMessage(`{"taskId":"` + r.ID + `","inputResponses":{"deploy":{"action":"accept","content":{"ok":true}}}}`)})
		})
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Errorf("16 racing answers ran the tool %d times, want 1", runs.Load())
	}
}

// failingStore fails every call, as a page store that lost its backend
// does.
type failingStore struct{ page.Store }

func (failingStore) Get(context.Context, string) (page.Entry, error) {
	return page.Entry{}, errors.New("connection refused")
}

func (failingStore) Revise(context.Context, string, uint64, []byte) error {
	return errors.New("connection refused")
}

func TestAFailingStoreIsAnInternalError(t *testing.T) {
	s := &tasks.Server{Store: tasks.NewStore(failingStore{})}
	for _, c := range []struct{ method, params string }{
		{tasks.MethodGet, `{"taskId":"x"}`},
		{tasks.MethodCancel, `{"taskId":"x"}`},
		{tasks.MethodUpdate, `{"taskId":"x","inputResponses":{"k":{"action":"accept"}}}`},
	} {
		if _, e := call(t, s, "", c.method, c.params); e == nil || e.Code != tasks.CodeInternal {
			t.Errorf("%s over a failing store: %v, want -32603", c.method, e)
		}
	}
}

// TestTasksArePagesOfTheSameStore: a task is a question in the page
// store the hosted pages use, under its budgets: a principal at its
// budget gets no new task (and no page), others still do; a page's id
// never reads as a task, and a task's record is no page a link can name.
func TestTasksArePagesOfTheSameStore(t *testing.T) {
	ctx := context.Background()
	pages := &page.MemoryStore{Limit: 100, PerClient: 2}
	st := tasks.NewStore(pages)
	s := &tasks.Server{Store: st}
	var ids []string
	for range 2 {
		r, err := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	if _, err := s.Create(ctx, "alice", "deploy", "", nil, time.Hour); !errors.Is(err, page.ErrClientPagesFull) {
		t.Errorf("alice's third task: %v, want her page budget spent", err)
	}
	if err := pages.Put(ctx, page.Record{ID: "p1", Client: "alice", Question: []byte(`{}`), Until: time.Now().Add(time.Hour)}); !errors.Is(err, page.ErrClientPagesFull) {
		t.Errorf("alice's page beside two tasks: %v, want her page budget spent", err)
	}
	if _, err := s.Create(ctx, "bob", "deploy", "", nil, time.Hour); err != nil {
		t.Errorf("bob's task while alice is at her budget: %v", err)
	}
	if pages.Len() != 3 {
		t.Errorf("page store holds %d entries, want the 3 tasks", pages.Len())
	}
	// A page's id is no task id, and no task is stored under its bare id.
	if err := pages.Put(ctx, page.Record{ID: "p2", Client: "bob", Question: []byte(`{"id":"p2"}`), Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "p2"); !errors.Is(err, tasks.ErrNotFound) {
		t.Errorf("a page's id read as a task: %v", err)
	}
	if _, err := pages.Get(ctx, ids[0]); !errors.Is(err, page.ErrNotFound) {
		t.Errorf("a task's id read as a page: %v", err)
	}
	// Answering a task's entry as a page (nothing in Pages can, since
	// its id is no valid page id) would end the task, never complete it.
	if err := pages.Answer(ctx, "task."+ids[0], []byte(`{"action":"accept"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Update(ctx, ids[0], func(*tasks.Record) error { return nil }); !errors.Is(err, tasks.ErrNotFound) {
		t.Errorf("updating a task whose entry was answered as a page: %v, want ErrNotFound", err)
	}
}

// TestConcurrentUpdatesAllApply: updates racing on one task over the page
// store's compare-and-set all land, none lost.
func TestConcurrentUpdatesAllApply(t *testing.T) {
	ctx := context.Background()
	st := tasks.NewMemoryStore()
	s := &tasks.Server{Store: st}
	r, err := s.Create(ctx, "alice", "deploy", "", nil, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if _, err := st.Update(ctx, r.ID, func(r *tasks.Record) error {
				r.Issued = append(r.Issued, strconv.Itoa(i))
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := st.Get(ctx, r.ID)
	if err != nil || len(got.Issued) != 16 || got.Version != 17 {
		t.Errorf("after 16 concurrent updates: %d keys, version %d, %v; want 16, 17", len(got.Issued), got.Version, err)
	}
}
