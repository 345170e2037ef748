package receipt_test

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// failingSink refuses every receipt, as a full disk does.
type failingSink struct{}

func (failingSink) Head(context.Context) (receipt.Head, error) { return receipt.Head{}, nil }
func (failingSink) Append(context.Context, receipt.Head, *receipt.Receipt) error {
	return errors.New("no space left on device")
}

// approve runs one 2025-11-25 call of a tool that asks Release and ships
// when it is accepted, the client answering with answer.
func approve(t *testing.T, record func(context.Context, adapter.Decided) error, answer testforms.Release) (shipped bool, err error) {
	t.Helper()
	s := &adapter.Options{Keys: seal.NewRandomKeyRing(), Record: record}
	resp, _ := testforms.AcceptRelease(answer)
	if !answer.Approve { // the client sends the unticked box as it is
		resp = &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"ticket": answer.Ticket, "approve": false}}
	}
	push := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) { return resp, nil })
	x, err := s.Start(&adapter.Call{Tool: "release", Args: []byte(`{"service":"api"}`), Principal: "alice",
		Version: runtime.Version20251125, Caps: adapter.ClientCaps{Form: true}}, "", nil, nil, push)
	if err != nil {
		t.Fatal(err)
	}
	out, err := testforms.AskRelease(context.Background(), x, "Ship it?")
	return err == nil && out.Action == runtime.ActionAccept, err
}

// Every decided question leaves a signed receipt before the handler sees
// it (accept with the box ticked; an unticked box as a decline); the log
// verifies; a sink that cannot store the receipt keeps the handler from
// shipping.
func TestRecorderSignsEachDecision(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(nil)
	signer, err := receipt.NewSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "receipts.jsonl")
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(context.Background(), signer, sink)
	if err != nil {
		t.Fatal(err)
	}
	rec := receipt.Recorder(log, "deployer", func(adapter.Decided) string { return receipt.VerifiedSession })
	if shipped, err := approve(t, rec, testforms.Release{Ticket: "CHG-1234", Approve: true}); !shipped || err != nil {
		t.Fatalf("ticked: shipped %v, %v", shipped, err)
	}
	if shipped, err := approve(t, rec, testforms.Release{Ticket: "CHG-1234"}); shipped || err != nil {
		t.Fatalf("unticked: shipped %v, %v", shipped, err)
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rep, err := receipt.Verify(f, signer.Keys(), receipt.VerifyOptions{}); err != nil || rep.Receipts != 2 {
		t.Fatalf("Verify: %+v, %v", rep, err)
	}
	f.Seek(0, 0)
	var got []receipt.Payload
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var jws struct{ Payload string }
		if err := json.Unmarshal(sc.Bytes(), &jws); err != nil {
			t.Fatal(err)
		}
		raw, _ := base64.RawURLEncoding.DecodeString(jws.Payload)
		var p receipt.Payload
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	args, _ := receipt.DigestJSON(map[string]any{"service": "api"})
	if len(got) != 2 {
		t.Fatalf("%d receipts", len(got))
	}
	a, d := got[0], got[1]
	if a.Action != receipt.ActionAccept || a.Confirm != receipt.ConfirmTicked || a.Tool != "release" || a.Form != "Release" ||
		a.Requester != "alice" || a.ArgsDigest != args || a.AnswerDigest == "" || a.SchemaDigest == "" || a.Rendering != "form" ||
		len(a.Approvers) != 1 || a.Approvers[0].Verified != receipt.VerifiedSession {
		t.Errorf("accept receipt: %+v", a)
	}
	if d.Action != receipt.ActionDecline || d.Confirm != receipt.ConfirmUnticked || d.AnswerDigest != "" || !strings.Contains(d.Reason, "confirm") || d.Prev == "" {
		t.Errorf("unticked receipt: %+v", d)
	}

	failing, err := receipt.NewLog(context.Background(), signer, failingSink{})
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := approve(t, receipt.Recorder(failing, "deployer", func(adapter.Decided) string { return receipt.VerifiedSession }),
		testforms.Release{Ticket: "CHG-1234", Approve: true})
	if shipped || !errors.Is(err, runtime.ErrDecisionRefused) || !errors.Is(err, receipt.ErrSink) {
		t.Fatalf("a failing sink: shipped %v, %v", shipped, err)
	}
}

// A question whose wait ran out is signed as expired, with nobody as its
// approver; a decline by the person stays a decline.
func TestFieldsOfExpired(t *testing.T) {
	req := &runtime.Request{Mode: runtime.ModeForm, Schema: testforms.ReleaseSchema()}
	q := adapter.Decided{Tool: "release", Principal: "alice", Rendering: runtime.RenderingForm, At: time.Now()}
	q.Decision = &runtime.Decision{Request: req, Action: runtime.ExpiredDecline().Action}
	f, err := receipt.FieldsOf("deployer", q, receipt.VerifiedSession)
	if err != nil || f.Action != receipt.ActionExpired || f.Reason != runtime.ReasonExpired || len(f.Approvers) != 0 || f.AnswerDigest != "" {
		t.Errorf("expired: %+v, %v", f, err)
	}
	q.Decision = &runtime.Decision{Request: req, Action: runtime.ActionDecline}
	if f, err := receipt.FieldsOf("deployer", q, receipt.VerifiedSession); err != nil || f.Action != receipt.ActionDecline || len(f.Approvers) != 1 {
		t.Errorf("decline: %+v, %v", f, err)
	}
}
