package receipt_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// seedKey returns a deterministic Ed25519 key from a one-byte seed.
func seedKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

func signer(t testing.TB, seed byte) *receipt.Signer {
	t.Helper()
	s, err := receipt.NewSigner(seedKey(seed))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pkcs8PEM(t testing.TB, k any) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

var t0 = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

// fields returns the fields of the i-th decided question.
func fields(i int) receipt.Fields {
	return receipt.Fields{
		Server:       "deploy-bot",
		Tool:         "deploy_to_production",
		ArgsDigest:   fmt.Sprintf("sha256:%064x", i),
		Form:         "Deploy",
		SchemaDigest: "0123456789abcdef",
		AnswerDigest: "sha256:" + strings.Repeat("a", 64),
		Action:       receipt.ActionAccept,
		Confirm:      receipt.ConfirmTicked,
		Approvers:    []receipt.Approver{{Principal: "alice@example.com", Verified: receipt.VerifiedTrustedHeader}},
		Requester:    "bob@example.com",
		Rendering:    "form",
		AskedAt:      t0.Add(time.Duration(i) * time.Minute),
		DecidedAt:    t0.Add(time.Duration(i)*time.Minute + 30*time.Second),
		StateID:      fmt.Sprintf("state-%d", i),
	}
}

// writeLog writes n receipts signed by s to a new file and returns its
// path and the receipts.
func writeLog(t testing.TB, s *receipt.Signer, n int) (string, []*receipt.Receipt) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "receipts.jsonl")
	return path, appendTo(t, path, s, 0, n)
}

