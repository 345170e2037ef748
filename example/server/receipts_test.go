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
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/receipt"
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
