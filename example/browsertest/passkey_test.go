package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/exampletest"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/passkey"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestPasskeyInChromium answers a hosted page asking for a passkey
// step-up (runtime.WithStepUp) in headless Chromium with the DevTools
// virtual authenticator (node/page-passkey.mjs): it registers a passkey
// on the registration page, approves, then replays the captured
// assertion and posts it for a call with other arguments. The approval
// is taken verified by passkey; the other call stays unanswered, and its
// two refusals are recorded.
func TestPasskeyInChromium(t *testing.T) {
	exampletest.RequireNodePackages(t, "playwright-core")
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		exampletest.SkipOrFail(t, chromium+" is missing: apt-get install chromium to run the passkey test")
	}
	node, err := exampletest.NodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := exampletest.Context(t, 2*time.Minute) // page-passkey.mjs stops itself after 90 s
	defer cancel()

	// WebAuthn needs a host name for its relying party: localhost.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	srv.Start()
	defer srv.Close()
	origin := "http://localhost:" + portOf(t, ln.Addr())

	const header = "X-Elicit-User"
	identity := func(r *http.Request) (string, bool) { return r.Header.Get(header), r.Header.Get(header) != "" }
	keys, err := passkey.New(passkey.Config{RPID: "localhost", RPName: "elicitgen example", Origins: []string{origin}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var refused []page.Refusal
	pages, err := page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), BaseURL: origin + "/elicit/", Identity: identity, StepUp: keys,
		Refused: func(_ context.Context, r page.Refusal) {
			mu.Lock()
			refused = append(refused, r)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/elicit/passkey/", keys.RegisterHandler(identity))
	mux.Handle("/elicit/", pages)

	s, err := runtime.ParseSchema("Deploy", []byte(`{"type":"object","properties":{"service":{"type":"string","title":"Service"}},"required":["service"]}`))
	if err != nil {
		t.Fatal(err)
	}
	issue := func(args string) (*page.Link, seal.Binding) {
		b := seal.BindCall("deploy", []byte(args), "alice")
		l, err := pages.Issue(ctx, &page.Question{Schema: s, Message: "Deploy?", Call: b, StepUp: true})
		if err != nil {
			t.Fatal(err)
		}
		return l, b
	}
	approve, approveCall := issue(`{"service":"api"}`)
	other, otherCall := issue(`{"service":"billing"}`)

	plan, _ := json.Marshal(map[string]any{
		"register": origin + "/elicit/passkey/register", "approve": approve.URL, "other": other.URL,
		"headers": map[string]string{header: "alice"}, "service": "api",
		"stepUp": "Approving asks for your passkey: your device confirms it is you.",
		"sent":   "Thank you: your answer was sent. You can close this page.",
		// No call waits for these pages: the answer is kept for the next.
		"saved":   "Your answer is saved, but nothing has been done yet",
		"refused": "Your passkey did not confirm this answer.",
	})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(planFile, plan, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "page-passkey.mjs", planFile)
	cmd.Dir = "node"
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.WaitDelay = exampletest.Timeout(10 * time.Second)
	out, err := cmd.CombinedOutput()
	t.Logf("page-passkey.mjs:\n%s", out)
	mu.Lock()
	for _, r := range refused {
		t.Logf("refused: %s on %s: %v", r.Who, r.Page, r.Err)
	}
	mu.Unlock()
	if err != nil {
		t.Fatalf("page-passkey.mjs: %v", err)
	}

	resp, err := pages.Take(ctx, approve.ID, approveCall)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Action != runtime.ActionAccept || resp.Content["service"] != "api" || resp.Verified != page.VerifiedPasskey {
		t.Fatalf("took %+v, want the approval verified by passkey", resp)
	}
	if _, err := pages.Take(ctx, other.ID, otherCall); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("the other call's page: %v, want ErrNotAnswered", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 2 {
		t.Fatalf("refusals %+v, want the two posts to the other page", refused)
	}
	for _, r := range refused {
		if r.Page != other.ID || r.Who != "alice" || !errors.Is(r.Err, page.ErrStepUp) {
			t.Errorf("refusal %+v, want alice's on the other page, matching page.ErrStepUp", r)
		}
	}
}

func portOf(t *testing.T, a net.Addr) string {
	t.Helper()
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		t.Fatal(err)
	}
	return port
}