func appendTo(t testing.TB, path string, s *receipt.Signer, from, n int) []*receipt.Receipt {
	t.Helper()
	ctx := context.Background()
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(ctx, s, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	var out []*receipt.Receipt
	for i := from; i < from+n; i++ {
		r, err := log.Append(ctx, fields(i))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func verifyFile(t testing.TB, path string, keys *receipt.Keys, opts receipt.VerifyOptions) (*receipt.Report, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return receipt.Verify(f, keys, opts)
}

func TestAppendVerify(t *testing.T) {
	s := signer(t, 1)
	path, recs := writeLog(t, s, 5)
	var seen []receipt.Payload
	rep, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{
		Head: recs[4].Digest,
		Each: func(line int, r *receipt.Receipt) { seen = append(seen, r.Payload) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Receipts != 5 || rep.Head != recs[4].Head() || rep.KeyIDs[s.KeyID()] != 5 {
		t.Fatalf("report %+v, want 5 receipts of %s ending at %+v", rep, s.KeyID(), recs[4].Head())
	}
	for i, p := range seen {
		if p.Seq != uint64(i+1) || p.V != receipt.Version {
			t.Errorf("receipt %d: seq %d v %d", i, p.Seq, p.V)
		}
		want := fields(i)
		if p.Tool != want.Tool || p.ArgsDigest != want.ArgsDigest || !p.DecidedAt.Equal(want.DecidedAt) || p.Approvers[0] != want.Approvers[0] || p.StateID != want.StateID {
			t.Errorf("receipt %d payload %+v, want fields %+v", i, p, want)
		}
		if i > 0 && p.Prev != recs[i-1].Digest || i == 0 && p.Prev != "" {
			t.Errorf("receipt %d prev %q", i, p.Prev)
		}
	}
	// A line is the flattened JWS JSON serialization whose compact form
	// the next receipt's prev digests.
	data, _ := os.ReadFile(path)
	first := strings.SplitN(string(data), "\n", 2)[0]
	var fl map[string]string
	if err := json.Unmarshal([]byte(first), &fl); err != nil || len(fl) != 3 {
		t.Fatalf("line 1 %q is not a flattened JWS: %v", first, err)
	}
	if receipt.Digest([]byte(fl["protected"]+"."+fl["payload"]+"."+fl["signature"])) != seen[1].Prev {
		t.Error("receipt 2's prev is not the digest of receipt 1's compact serialization")
	}
	hdr, _ := base64.RawURLEncoding.DecodeString(fl["protected"])
	if want := `{"alg":"EdDSA","kid":"` + s.KeyID() + `","typ":"elicitgen-receipt"}`; string(hdr) != want {
		t.Errorf("protected header %s, want %s", hdr, want)
	}
}

// Receipts are byte-identical for the same key and fields: the payload
// JSON is deterministic and Ed25519 signatures are.
func TestDeterministic(t *testing.T) {
	a, _ := writeLog(t, signer(t, 1), 3)
	b, _ := writeLog(t, signer(t, 1), 3)
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatalf("two runs wrote different logs:\n%s\n%s", da, db)
	}
	// A time in another zone is signed in UTC.
	f := fields(0)
	f.DecidedAt = f.DecidedAt.In(time.FixedZone("X", 3600))
	sink := &memSink{}
	log, _ := receipt.NewLog(context.Background(), signer(t, 1), sink)
	r, err := log.Append(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(decodePayload(t, r.Line), []byte(`"decided_at":"2026-12-02T09:00:30Z"`)) {
		t.Errorf("payload %s does not hold the decision time in UTC", decodePayload(t, r.Line))
	}
}

func decodePayload(t *testing.T, line []byte) []byte {
	t.Helper()
	var fl struct{ Payload string }
	if err := json.Unmarshal(line, &fl); err != nil {
		t.Fatal(err)
	}
	b, err := base64.RawURLEncoding.DecodeString(fl.Payload)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A reopened log goes on from its last receipt, and a rotated key signs
// the rest: both keys verify the whole log, the old one alone names the
// first line of the new.
func TestReopenAndRotate(t *testing.T) {
	a, b := signer(t, 1), signer(t, 2)
	path, _ := writeLog(t, a, 2)
	appendTo(t, path, b, 2, 2)
	keys := a.Keys()
	if err := keys.Add(b.Public()); err != nil {
		t.Fatal(err)
	}
	rep, err := verifyFile(t, path, keys, receipt.VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Receipts != 4 || rep.KeyIDs[a.KeyID()] != 2 || rep.KeyIDs[b.KeyID()] != 2 {
		t.Fatalf("report %+v", rep)
	}
	_, err = verifyFile(t, path, a.Keys(), receipt.VerifyOptions{})
	var le *receipt.LineError
	if !errors.As(err, &le) || le.Line != 3 || !errors.Is(err, receipt.ErrUnknownKey) {
		t.Fatalf("verify with the old key only: %v, want line 3 unknown key", err)
	}
}

// Every edit of a log fails verification naming the line.
func TestVerifyTampered(t *testing.T) {
	s := signer(t, 1)
	path, recs := writeLog(t, s, 4)
	orig, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(orig), "\n")[:4]
	join := func(ls ...string) string { return strings.Join(ls, "") }
	flip := func(l string, at int) string {
		b := []byte(l)
		b[at] ^= 0x01
		return string(b)
	}
	payloadAt := strings.Index(lines[1], `"payload":"`) + len(`"payload":"`) + 20
	sigAt := len(lines[1]) - 10
	other := signer(t, 9)
	_, foreign := writeLog(t, other, 1)
	cases := []struct {
		name  string
		data  string
		head  string
		line  int
		kind  error
		inMsg string
	}{
		{"changed payload byte", join(lines[0], flip(lines[1], payloadAt), lines[2], lines[3]), "", 2, nil, ""},
		{"changed signature byte", join(lines[0], flip(lines[1], sigAt), lines[2], lines[3]), "", 2, receipt.ErrSignature, ""},
		{"changed last base64 digit", join(lines[0], flip(lines[1], len(lines[1])-4), lines[2], lines[3]), "", 2, receipt.ErrSignature, ""},
		{"changed key name", join(lines[0], lines[1], strings.Replace(lines[2], `"payload"`, `"payloaD"`, 1), lines[3]), "", 3, receipt.ErrMalformed, ""},
		{"added space", join(lines[0], lines[1], strings.Replace(lines[2], `,"payload"`, `, "payload"`, 1), lines[3]), "", 3, receipt.ErrMalformed, ""},
		{"removed middle line", join(lines[0], lines[2], lines[3]), "", 2, receipt.ErrChain, "receipt 3 follows receipt 1"},
		{"removed first line", join(lines[1], lines[2], lines[3]), "", 1, receipt.ErrChain, "starts at receipt 2"},
		{"reordered", join(lines[0], lines[2], lines[1], lines[3]), "", 2, receipt.ErrChain, ""},
		{"duplicated", join(lines[0], lines[1], lines[1], lines[2], lines[3]), "", 3, receipt.ErrChain, ""},
		{"cut last line", join(lines[0], lines[1], lines[2], lines[3][:40]), "", 4, receipt.ErrTruncated, "cut short"},
		{"missing newline", strings.TrimSuffix(string(orig), "\n"), "", 4, receipt.ErrTruncated, ""},
		{"removed last line, head known", join(lines[0], lines[1], lines[2]), recs[3].Digest, 4, receipt.ErrTruncated, "missing from its end"},
		{"empty", "", "", 1, receipt.ErrTruncated, "no receipt"},
		{"blank line", join(lines[0], "\n", lines[1]), "", 2, receipt.ErrMalformed, ""},
		{"foreign key", join(lines[0], string(foreign[0].Line)+"\n"), "", 2, receipt.ErrUnknownKey, other.KeyID()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := receipt.Verify(strings.NewReader(c.data), s.Keys(), receipt.VerifyOptions{Head: c.head})
			var le *receipt.LineError
			if !errors.As(err, &le) || le.Line != c.line || !errors.Is(err, receipt.ErrInvalid) {
				t.Fatalf("got %v, want a LineError at line %d", err, c.line)
			}
			if c.kind != nil && !errors.Is(err, c.kind) {
				t.Errorf("got %v, want %v", err, c.kind)
			}
			if !strings.Contains(err.Error(), c.inMsg) || !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d: ", c.line)) {
				t.Errorf("message %q, want it to name line %d and say %q", err, c.line, c.inMsg)
			}
		})
	}
	// The untouched log verifies, against its head too.
	if _, err := receipt.Verify(bytes.NewReader(orig), s.Keys(), receipt.VerifyOptions{Head: recs[3].Digest}); err != nil {
		t.Fatal(err)
	}
}

// Appends from many goroutines form one chain.
func TestConcurrentAppends(t *testing.T) {
	s := signer(t, 1)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(context.Background(), s, sink)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := log.Append(context.Background(), fields(i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	log.Close()
	rep, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{Head: log.Head().Digest})
	if err != nil || rep.Receipts != 40 {
		t.Fatalf("%+v %v", rep, err)
	}
}

// memSink is a Sink in memory that two Logs share, like two instances on
// one Redis.
type memSink struct {
	mu    sync.Mutex
	lines [][]byte
	head  receipt.Head
}

func (m *memSink) Head(context.Context) (receipt.Head, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.head, nil
}

func (m *memSink) Append(_ context.Context, prev receipt.Head, r *receipt.Receipt) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if prev != m.head {
		return receipt.ErrConflict
	}
	m.lines = append(m.lines, append(r.Line, '\n'))
	m.head = r.Head()
	return nil
}

// Two logs on one shared sink never fork the chain: the one that finds
// another's receipt at the head re-signs after it.
func TestSharedSinkNoFork(t *testing.T) {
	ctx := context.Background()
	sink := &memSink{}
	a, _ := receipt.NewLog(ctx, signer(t, 1), sink)
	b, _ := receipt.NewLog(ctx, signer(t, 1), sink)
	for i := range 6 {
		l := a
		if i%2 == 1 {
			l = b
		}
		r, err := l.Append(ctx, fields(i))
		if err != nil {
			t.Fatal(err)
		}
		if r.Payload.Seq != uint64(i+1) {
			t.Fatalf("append %d got seq %d", i, r.Payload.Seq)
		}
	}
	if _, err := receipt.Verify(bytes.NewReader(bytes.Join(sink.lines, nil)), signer(t, 1).Keys(), receipt.VerifyOptions{}); err != nil {
		t.Fatal(err)
	}
}

// A second writer of one file is refused while the first holds it.
func TestFileSingleWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	first, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := receipt.OpenFile(path); !errors.Is(err, receipt.ErrSink) || !strings.Contains(err.Error(), "another process") {
		t.Fatalf("second open: %v, want ErrSink naming another writer", err)
	}
	first.Close()
	second, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	second.Close()
}

// A full disk fails the append, and every later one: nothing is read as
// recorded.
func TestSinkFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	sink, err := receipt.OpenFile("/dev/full")
	if err != nil {
		t.Fatal(err)
	}
	log, err := receipt.NewLog(context.Background(), signer(t, 1), sink)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for range 2 {
		r, err := log.Append(context.Background(), fields(0))
		if !errors.Is(err, receipt.ErrSink) || r != nil {
			t.Fatalf("append to a full device: %v %v, want ErrSink", r, err)
		}
	}
	if log.Head() != (receipt.Head{}) {
		t.Errorf("the head moved to %+v after a failed write", log.Head())
	}
}

// syncFails writes to the real file but fails fsync.
type syncFails struct{ f *os.File }

func (s syncFails) Write(b []byte) (int, error) { return s.f.Write(b) }
func (s syncFails) Sync() error                 { return errors.New("EIO") }
func (s syncFails) Truncate(n int64) error      { return s.f.Truncate(n) }

// A failed fsync fails the append, takes the line back, and refuses
// later appends.
func TestSyncFails(t *testing.T) {
	s := signer(t, 1)
	path, _ := writeLog(t, s, 1)
	sink, err := receipt.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	defer f.Close()
	receipt.SetFile(sink, syncFails{f})
	log, _ := receipt.NewLog(context.Background(), s, sink)
	if _, err := log.Append(context.Background(), fields(1)); !errors.Is(err, receipt.ErrSink) || !strings.Contains(err.Error(), "EIO") {
		t.Fatalf("append with fsync failing: %v", err)
	}
	if _, err := log.Append(context.Background(), fields(1)); !errors.Is(err, receipt.ErrSink) || !strings.Contains(err.Error(), "earlier write failed") {
		t.Fatalf("append after a failed fsync: %v", err)
	}
	log.Close()
	rep, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{})
	if err != nil || rep.Receipts != 1 {
		t.Fatalf("the file after a failed append: %+v %v, want the one earlier receipt", rep, err)
	}
}

func TestOpenFileRefuses(t *testing.T) {
	dir := t.TempDir()
	s := signer(t, 1)
	path, _ := writeLog(t, s, 2)
	data, _ := os.ReadFile(path)
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, data[:len(data)-5], 0o600)
	junk := filepath.Join(dir, "junk.jsonl")
	os.WriteFile(junk, []byte("{}\nnot json\n"), 0o600)
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o600)
	for _, p := range []string{cut, junk, filepath.Join(notDir, "r.jsonl"), dir} {
		if s, err := receipt.OpenFile(p); !errors.Is(err, receipt.ErrSink) {
			t.Errorf("OpenFile(%s) = %v, %v; want ErrSink", p, s, err)
		}
	}
}

