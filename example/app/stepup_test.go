package app_test

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// signedStepUp is a page.StepUp whose "assertion" over a challenge is
// "signed:" and the challenge: it checks the page's binding and flow
// without WebAuthn (runtime/passkey's tests and the Chromium test check
// WebAuthn itself).
type signedStepUp struct{}

func (signedStepUp) Begin(_ context.Context, _ string, challenge []byte) ([]byte, error) {
	return json.Marshal(map[string]any{"publicKey": map[string]any{"challenge": base64.RawURLEncoding.EncodeToString(challenge)}})
}

func (signedStepUp) Finish(_ context.Context, _ string, challenge, assertion []byte) error {
	if string(assertion) != "signed:"+base64.RawURLEncoding.EncodeToString(challenge) {
		return errors.New("not signed over this challenge")
	}
	return nil
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestStepUpReceipt: with Options.StepUp (ELICIT_PASSKEY),
// deploy_to_production goes to the hosted page even for its requester,
// an approval without a passkey assertion is refused and deploys
// nothing, and the approval with one deploys, its receipt recording the
// approver as verified by passkey.
func TestStepUpReceipt(t *testing.T) {
	const header = "X-User"
	identity := func(r *http.Request) (string, bool) {
		u := r.Header.Get(header)
		return u, u != ""
	}
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + "/elicit/"
	keys := testKeys(t)
	ctx := context.Background()
	signer, err := receipt.NewSigner(ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "receipts.jsonl")
	sink, err := receipt.OpenFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	rlog, err := receipt.NewLog(ctx, signer, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer rlog.Close()
	// The refused approval gets a signed receipt of its own.
	refused := receipt.Refusals(rlog, app.ReceiptServer, func(page.Refusal) string { return receipt.VerifiedTrustedHeader }, func(_ context.Context, _ page.Refusal, err error) {
		t.Errorf("no receipt of the refusal: %v", err)
	})
	pages, err := page.New(page.Config{Keys: keys, BaseURL: base, Identity: identity, StepUp: signedStepUp{}, Refused: refused})
	if err != nil {
		t.Fatal(err)
	}
	a := app.New(app.Options{Keys: keys, Pages: pages, Identity: identity, StepUp: true, Receipts: rlog})
	h := app.HTTPHandlerWith(a.Server(false), &serve.Options{Pages: pages, PagesPath: "/elicit/"})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/mcp") {
			r.Header.Set(header, "alice")
		}
		h.ServeHTTP(w, r)
	})
	srv.Start()
	defer srv.Close()
	caps := meta(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
	call := func(args map[string]any) string {
		t.Helper()
		_, msgs := post(t, srv.URL+"/mcp", "tools/call", app.ToolDeploy, map[string]any{"name": app.ToolDeploy, "arguments": args, "_meta": caps})
		if len(msgs) == 0 {
			t.Fatal("no response")
		}
		res, _ := msgs[len(msgs)-1]["result"].(map[string]any)
		var sb strings.Builder
		content, _ := res["content"].([]any)
		for _, c := range content {
			if m, _ := c.(map[string]any); m["type"] == "text" {
				sb.WriteString(m["text"].(string))
			}
		}
		return sb.String()
	}
	deploy := map[string]any{"service": "billing"}
	link := pagetest.LinkIn(call(deploy), base)
	if link == "" {
		t.Fatal("the step-up question did not go to the hosted page")
	}

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	send := func(method string, form url.Values) (int, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequestWithContext(ctx, method, link, body)
		req.Header.Set(header, "alice")
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	_, page := send("GET", nil)
	m := csrfInput.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form:\n%s", page)
	}
	answer := url.Values{"csrf": {html.UnescapeString(m[1])}, "action": {"accept"}, "branch": {"release/2.4"}, "environment": {"production"}, "confirmed": {"true"}}
	if status, _ := send("POST", answer); status != http.StatusForbidden {
		t.Fatalf("an approval without a passkey: %d, want 403", status)
	}
	if call(deploy); len(a.Store().Deployments()) != 0 {
		t.Fatal("deployed without a passkey")
	}
	begin := url.Values{"elicit_stepup": {"begin"}}
	for k, v := range answer {
		begin[k] = v
	}
	status, out := send("POST", begin)
	var opts struct {
		Nonce   string `json:"nonce"`
		Options struct {
			PublicKey struct {
				Challenge string `json:"challenge"`
			} `json:"publicKey"`
		} `json:"options"`
	}
	if err := json.Unmarshal([]byte(out), &opts); status != 200 || err != nil {
		t.Fatalf("begin: %d %v\n%s", status, err, out)
	}
	answer.Set("elicit_stepup", opts.Nonce)
	answer.Set("elicit_assertion", "signed:"+opts.Options.PublicKey.Challenge)
	if status, body := send("POST", answer); status != http.StatusOK {
		t.Fatalf("the approval with a passkey: %d\n%s", status, body)
	}
	if text := call(deploy); len(a.Store().Deployments()) != 1 {
		t.Fatalf("not deployed after the step-up: %s", text)
	}

	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var approvers []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var jws struct{ Payload string }
		if err := json.Unmarshal(sc.Bytes(), &jws); err != nil {
			t.Fatal(err)
		}
		raw, _ := base64.RawURLEncoding.DecodeString(jws.Payload)
		var p receipt.Payload
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		for _, ap := range p.Approvers {
			approvers = append(approvers, strings.Join(strings.Fields(string(p.Action)+" "+p.Reason+" "+ap.Principal+" "+ap.Verified), " "))
		}
	}
	if len(approvers) != 2 || approvers[0] != "refused step-up-failed alice trusted-header" || approvers[1] != "accept alice passkey" {
		t.Fatalf("receipt approvers %q, want alice's approval without a passkey refused, then her accept verified by passkey", approvers)
	}
}

// TestStepUpWithoutPages: a step-up question is never asked on the
// client's own form; without hosted pages it is unavailable.
func TestStepUpWithoutPages(t *testing.T) {
	a := app.New(app.Options{Keys: testKeys(t), StepUp: true})
	srv := httptest.NewServer(app.HTTPHandlerWith(a.Server(false), &serve.Options{}))
	defer srv.Close()
	caps := meta(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, nil)
	_, msgs := post(t, srv.URL+"/mcp", "tools/call", app.ToolDeploy, map[string]any{"name": app.ToolDeploy, "arguments": map[string]any{"service": "billing"}, "_meta": caps})
	b, _ := json.Marshal(msgs)
	if !strings.Contains(string(b), "WithStepUp: needs a passkey on the hosted page, and the server serves no hosted pages for the passkey step-up") {
		t.Fatalf("deploy without pages:\n%s", b)
	}
	if strings.Contains(string(b), `"method":"elicitation/create"`) || len(a.Store().Deployments()) != 0 {
		t.Fatalf("asked on the client's form, or deployed:\n%s", b)
	}
}
