package receipt_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

const deploySchema = `{"type":"object","properties":{"environment":{"type":"string","title":"Environment","enum":["staging","production"]},"confirmed":{"type":"boolean","title":"I confirm","default":false}},"required":["environment","confirmed"]}`

// refusalServer serves pages whose refusals go to hook, the identity in
// the X-User header, and issues one question of alice's call with the
// policy p. It returns the page's link and id, and the call's binding.
func refusalServer(t *testing.T, hook func(context.Context, page.Refusal), p *runtime.Approvers) (pages *page.Pages, link *page.Link, call seal.Binding) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	pages, err := page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), BaseURL: "http://" + srv.Listener.Addr().String() + "/elicit/",
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get("X-User"); return u, u != "" },
		Refused:  hook,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = pages
	srv.Start()
	t.Cleanup(srv.Close)
	s, err := runtime.ParseSchema("Deploy", []byte(deploySchema))
	if err != nil {
		t.Fatal(err)
	}
	call = seal.BindCall("deploy_to_production", []byte(`{"service":"api"}`), "alice")
	link, err = pages.Issue(context.Background(), &page.Question{Schema: s, Message: "Deploy api?", Call: call, Approvers: p})
	if err != nil {
		t.Fatal(err)
	}
	return pages, link, call
}

// post posts an approval of link as user and returns the status.
func post(t *testing.T, link, user string) int {
	t.Helper()
	status, body, err := pagetest.Answer(context.Background(), link, http.Header{"X-User": {user}}, "accept", url.Values{"environment": {"production"}, "confirmed": {"true"}})
	if err != nil {
		t.Fatal(err)
	}
	if status == http.StatusOK && strings.Contains(body, `name="csrf"`) {
		// The GET was refused with a form? Never: pagetest posts when it
		// sees one.
		t.Fatalf("%s: no post made", user)
	}
	return status
}

// postBare posts an approval to link as user without opening the page
// first (the requester cannot: the page refuses to show it to them).
func postBare(t *testing.T, link, user string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, link, strings.NewReader("action=accept&environment=production&confirmed=true"))
	req.Header.Set("X-User", user)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// payloads returns the payloads of the receipt log at path, after
// verifying it.
func payloads(t *testing.T, path string, keys *receipt.Keys) []receipt.Payload {
	t.Helper()
	var out []receipt.Payload
	if _, err := verifyFile(t, path, keys, receipt.VerifyOptions{Each: func(_ int, r *receipt.Receipt) { out = append(out, r.Payload) }}); err != nil {
		t.Fatalf("the log does not verify: %v", err)
	}
	return out
}