func TestFieldsRefused(t *testing.T) {
	sink := &memSink{}
	log, _ := receipt.NewLog(context.Background(), signer(t, 1), sink)
	for name, edit := range map[string]func(*receipt.Fields){
		"no server":          func(f *receipt.Fields) { f.Server = "" },
		"no tool":            func(f *receipt.Fields) { f.Tool = "" },
		"unknown action":     func(f *receipt.Fields) { f.Action = "approve" },
		"no action":          func(f *receipt.Fields) { f.Action = "" },
		"no decision time":   func(f *receipt.Fields) { f.DecidedAt = time.Time{} },
		"unticked accept":    func(f *receipt.Fields) { f.Confirm = receipt.ConfirmUnticked },
		"bad confirm":        func(f *receipt.Fields) { f.Confirm = "yes" },
		"anonymous approver": func(f *receipt.Fields) { f.Approvers = []receipt.Approver{{Verified: "passkey"}} },
		// A refused receipt never carries what would read as an approval.
		"refused with an answer": func(f *receipt.Fields) { f.Action, f.Confirm = receipt.ActionRefused, receipt.ConfirmNone },
		"refused, box ticked":    func(f *receipt.Fields) { f.Action, f.AnswerDigest = receipt.ActionRefused, "" },
		"refused, approver accepts": func(f *receipt.Fields) {
			f.Action, f.AnswerDigest, f.Confirm = receipt.ActionRefused, "", receipt.ConfirmNone
			f.Approvers = []receipt.Approver{{Principal: "bob", Verified: "passkey", Action: receipt.ActionAccept}}
		},
	} {
		f := fields(0)
		edit(&f)
		if _, err := log.Append(context.Background(), f); !errors.Is(err, receipt.ErrFields) {
			t.Errorf("%s: %v, want ErrFields", name, err)
		}
	}
	if len(sink.lines) != 0 {
		t.Errorf("%d receipts written for refused fields", len(sink.lines))
	}
}

func TestKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.pem", pkcs8PEM(t, seedKey(3)))
	s, err := receipt.LoadPrivateKey(good)
	if err != nil {
		t.Fatal(err)
	}
	if s.KeyID() != signer(t, 3).KeyID() || len(s.KeyID()) != 43 {
		t.Fatalf("key id %q", s.KeyID())
	}
	pubPEM, err := s.PublicKeyPEM()
	if err != nil {
		t.Fatal(err)
	}
	pub := write("pub.pem", pubPEM)
	keys, err := receipt.LoadPublicKeys(pub)
	if err != nil || keys.IDs()[0] != s.KeyID() {
		t.Fatalf("public key: %v %v", keys, err)
	}

	rsaKey, _ := rsa.GenerateKey(rand.Reader, 1024)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalECPrivateKey(ecKey)
	for name, c := range map[string]struct {
		path, msg string
	}{
		"missing":   {filepath.Join(dir, "nope.pem"), "no such file"},
		"directory": {dir, "is a directory"},
		"empty":     {write("empty.pem", nil), "no PEM block"},
		"rsa":       {write("rsa.pem", pkcs8PEM(t, rsaKey)), "RSA private key, not Ed25519"},
		"ecdsa":     {write("ec.pem", pkcs8PEM(t, ecKey)), "ECDSA private key, not Ed25519"},
		"sec1":      {write("sec1.pem", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: ecDER})), `"EC PRIVATE KEY" block`},
		"public":    {pub, `"PUBLIC KEY" block`},
		"garbage":   {write("junk.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("junk")})), "asn1"},
	} {
		if s, err := receipt.LoadPrivateKey(c.path); !errors.Is(err, receipt.ErrKey) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: LoadPrivateKey = %v, %v; want ErrKey saying %q", name, s, err, c.msg)
		}
	}
	for name, c := range map[string]struct {
		path, msg string
	}{
		"private":   {good, "openssl pkey -in KEY.pem -pubout"},
		"missing":   {filepath.Join(dir, "nope.pem"), "no such file"},
		"empty":     {filepath.Join(dir, "empty.pem"), "no PEM block"},
		"rsa":       {write("rsapub.pem", pkixPEM(t, &rsaKey.PublicKey)), "RSA public key"},
		"mixed bad": {write("mixed.pem", append(pubPEM, pkixPEM(t, &ecKey.PublicKey)...)), "PEM block 2"},
	} {
		if k, err := receipt.LoadPublicKeys(c.path); !errors.Is(err, receipt.ErrKey) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: LoadPublicKeys = %v, %v; want ErrKey saying %q", name, k, err, c.msg)
		}
	}
	if _, err := receipt.LoadPublicKeys(); !errors.Is(err, receipt.ErrKey) {
		t.Errorf("no key files: %v", err)
	}
	if _, err := receipt.Verify(strings.NewReader(""), &receipt.Keys{}, receipt.VerifyOptions{}); !errors.Is(err, receipt.ErrKey) {
		t.Errorf("verify without keys: %v", err)
	}
}

