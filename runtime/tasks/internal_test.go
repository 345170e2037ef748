package tasks

import (
	"context"
	"encoding/json"
	"testing"
)

// TestMemoryStoreSharesNoMemory changes every map, slice and raw value of
// records got from the store and checks that the stored record is as it was.
func TestMemoryStoreSharesNoMemory(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryStore()
	r := Record{
		ID: "t1", Tool: "deploy", Args: json.RawMessage(`{"name":"deploy"}`), Status: StatusInputRequired,
		Pending: map[string]json.RawMessage{"a": json.RawMessage(`{"x":1}`)},
		Answers: map[string]json.RawMessage{"b": json.RawMessage(`{"y":2}`)},
		Issued:  []string{"a", "b"}, Round: []string{"a"},
		Err: &Error{Code: 1, Message: "m", Data: json.RawMessage(`{"d":3}`)},
	}
	if err := m.Create(ctx, r); err != nil {
		t.Fatal(err)
	}
	r.Args[2], r.Pending["a"][2], r.Issued[0] = 'X', 'X', "X" // the caller's own copy
	spoil := func(g *Record) {
		g.Args[2] = 'Z'
		g.Pending["a"][2] = 'Z'
		g.Pending["new"] = json.RawMessage(`{}`)
		g.Answers["b"][2] = 'Z'
		g.Issued[0], g.Round[0] = "Z", "Z"
		g.Err.Message, g.Err.Data[2] = "Z", 'Z'
	}
	g, err := m.Get(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	spoil(&g)
	u, err := m.Update(ctx, "t1", func(r *Record) error { r.Message = "updated"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	spoil(&u)
	got, err := m.Get(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"t1","principal":"","tool":"deploy","argv":{"name":"deploy"},"status":"input_required","msg":"updated","created":"0001-01-01T00:00:00Z","updated":"0001-01-01T00:00:00Z","pending":{"a":{"x":1}},"answers":{"b":{"y":2}},"issued":["a","b"],"round":["a"],"error":{"code":1,"message":"m","data":{"d":3}}}`
	if b, _ := json.Marshal(&got); string(b) != want {
		t.Errorf("stored record changed through a caller's copy:\n got %s\nwant %s", b, want)
	}
	if got.Version != 2 {
		t.Errorf("version after one update = %d, want 2", got.Version)
	}
}

// TestMemoryStoreRefusesInvalidJSON: the in-memory store fails, as a store
// that encodes its records does, on raw values that are not JSON.
func TestMemoryStoreRefusesInvalidJSON(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryStore()
	if err := m.Create(ctx, Record{ID: "bad", Args: json.RawMessage(`{`)}); err == nil {
		t.Error("Create stored arguments that are not JSON")
	}
	if err := m.Create(ctx, Record{ID: "t1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(ctx, "t1", func(r *Record) error { r.Result = json.RawMessage(`nope`); return nil }); err == nil {
		t.Error("Update stored a result that is not JSON")
	}
	if got, _ := m.Get(ctx, "t1"); got.Version != 1 || got.Result != nil {
		t.Errorf("a refused update changed the record: %+v", got)
	}
}

func TestLastEventData(t *testing.T) {
	for _, c := range []struct{ stream, want string }{
		{"event: message\ndata: {\"result\":{}}\n\n", `{"result":{}}`},
		{"data: {\"method\":\"x\"}\n\ndata: {\"id\":1,\"result\":{\"a\":1}}\n\n", `{"id":1,"result":{"a":1}}`},
		{"data: {\"error\":\r\ndata: {}}\r\n\r\n", `{"error":{}}`},                    // CRLF lines, two data lines
		{"data:{\"result\":1}", `{"result":1}`},                                       // no final blank line, no space
		{"data: {\"result\":1}\n\ndata: {\"method\":\"notify\"}\n\n", `{"result":1}`}, // a later event without a response
		{": ok\n\n", ``},
	} {
		if got := string(lastEventData([]byte(c.stream))); got != c.want {
			t.Errorf("lastEventData(%q) = %q, want %q", c.stream, got, c.want)
		}
	}
}

// TestCallArgs: the params to run again leave out the round's answers and
// state, whether or not they can be kept as sent.
func TestCallArgs(t *testing.T) {
	for _, c := range []struct{ params, want string }{
		{`{"name":"deploy","arguments":{"env":"prod"}}`, `{"name":"deploy","arguments":{"env":"prod"}}`},
		{` {"name":"deploy"} `, `{"name":"deploy"}`},
		{`{"name":"deploy","inputResponses":{"a":{}},"requestState":"s"}`, `{"name":"deploy"}`},
		{`{"name":"deploy","requestSt\u0061te":"s"}`, `{"name":"deploy"}`},
	} {
		got, err := callArgs(json.RawMessage(c.params))
		if err != nil || string(got) != c.want {
			t.Errorf("callArgs(%s) = %s, %v; want %s", c.params, got, err, c.want)
		}
	}
	if _, err := callArgs(json.RawMessage(`{"name":`)); err == nil {
		t.Error("callArgs took params that are not JSON")
	}
}

// TestRetryParams: the retry carries the call, the round's answers and
// the sealed state, as one JSON object.
func TestRetryParams(t *testing.T) {
	r := Record{Args: json.RawMessage(`{"arguments":{},"name":"deploy"}`), Round: []string{"a"}, State: "sealed\"",
		Answers: map[string]json.RawMessage{"a": json.RawMessage(`{"action":"accept"}`), "old": json.RawMessage(`{}`)}}
	got, perr := retryParams(r)
	if perr != nil {
		t.Fatal(perr)
	}
	const want = `{"arguments":{},"name":"deploy","inputResponses":{"a":{"action":"accept"}},"requestState":"sealed\""}`
	if string(got) != want {
		t.Errorf("retryParams = %s, want %s", got, want)
	}
	r.Args = json.RawMessage(`{}`)
	if got, _ := retryParams(r); string(got) != `{"inputResponses":{"a":{"action":"accept"}},"requestState":"sealed\""}` {
		t.Errorf("retryParams of empty arguments = %s", got)
	}
	r.Args = json.RawMessage(`[1]`)
	if _, perr := retryParams(r); perr == nil {
		t.Error("retryParams took a call that is not an object")
	}
}
