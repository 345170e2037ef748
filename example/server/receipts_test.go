package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

func writePEM(t *testing.T, path, typ string, der []byte) string {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The server refuses to start when receipts are asked for and the key is
// missing, unreadable or wrong, or the log cannot be written; with a
// good key it opens a log whose receipts verify.
func TestReceiptFlags(t *testing.T) {
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	key := writePEM(t, filepath.Join(dir, "key.pem"), "PRIVATE KEY", der)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKCS8PrivateKey(ec)
	ecKey := writePEM(t, filepath.Join(dir, "ec.pem"), "PRIVATE KEY", ecDER)
	pubDER, _ := x509.MarshalPKIXPublicKey(priv.Public())
	pub := writePEM(t, filepath.Join(dir, "pub.pem"), "PUBLIC KEY", pubDER)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o600)
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, []byte(`{"protected":"eyJ`), 0o600)
	logFile := filepath.Join(dir, "receipts.jsonl")

	for name, c := range map[string]struct {
		o   receiptOptions
		msg string
	}{
		"no key":          {receiptOptions{dest: logFile}, "--receipts needs --receipt-key"},
		"no destination":  {receiptOptions{key: key}, "--receipt-key without --receipts"},
		"missing key":     {receiptOptions{dest: logFile, key: filepath.Join(dir, "nope.pem")}, "no such file"},
		"key is a dir":    {receiptOptions{dest: logFile, key: dir}, "is a directory"},
		"ECDSA key":       {receiptOptions{dest: logFile, key: ecKey}, "not Ed25519"},
		"public key":      {receiptOptions{dest: logFile, key: pub}, `"PUBLIC KEY" block`},
		"unwritable file": {receiptOptions{dest: filepath.Join(notDir, "r.jsonl"), key: key}, "not a directory"},
		"cut log":         {receiptOptions{dest: cut, key: key}, "cut line"},
		"Redis down":      {receiptOptions{dest: "redis://127.0.0.1:1/0", key: key}, "redis"},
	} {
		t.Run(name, func(t *testing.T) {
			// run refuses before it serves anything.
			err := run("", false, false, false, httpFlags(flag.NewFlagSet("t", flag.ContinueOnError)), replayFlags(flag.NewFlagSet("t", flag.ContinueOnError)), nil, &c.o)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("run = %v, want an error saying %q", err, c.msg)
			}
			if strings.Contains(name, "key") && c.o.key != "" && c.o.dest != "" && !errors.Is(err, receipt.ErrKey) {
				t.Errorf("%v does not match receipt.ErrKey", err)
			}
		})
	}
	if _, err := os.Stat(logFile); err == nil {
		t.Error("a refused start created the receipt log")
	}

	none := &receiptOptions{}
	if l, closeLog, err := none.open(context.Background()); l != nil || err != nil {
		t.Fatalf("no flags: %v %v", l, err)
	} else {
		closeLog()
	}

	o := &receiptOptions{dest: logFile, key: key}
	l, closeLog, err := o.open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, err := l.Append(context.Background(), receipt.Fields{Server: "elicitgen-example", Tool: "deploy_to_production", Action: receipt.ActionDecline, DecidedAt: now}); err != nil {
		t.Fatal(err)
	}
	closeLog()
	keys, _ := receipt.LoadPublicKeys(pub)
	f, _ := os.Open(logFile)
	defer f.Close()
	if rep, err := receipt.Verify(f, keys, receipt.VerifyOptions{}); err != nil || rep.Receipts != 1 {
		t.Fatalf("the example's log: %+v %v", rep, err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"redis://:secret@host:6379/0":     "redis://:xxxxx@host:6379/0",
		"redis://user:secret@host:6379/0": "redis://user:xxxxx@host:6379/0",
		"redis://host:6379/0":             "redis://host:6379/0",
		"/var/log/receipts.jsonl":         "/var/log/receipts.jsonl",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRefusedReceipt: with --receipts, the requester posting an approval
// to their own deploy_to_production page (ELICIT_APPROVERS excludes them)
// gets 403 and leaves a signed "refused" receipt naming them; bob's
// approval then deploys, with its accept receipt after it in the same
// chain, and the log verifies. With a receipt sink that fails, the
// requester's post is still a 403 and deploys nothing.
func TestRefusedReceipt(t *testing.T) {
	t.Setenv(NotifyURLEnv, "")
	t.Setenv(PageBaseURLEnv, "")
	ctx := context.Background()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := receipt.NewSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "receipts.jsonl")
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rlog, err := receipt.NewLog(ctx, signer, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer rlog.Close()
	broken, err := receipt.NewLog(ctx, signer, brokenSink{})
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		log  *receipt.Log
	}{{"receipts", rlog}, {"failing sink", broken}} {
		t.Run(c.name, func(t *testing.T) {
			const header = "X-User"
			identity := func(r *http.Request) (string, bool) { u := r.Header.Get(header); return u, u != "" }
			srv := httptest.NewUnstartedServer(nil)
			keys := seal.NewRandomKeyRing()
			pages, _, err := newPages(keys, page.NewMemoryStore(), srv.Listener.Addr(), true, identity, false, c.log)
			if err != nil {
				t.Fatal(err)
			}
			a := app.New(app.Options{Keys: keys, Pages: pages, Identity: identity, Approvers: []string{"alice", "bob"}, Receipts: c.log})
			h := app.HTTPHandlerWith(a.Server(false), &serve.Options{Pages: pages, PagesPath: PagesPath})
			srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/mcp") {
					r.Header.Set(header, "alice")
				}
				h.ServeHTTP(w, r)
			})
			srv.Start()
			defer srv.Close()
			deploy := map[string]any{"service": "billing"}
			link := pagetest.LinkIn(callTool(t, srv.URL+"/mcp", app.ToolDeploy, deploy), srv.URL+PagesPath)
			if link == "" {
				t.Fatal("deploy_to_production did not go to the hosted page")
			}
			// alice cannot open her own page; she posts anyway.
			req, _ := http.NewRequest("POST", link, strings.NewReader(url.Values{"action": {"accept"}, "branch": {"main"}, "environment": {"production"}, "confirmed": {"true"}}.Encode()))
			req.Header.Set(header, "alice")
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusForbidden {
				t.Fatalf("the requester's post: %d, want 403", res.StatusCode)
			}
			callTool(t, srv.URL+"/mcp", app.ToolDeploy, deploy)
			if n := len(a.Store().Deployments()); n != 0 {
				t.Fatalf("%d deployments after the requester's own approval", n)
			}
			if c.log == broken {
				return
			}
			yes := url.Values{"branch": {"main"}, "environment": {"production"}, "confirmed": {"true"}}
			if status, body, err := pagetest.Answer(ctx, link, http.Header{header: {"bob"}}, "accept", yes); err != nil || status != http.StatusOK {
				t.Fatalf("bob approves: %d %v\n%s", status, err, body)
			}
			callTool(t, srv.URL+"/mcp", app.ToolDeploy, deploy)
			if n := len(a.Store().Deployments()); n != 1 {
				t.Fatalf("%d deployments after bob's approval, want 1", n)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var got []string
			rep, err := receipt.Verify(f, signer.Keys(), receipt.VerifyOptions{Head: rlog.Head().Digest, Each: func(_ int, r *receipt.Receipt) {
				p := r.Payload
				got = append(got, fmt.Sprintf("%s %s %s by %s/%s(%s)", p.Action, p.Reason, p.Tool, p.Approvers[0].Principal, p.Approvers[0].Verified, p.Approvers[0].Action))
			}})
			if err != nil {
				t.Fatalf("the log does not verify: %v", err)
			}
			want := []string{
				"refused requester-excluded deploy_to_production by alice/trusted-header(refused)",
				"accept  deploy_to_production by bob/trusted-header()",
			}
			if rep.Receipts != 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("receipts:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// brokenSink refuses every receipt, as a full disk does.
type brokenSink struct{}

func (brokenSink) Head(context.Context) (receipt.Head, error) { return receipt.Head{}, nil }
func (brokenSink) Append(context.Context, receipt.Head, *receipt.Receipt) error {
	return errors.New("no space left on device")
}