func pkixPEM(t *testing.T, k any) []byte {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

func TestDigestJSON(t *testing.T) {
	a, err := receipt.DigestJSON(map[string]any{"env": "prod", "replicas": 3})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := receipt.DigestJSON(map[string]any{"replicas": 3, "env": "prod"})
	c, _ := receipt.DigestJSON(map[string]any{"replicas": 4, "env": "prod"})
	if a != b || a == c || !strings.HasPrefix(a, "sha256:") || len(a) != 7+64 {
		t.Fatalf("digests %s %s %s", a, b, c)
	}
	if _, err := receipt.DigestJSON(func() {}); err == nil {
		t.Error("a function has a digest")
	}
}

// The JWS a Signer assembles is byte for byte the one go-jose signs with
// the same key, key id and type, and a line is the flattened JWS as
// encoding/json writes it.
func TestJWSAsGoJose(t *testing.T) {
	s := signer(t, 4)
	log, _ := receipt.NewLog(context.Background(), s, &memSink{})
	r, err := log.Append(context.Background(), fields(7))
	if err != nil {
		t.Fatal(err)
	}
	js, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.EdDSA, Key: jose.JSONWebKey{Key: seedKey(4), KeyID: s.KeyID()}},
		(&jose.SignerOptions{}).WithType(receipt.Type))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := js.Sign(decodePayload(t, r.Line))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := obj.CompactSerialize()
	if r.JWS != want {
		t.Fatalf("JWS\n%s\ngo-jose\n%s", r.JWS, want)
	}
	parts := strings.Split(want, ".")
	ln, _ := json.Marshal(map[string]string{"protected": parts[0], "payload": parts[1], "signature": parts[2]})
	var a, b map[string]string
	json.Unmarshal(ln, &a)
	json.Unmarshal(r.Line, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) || !bytes.HasPrefix(r.Line, []byte(`{"protected":"`)) {
		t.Fatalf("line %s", r.Line)
	}
}

