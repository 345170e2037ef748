package passkey_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/passkey"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

const (
	origin = "http://localhost:8080"
	rpID   = "localhost"
)

var b64 = base64.RawURLEncoding

// authenticator is a software passkey: a P-256 key that signs
// assertions as a platform authenticator would.
type authenticator struct {
	key *ecdsa.PrivateKey
	id  []byte
	uv  bool // sets the user-verified flag
}

func newAuthenticator(t *testing.T) *authenticator {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &authenticator{key: k, id: id, uv: true}
}

// credential is the authenticator's passkey as a registration records it.
func (a *authenticator) credential(t *testing.T) webauthn.Credential {
	t.Helper()
	pub, err := a.key.PublicKey.ECDH()
	if err != nil {
		t.Fatal(err)
	}
	raw := pub.Bytes() // 0x04 || X || Y
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{
		PublicKeyData: webauthncose.PublicKeyData{KeyType: int64(webauthncose.EllipticKey), Algorithm: int64(webauthncose.AlgES256)},
		Curve:         1, XCoord: raw[1:33], YCoord: raw[33:],
	})
	if err != nil {
		t.Fatal(err)
	}
	return webauthn.Credential{ID: a.id, PublicKey: cose, AttestationType: "none",
		Flags: webauthn.CredentialFlags{UserPresent: true, UserVerified: true}}
}

// assert answers the options of navigator.credentials.get as the browser
// would: the JSON of a PublicKeyCredential.
func (a *authenticator) assert(t *testing.T, options []byte) string {
	t.Helper()
	var o struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(options, &o); err != nil || o.PublicKey.Challenge == "" {
		t.Fatalf("options %s: %v", options, err)
	}
	client, _ := json.Marshal(map[string]any{"type": "webauthn.get", "challenge": o.PublicKey.Challenge, "origin": origin, "crossOrigin": false})
	rp := sha256.Sum256([]byte(rpID))
	flags := byte(0x01) // user present
	if a.uv {
		flags |= 0x04
	}
	auth := append(rp[:], flags)
	auth = binary.BigEndian.AppendUint32(auth, 1)
	ch := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, auth...), ch[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key",
		"response": map[string]any{
			"authenticatorData": b64.EncodeToString(auth), "clientDataJSON": b64.EncodeToString(client),
			"signature": b64.EncodeToString(sig),
		},
	})
	return string(out)
}

const formJSON = `{"type":"object","properties":{"service":{"type":"string","title":"Service"}},"required":["service"]}`

