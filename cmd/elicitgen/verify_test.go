package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// receiptLog writes a log of n receipts signed with a key from seed and
// returns its lines, the path of the public key and the head digest.
func receiptLog(t *testing.T, dir string, seed byte, n int) (lines []string, pub, head string) {
	t.Helper()
	s, err := receipt.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("log%d.jsonl", seed))
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(context.Background(), s, sink)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for i := range n {
		if _, err := log.Append(context.Background(), receipt.Fields{
			Server: "example", Tool: "deploy_to_production", Form: "Deploy",
			Action: receipt.ActionAccept, Confirm: receipt.ConfirmTicked,
			Approvers: []receipt.Approver{{Principal: "alice", Verified: receipt.VerifiedTrustedHeader}},
			Requester: "bob", Rendering: "form", AskedAt: at, DecidedAt: at.Add(time.Duration(i) * time.Second),
		}); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	data, _ := os.ReadFile(path)
	pem, _ := s.PublicKeyPEM()
	pub = filepath.Join(dir, fmt.Sprintf("pub%d.pem", seed))
	writeFile(t, pub, string(pem))
	return strings.SplitAfter(string(data), "\n")[:n], pub, log.Head().Digest
}

func TestVerifyCommand(t *testing.T) {
	dir := t.TempDir()
	lines, pub, head := receiptLog(t, dir, 1, 4)
	_, otherPub, _ := receiptLog(t, dir, 2, 1)
	file := func(name string, ls ...string) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, strings.Join(ls, ""))
		return p
	}
	good := file("good.jsonl", lines...)
	changed := []byte(lines[2])
	changed[len(changed)-5] ^= 1 // in the signature
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"valid", []string{"--key", pub, good}, 0, "4 receipts verified; last receipt 4, " + head},
		{"valid with head", []string{"--key", pub, "--head", head, good}, 0, "4 receipts verified"},
		{"changed byte", []string{"--key", pub, file("changed.jsonl", lines[0], lines[1], string(changed), lines[3])}, 1, "changed.jsonl:3: bad signature"},
		{"removed line", []string{"--key", pub, file("removed.jsonl", lines[0], lines[2], lines[3])}, 1, "removed.jsonl:2: broken chain: receipt 3 follows receipt 1"},
		{"reordered", []string{"--key", pub, file("reordered.jsonl", lines[0], lines[1], lines[3], lines[2])}, 1, "reordered.jsonl:3: broken chain"},
		{"unknown key", []string{"--key", otherPub, good}, 1, "good.jsonl:1: unknown key"},
		{"truncated end", []string{"--key", pub, "--head", head, file("short.jsonl", lines[0], lines[1], lines[2])}, 1, "short.jsonl:4: truncated"},
		{"cut line", []string{"--key", pub, file("cut.jsonl", lines[0], lines[1][:30])}, 1, "cut.jsonl:2: truncated"},
		{"both keys", []string{"--key", otherPub, "--key", pub, good}, 0, "4 receipts verified"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(append([]string{"verify"}, c.args...)...)
			if code != c.code || !strings.Contains(stdout, c.out) {
				t.Fatalf("exit %d, want %d; stdout %q, want it to say %q; stderr %q", code, c.code, stdout, c.out, stderr)
			}
		})
	}
}

func TestVerifyCommandJSON(t *testing.T) {
	dir := t.TempDir()
	lines, pub, head := receiptLog(t, dir, 1, 3)
	good := filepath.Join(dir, "good.jsonl")
	writeFile(t, good, strings.Join(lines, ""))
	bad := filepath.Join(dir, "bad.jsonl")
	writeFile(t, bad, lines[0]+lines[2])

	stdout, _, code := runCLI("verify", "--key", pub, "--format", "json", good)
	var ok verifyReport
	if err := json.Unmarshal([]byte(stdout), &ok); err != nil || code != 0 || !ok.OK || ok.Receipts != 3 || ok.Head.Digest != head || ok.Head.Seq != 3 || len(ok.Keys) != 1 {
		t.Fatalf("exit %d: %s (%v)", code, stdout, err)
	}
	stdout, _, code = runCLI("verify", "--key", pub, "--format", "json", bad)
	var ko verifyReport
	if err := json.Unmarshal([]byte(stdout), &ko); err != nil || code != 1 || ko.OK || ko.Line != 2 || ko.Error != "chain" || ko.File != bad {
		t.Fatalf("exit %d: %s (%v)", code, stdout, err)
	}
}

func TestVerifyCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	lines, pub, _ := receiptLog(t, dir, 1, 1)
	good := filepath.Join(dir, "good.jsonl")
	writeFile(t, good, lines[0])
	priv := filepath.Join(dir, "priv.pem")
	writeFile(t, priv, "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB\n-----END PRIVATE KEY-----\n")
	for name, c := range map[string]struct {
		args []string
		msg  string
	}{
		"no key":         {[]string{good}, "--key PUB.pem"},
		"missing key":    {[]string{"--key", filepath.Join(dir, "nope.pem"), good}, "no such file"},
		"private key":    {[]string{"--key", priv, good}, "pubout"},
		"missing log":    {[]string{"--key", pub, filepath.Join(dir, "nope.jsonl")}, "no such file"},
		"log is dir":     {[]string{"--key", pub, dir}, "is a directory"},
		"bad format":     {[]string{"--key", pub, "--format", "yaml", good}, "unknown --format"},
		"no file":        {[]string{"--key", pub}, "accepts 1 arg"},
		"too many files": {[]string{"--key", pub, good, good}, "accepts 1 arg"},
	} {
		stdout, stderr, code := runCLI(append([]string{"verify"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.msg) || strings.Contains(stdout, "verified") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 saying %q", name, code, stdout, stderr, c.msg)
		}
	}
}