// slowSync writes to the real file and counts its fsyncs, each taking a
// while, as on a disk; fail makes them fail.
type slowSync struct {
	f     *os.File
	mu    sync.Mutex
	syncs int
	fail  bool
}

func (s *slowSync) Write(b []byte) (int, error) { return s.f.Write(b) }
func (s *slowSync) Truncate(n int64) error      { return s.f.Truncate(n) }
func (s *slowSync) Sync() error {
	time.Sleep(20 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.syncs++
	if s.fail {
		return errors.New("EIO")
	}
	return s.f.Sync()
}

// Receipts appended at the same time share fsyncs (group commit), and a
// failed fsync fails every receipt it covered and takes their lines back.
func TestGroupCommit(t *testing.T) {
	for _, fail := range []bool{false, true} {
		s := signer(t, 1)
		path, _ := writeLog(t, s, 1)
		sink, err := receipt.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		w := &slowSync{f: f, fail: fail}
		receipt.SetFile(sink, w)
		log, _ := receipt.NewLog(context.Background(), s, sink)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ok, failed int
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := log.Append(context.Background(), fields(i))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && r != nil:
					ok++
				case errors.Is(err, receipt.ErrSink) && r == nil:
					failed++
				default:
					t.Errorf("append: %v %v", r, err)
				}
			}()
		}
		wg.Wait()
		log.Close()
		f.Close()
		rep, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !fail && (ok != 40 || rep.Receipts != 41 || w.syncs > 20) {
			t.Errorf("%d appended, %d in the file, %d fsyncs for 40 concurrent receipts: want 40, 41, and fsyncs shared", ok, rep.Receipts, w.syncs)
		}
		if fail && (ok != 0 || failed != 40 || rep.Receipts != 1) {
			t.Errorf("fsync failing: %d appended, %d failed, %d in the file; want 0, 40, the 1 earlier", ok, failed, rep.Receipts)
		}
	}
}
