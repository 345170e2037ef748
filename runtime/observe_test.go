package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// spentError is a replay store's refusal: it names its reason.
type spentError struct{}

func (spentError) Error() string         { return "state already used" }
func (spentError) Is(err error) bool     { return err == runtime.ErrInvalidState }
func (spentError) RefusalReason() string { return seal.RefusedSpent }

func TestRefusalReason(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: does not authenticate", seal.ErrStateTampered), seal.RefusedTampered},
		{fmt.Errorf("%w: 3s ago", seal.ErrStateExpired), seal.RefusedExpired},
		{seal.ErrStateForeign, seal.RefusedForeign},
		{seal.ErrStateNotYetValid, seal.RefusedNotYetValid},
		{seal.ErrStateOutdated, seal.RefusedOutdated},
		{fmt.Errorf("open: %w", spentError{}), seal.RefusedSpent},
		{errors.New("other"), ""},
		{nil, ""},
	} {
		if got := seal.RefusalReason(tc.err); got != tc.want {
			t.Errorf("RefusalReason(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

func TestEventKindNames(t *testing.T) {
	want := []string{"unknown", "asked", "answered", "invalid", "timed_out", "unavailable", "state_refused", "failed", "call_end", "unknown"}
	for k := range runtime.EventKind(len(want)) {
		if got := k.String(); got != want[k] {
			t.Errorf("EventKind(%d) = %q, want %q", k, got, want[k])
		}
	}
}

func TestLogObserver(t *testing.T) {
	var buf bytes.Buffer
	obs := runtime.NewLogObserver(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	base := runtime.Event{Time: at, Method: "tools/call", Tool: "deploy", CallID: "c1", Round: 2, Protocol: runtime.Version20260728,
		ClientName: "cli", ClientVersion: "v1", Principal: "ana", Form: "Deploy", Key: "Deploy", Mode: runtime.ModeForm, SchemaDigest: "abcd", Attempt: 1, Asked: true}
	answered := base
	answered.Kind, answered.Action, answered.WaitTime = runtime.EventAnswered, runtime.ActionAccept, 1500*time.Microsecond
	answered.Content = map[string]any{"env": "prod", "a": 1.0}
	invalid := base
	invalid.Kind, invalid.InvalidFields = runtime.EventInvalid, []string{"replicas", ""}
	end := base
	end.Kind, end.Reply, end.RoundTime, end.CallTime = runtime.EventCallEnd, "result", time.Millisecond, 3*time.Millisecond
	for _, e := range []runtime.Event{answered, invalid, end} {
		obs.Observe(context.Background(), e)
	}
	var recs []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, m)
	}
	if len(recs) != 3 {
		t.Fatalf("%d records", len(recs))
	}
	a := recs[0]
	if a["msg"] != "elicitation.answered" || a["level"] != "INFO" || a["time"] != "2026-12-01T10:00:00Z" || a["tool"] != "deploy" ||
		a["action"] != "accept" || a["asked"] != true || a["principal"] != "ana" || a["wait_ms"] != 1.5 || a["schema"] != "abcd" {
		t.Errorf("answered record %v", a)
	}
	if c, _ := a["content"].(map[string]any); c["env"] != "prod" || len(c) != 2 {
		t.Errorf("content %v", a["content"])
	}
	if _, ok := a["session"]; ok {
		t.Error("an empty session is written")
	}
	if i := recs[1]; i["level"] != "WARN" || fmt.Sprint(i["invalid_fields"]) != "[replicas ]" {
		t.Errorf("invalid record %v", i)
	}
	e := recs[2]
	if _, ok := e["form"]; ok || e["reply"] != "result" || e["round_ms"] != 1.0 || e["call_ms"] != 3.0 {
		t.Errorf("call_end record %v", e)
	}
	// A disabled level costs nothing and writes nothing.
	buf.Reset()
	quiet := runtime.NewLogObserver(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError})))
	quiet.Observe(context.Background(), invalid)
	if buf.Len() != 0 {
		t.Errorf("wrote %q below the handler's level", buf.String())
	}
}