// Every post a page refuses by policy (the requester on a question that
// excludes them, someone not named, the same approver twice) leaves a
// signed "refused" receipt in the chained log, naming who tried, how they
// were identified, why, and the question; the page still answers 403 or
// 409, the question stays open, and the approval that follows is the only
// one counted.
func TestRefusalReceipts(t *testing.T) {
	ctx := context.Background()
	s := signer(t, 1)
	path := filepath.Join(t.TempDir(), "receipts.jsonl")
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(ctx, s, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	hook := receipt.Refusals(log, "deploy-bot", func(page.Refusal) string { return receipt.VerifiedTrustedHeader }, func(_ context.Context, _ page.Refusal, err error) {
		t.Errorf("a refusal's receipt failed: %v", err)
	})
	quorum := &runtime.Approvers{Principals: []string{"alice", "bob", "carol"}, ExcludeRequester: true, Quorum: 2}
	pages, link, call := refusalServer(t, hook, quorum)

	if got := postBare(t, link.URL, "alice"); got != http.StatusForbidden {
		t.Fatalf("the requester's post: %d, want 403", got)
	}
	if got := postBare(t, link.URL, "mallory"); got != http.StatusForbidden {
		t.Fatalf("a stranger's post: %d, want 403", got)
	}
	// A refused view (GET) is not a post: no receipt.
	if status, _, _ := pagetest.Answer(ctx, link.URL, http.Header{"X-User": {"mallory"}}, "accept", nil); status != http.StatusForbidden {
		t.Fatalf("a stranger's view: %d", status)
	}
	if got := post(t, link.URL, "bob"); got != http.StatusOK {
		t.Fatalf("bob's approval: %d", got)
	}
	if got := postBare(t, link.URL, "bob"); got != http.StatusConflict {
		t.Fatalf("bob again: %d, want 409", got)
	}
	if _, err := pages.Take(ctx, link.ID, call); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("after the refusals and one approval of two: %v, want the question open", err)
	}

	ps := payloads(t, path, s.Keys())
	want := []struct{ who, reason string }{
		{"alice", page.ReasonRequester}, {"mallory", page.ReasonNotApprover}, {"bob", page.ReasonTwice},
	}
	if len(ps) != len(want) {
		t.Fatalf("%d receipts, want %d: %+v", len(ps), len(want), ps)
	}
	args := seal.DigestArgs([]byte(`{"service":"api"}`))
	for i, p := range ps {
		w := want[i]
		if p.Action != receipt.ActionRefused || p.Reason != w.reason || p.AnswerDigest != "" || p.Confirm != receipt.ConfirmNone ||
			len(p.Approvers) != 1 || p.Approvers[0] != (receipt.Approver{Principal: w.who, Verified: receipt.VerifiedTrustedHeader, Action: receipt.ActionRefused}) ||
			p.Requester != "alice" || p.Tool != "deploy_to_production" || p.Form != "Deploy" || p.StateID != link.ID ||
			p.ArgsDigest != "sha256:"+hexOf(args[:]) || p.AskedAt.IsZero() || p.DecidedAt.Before(p.AskedAt) || p.Server != "deploy-bot" {
			t.Errorf("receipt %d: %+v, want %s refused for %s", i+1, p, w.who, w.reason)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// A refusal whose receipt cannot be written is still a refusal: 403,
// nothing recorded as an answer, the failure reported; the question stays
// open for an approver.
func TestRefusalReceiptSinkFails(t *testing.T) {
	ctx := context.Background()
	log, err := receipt.NewLog(ctx, signer(t, 1), failingSink{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var failed []error
	hook := receipt.Refusals(log, "deploy-bot", nil, func(_ context.Context, _ page.Refusal, err error) {
		mu.Lock()
		failed = append(failed, err)
		mu.Unlock()
	})
	excluding := &runtime.Approvers{Principals: []string{"alice", "bob"}, ExcludeRequester: true}
	pages, link, call := refusalServer(t, hook, excluding)
	if got := postBare(t, link.URL, "alice"); got != http.StatusForbidden {
		t.Fatalf("the requester's post with a failing sink: %d, want 403", got)
	}
	if _, err := pages.Take(ctx, link.ID, call); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("after the refusal: %v, want the question open", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(failed) != 1 || !errors.Is(failed[0], receipt.ErrSink) {
		t.Fatalf("failures reported: %v, want one matching ErrSink", failed)
	}
}

// Verify refuses a signed payload whose refusal reads as an approval (an
// answer digest), which Append never writes: a key holder's edit shows.
func TestVerifyRefusedShape(t *testing.T) {
	s := signer(t, 1)
	f := fields(0)
	f.Action = receipt.ActionRefused // with the accept's answer digest and ticked box
	p := receipt.Payload{V: receipt.Version, Seq: 1, Fields: f}
	body, _ := json.Marshal(p)
	line := signRaw(t, s, body)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	os.WriteFile(path, append(line, '\n'), 0o600)
	if _, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{}); !errors.Is(err, receipt.ErrMalformed) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("verify: %v, want a malformed refused receipt", err)
	}
}

// signRaw signs body as a receipt line with signer(t, 1)'s key, as the
// key's holder could.
func signRaw(t *testing.T, s *receipt.Signer, body []byte) []byte {
	t.Helper()
	hdr, _ := json.Marshal(map[string]string{"alg": "EdDSA", "kid": s.KeyID(), "typ": receipt.Type})
	protected := base64.RawURLEncoding.EncodeToString(hdr)
	payload := base64.RawURLEncoding.EncodeToString(body)
	sig := ed25519.Sign(seedKey(1), []byte(protected+"."+payload))
	line, _ := json.Marshal(struct {
		Protected string `json:"protected"`
		Payload   string `json:"payload"`
		Signature string `json:"signature"`
	}{protected, payload, base64.RawURLEncoding.EncodeToString(sig)})
	return line
}