type fixture struct {
	p       *page.Pages
	keys    *passkey.Passkeys
	creds   *passkey.MemoryCredentials
	mu      sync.Mutex
	refused []page.Refusal
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	creds := &passkey.MemoryCredentials{}
	keys, err := passkey.New(passkey.Config{RPID: rpID, Origins: []string{origin}, Credentials: creds})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{keys: keys, creds: creds}
	f.p, err = page.New(page.Config{
		Keys: seal.NewRandomKeyRing(), BaseURL: origin + "/elicit/",
		Identity: func(r *http.Request) (string, bool) { u := r.Header.Get("X-User"); return u, u != "" },
		StepUp:   keys,
		Refused: func(_ context.Context, r page.Refusal) {
			f.mu.Lock()
			f.refused = append(f.refused, r)
			f.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// issue issues a step-up page for a deploy call with args.
func (f *fixture) issue(t *testing.T, args string) (*page.Link, seal.Binding) {
	t.Helper()
	s, err := runtime.ParseSchema("Deploy", []byte(formJSON))
	if err != nil {
		t.Fatal(err)
	}
	b := seal.BindCall("deploy", []byte(args), "alice")
	l, err := f.p.Issue(context.Background(), &page.Question{Schema: s, Message: "Deploy?", Call: b, StepUp: true})
	if err != nil {
		t.Fatal(err)
	}
	return l, b
}

// session is alice's browser on one page.
type session struct {
	f       *fixture
	link    string
	cookies []*http.Cookie
	csrf    string
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (f *fixture) do(t *testing.T, method, link string, cookies []*http.Cookie, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	req := httptest.NewRequest(method, link, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-User", "alice")
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	f.p.ServeHTTP(rec, req)
	return rec
}

func (f *fixture) open(t *testing.T, l *page.Link) *session {
	t.Helper()
	rec := f.do(t, "GET", l.URL, nil, nil)
	if rec.Code != 200 {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(rec.Body.String(), `<script src="/elicit/stepup.js" defer></script>`) {
		t.Fatalf("the page does not load its step-up script:\n%s", rec.Body)
	}
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("CSP %q", csp)
	}
	m := csrfField.FindStringSubmatch(rec.Body.String())
	if m == nil {
		t.Fatal("no csrf field")
	}
	return &session{f: f, link: l.URL, cookies: rec.Result().Cookies(), csrf: m[1]}
}

func (s *session) form(service string, extra ...string) url.Values {
	v := url.Values{"csrf": {s.csrf}, "action": {"accept"}, "service": {service}}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return v
}

// begin asks the page for the step-up of the answer service: the nonce
// and the browser's options.
func (s *session) begin(t *testing.T, service string) (string, []byte) {
	t.Helper()
	rec := s.f.do(t, "POST", s.link, s.cookies, s.form(service, "elicit_stepup", "begin"))
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("begin: %d %s", rec.Code, rec.Body)
	}
	var out struct {
		Nonce   string          `json:"nonce"`
		Options json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out.Nonce, out.Options
}

func (s *session) post(t *testing.T, service, nonce, assertion string) *httptest.ResponseRecorder {
	t.Helper()
	return s.f.do(t, "POST", s.link, s.cookies, s.form(service, "elicit_stepup", nonce, "elicit_assertion", assertion))
}

func (f *fixture) register(t *testing.T, a *authenticator) {
	t.Helper()
	if err := f.creds.Add(context.Background(), "alice", a.credential(t)); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) refusals() []page.Refusal {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]page.Refusal(nil), f.refused...)
}

func wantRefused(t *testing.T, f *fixture, rec *httptest.ResponseRecorder, n int) {
	t.Helper()
	if rec.Code != http.StatusForbidden {
		t.Fatalf("got %d, want 403: %s", rec.Code, rec.Body)
	}
	rs := f.refusals()
	if len(rs) != n || !errors.Is(rs[n-1].Err, page.ErrStepUp) || rs[n-1].Who != "alice" || !rs[n-1].Post {
		t.Fatalf("refusals %+v, want %d, the last matching ErrStepUp", rs, n)
	}
}

func TestStepUpApproves(t *testing.T) {
	f := newFixture(t)
	a := newAuthenticator(t)
	f.register(t, a)
	l, b := f.issue(t, `{"service":"api"}`)
	s := f.open(t, l)
	nonce, opts := s.begin(t, "api")
	if !strings.Contains(string(opts), `"userVerification":"required"`) || !strings.Contains(string(opts), b64.EncodeToString(a.id)) {
		t.Fatalf("options %s: want user verification and alice's passkey", opts)
	}
	assertion := a.assert(t, opts)
	if rec := s.post(t, "api", nonce, assertion); rec.Code != 200 {
		t.Fatalf("approve: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Action != runtime.ActionAccept || resp.Content["service"] != "api" || resp.Verified != page.VerifiedPasskey {
		t.Fatalf("took %+v, want an accept verified by passkey", resp)
	}
	// The captured assertion, replayed, answers nothing.
	if rec := s.post(t, "api", nonce, assertion); rec.Code == 200 {
		t.Fatalf("replay after the answer: %d %s", rec.Code, rec.Body)
	}
}

func TestStepUpSingleUse(t *testing.T) {
	f := newFixture(t)
	a := newAuthenticator(t)
	f.register(t, a)
	l, b := f.issue(t, `{"service":"api"}`)
	s := f.open(t, l)
	nonce, opts := s.begin(t, "api")
	good := a.assert(t, opts)
	// A stranger's authenticator spends the nonce...
	wantRefused(t, f, s.post(t, "api", nonce, newAuthenticator(t).assert(t, opts)), 1)
	// ...and the valid assertion for it is refused after.
	wantRefused(t, f, s.post(t, "api", nonce, good), 2)
	if _, err := f.p.Take(context.Background(), l.ID, b); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("take: %v, want ErrNotAnswered", err)
	}
	// A fresh step-up still approves.
	nonce, opts = s.begin(t, "api")
	if rec := s.post(t, "api", nonce, a.assert(t, opts)); rec.Code != 200 {
		t.Fatalf("approve: %d %s", rec.Code, rec.Body)
	}
}

func TestStepUpRefusesOtherArguments(t *testing.T) {
	f := newFixture(t)
	a := newAuthenticator(t)
	f.register(t, a)
	la, _ := f.issue(t, `{"service":"api"}`)
	lb, bb := f.issue(t, `{"service":"billing"}`)
	sa, sb := f.open(t, la), f.open(t, lb)
	nonceA, optsA := sa.begin(t, "api")
	assertionA := a.assert(t, optsA)
	// Page A's nonce and assertion, posted to the page of other arguments.
	wantRefused(t, f, sb.post(t, "api", nonceA, assertionA), 1)
	// Page A's assertion with a nonce page B issued.
	nonceB, _ := sb.begin(t, "api")
	wantRefused(t, f, sb.post(t, "api", nonceB, assertionA), 2)
	if _, err := f.p.Take(context.Background(), lb.ID, bb); !errors.Is(err, page.ErrNotAnswered) {
		t.Fatalf("take B: %v, want ErrNotAnswered", err)
	}
}

func TestStepUpRefusesOtherAnswer(t *testing.T) {
	f := newFixture(t)
	a := newAuthenticator(t)
	f.register(t, a)
	l, _ := f.issue(t, `{"service":"api"}`)
	s := f.open(t, l)
	nonce, opts := s.begin(t, "api")
	wantRefused(t, f, s.post(t, "billing", nonce, a.assert(t, opts)), 1)
}

func TestStepUpRefusesBadAssertions(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, a *authenticator, opts []byte) string
	}{
		{"none", func(*testing.T, *authenticator, []byte) string { return "" }},
		{"garbage", func(*testing.T, *authenticator, []byte) string { return `{"id":"x"}` }},
		{"unregistered", func(t *testing.T, _ *authenticator, opts []byte) string { return newAuthenticator(t).assert(t, opts) }},
		{"no user verification", func(t *testing.T, a *authenticator, opts []byte) string {
			a.uv = false
			return a.assert(t, opts)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			a := newAuthenticator(t)
			f.register(t, a)
			l, _ := f.issue(t, `{"service":"api"}`)
			s := f.open(t, l)
			nonce, opts := s.begin(t, "api")
			wantRefused(t, f, s.post(t, "api", nonce, tc.make(t, a, opts)), 1)
		})
	}
}

func TestStepUpDeclineNeedsNoPasskey(t *testing.T) {
	f := newFixture(t)
	l, b := f.issue(t, `{"service":"api"}`)
	s := f.open(t, l)
	if rec := f.do(t, "POST", s.link, s.cookies, url.Values{"csrf": {s.csrf}, "action": {"decline"}}); rec.Code != 200 {
		t.Fatalf("decline: %d %s", rec.Code, rec.Body)
	}
	resp, err := f.p.Take(context.Background(), l.ID, b)
	if err != nil || resp.Action != runtime.ActionDecline || resp.Verified != "" {
		t.Fatalf("took %+v, %v", resp, err)
	}
}

func TestStepUpWithoutPasskeyRegistered(t *testing.T) {
	f := newFixture(t)
	l, _ := f.issue(t, `{"service":"api"}`)
	s := f.open(t, l)
	rec := f.do(t, "POST", s.link, s.cookies, s.form("api", "elicit_stepup", "begin"))
	if rec.Code != http.StatusForbidden {
		t.Fatalf("begin without a passkey: %d %s", rec.Code, rec.Body)
	}
	if rs := f.refusals(); len(rs) != 1 || !errors.Is(rs[0].Err, passkey.ErrNoPasskey) {
		t.Fatalf("refusals %+v", rs)
	}
}

func TestChallengeBinds(t *testing.T) {
	b := seal.BindCall("deploy", []byte(`{"service":"api"}`), "alice")
	d := sha256.Sum256([]byte("answer"))
	n := []byte("0123456789abcdef")
	base := string(page.Challenge(b, "Deploy", d, "p1", "alice", n))
	other := seal.BindCall("deploy", []byte(`{"service":"billing"}`), "alice")
	d2 := sha256.Sum256([]byte("other answer"))
	for name, c := range map[string][]byte{
		"tool":      page.Challenge(seal.BindCall("rollback", []byte(`{"service":"api"}`), "alice"), "Deploy", d, "p1", "alice", n),
		"arguments": page.Challenge(other, "Deploy", d, "p1", "alice", n),
		"principal": page.Challenge(seal.BindCall("deploy", []byte(`{"service":"api"}`), "bob"), "Deploy", d, "p1", "alice", n),
		"form":      page.Challenge(b, "Rollback", d, "p1", "alice", n),
		"answer":    page.Challenge(b, "Deploy", d2, "p1", "alice", n),
		"page":      page.Challenge(b, "Deploy", d, "p2", "alice", n),
		"approver":  page.Challenge(b, "Deploy", d, "p1", "bob", n),
		"nonce":     page.Challenge(b, "Deploy", d, "p1", "alice", []byte("fedcba9876543210")),
	} {
		if string(c) == base {
			t.Errorf("the challenge does not depend on the %s", name)
		}
	}
	if string(page.Challenge(b, "Deploy", d, "p1", "alice", n)) != base {
		t.Error("the challenge is not deterministic")
	}
}
