package seal_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

func stateKey(id string, b byte) seal.Key {
	return seal.Key{ID: id, Secret: bytes.Repeat([]byte{b}, seal.MinKeySize)}
}

func stateRing(t testing.TB, keys ...seal.Key) *seal.KeyRing {
	t.Helper()
	r, err := seal.NewKeyRing(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func stateAnswers() *seal.State {
	return &seal.State{
		Answers: map[string]*runtime.Response{
			"Deploy":  {Action: runtime.ActionAccept, Content: map[string]any{"branch": "main", "replicas": 3.0, "tags": []any{"a", "b"}}},
			"Approve": {Action: runtime.ActionDecline},
		},
		Flows: map[string]string{"url": "f00d"},
	}
}

func TestSealOpenRoundTrip(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	s := &seal.Sealer{Keys: stateRing(t, stateKey("k1", 1)), TTL: time.Minute, Now: clk.Now}
	b := seal.BindCall("deploy", []byte(`{"project":"alpha","n":1}`), "alice")
	st, err := s.Seal(b, stateAnswers())
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(st, "."); len(parts) != 3 || parts[0] != "v3" || parts[1] != "k1" {
		t.Fatalf("state %q is not v3.kid.sealed", st)
	}
	// Same call, arguments re-encoded in another key order and spacing.
	b2 := seal.BindCall("deploy", []byte(` { "n": 1, "project": "alpha" } `), "alice")
	got, err := s.Open(b2, st)
	if err != nil {
		t.Fatal(err)
	}
	want := stateAnswers()
	gj, _ := json.Marshal([]any{got.AllAnswers(), got.Flows})
	wj, _ := json.Marshal([]any{want.Answers, want.Flows})
	if !bytes.Equal(gj, wj) {
		t.Errorf("opened %s, want %s", gj, wj)
	}
	clk.now = clk.now.Add(time.Minute) // still valid at the expiry second
	if _, err := s.Open(b, st); err != nil {
		t.Errorf("at expiry: %v", err)
	}
}

func TestOpenRejects(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	ring := stateRing(t, stateKey("k1", 1))
	s := &seal.Sealer{Keys: ring, TTL: time.Minute, Now: clk.Now}
	b := seal.BindCall("deploy", []byte(`{"project":"alpha"}`), "alice")
	st, err := s.Seal(b, stateAnswers())
	if err != nil {
		t.Fatal(err)
	}
	// A state in the signed, unencrypted format of earlier releases:
	// base64url(JSON) "." key id "." base64url(HMAC).
	legacy := base64.RawURLEncoding.EncodeToString([]byte(`{"v":1,"iat":1800000000,"exp":1800000060,"tool":"deploy","a":{"Approve":{"action":"accept"}}}`)) +
		".k1." + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	prefix, rest, _ := strings.Cut(st, ".")
	kid, body, _ := strings.Cut(rest, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(body)
	flipAt := func(i int) string {
		r := bytes.Clone(raw)
		r[i] ^= 1
		return prefix + "." + kid + "." + base64.RawURLEncoding.EncodeToString(r)
	}
	other := &seal.Sealer{Keys: stateRing(t, stateKey("k1", 2)), TTL: time.Minute, Now: clk.Now}
	otherState, _ := other.Seal(b, stateAnswers())

	cases := []struct {
		name    string
		sealer  *seal.Sealer
		binding seal.Binding
		state   string
		want    error
	}{
		{"empty", s, b, "", seal.ErrStateTampered},
		{"garbage", s, b, "not-a-state", seal.ErrStateTampered},
		{"legacy signed format", s, b, legacy, seal.ErrStateOutdated},
		{"flipped ciphertext byte", s, b, flipAt(len(raw) / 2), seal.ErrStateTampered},
		{"flipped GCM tag", s, b, flipAt(len(raw) - 1), seal.ErrStateTampered},
		{"flipped nonce", s, b, flipAt(17), seal.ErrStateTampered},
		{"flipped binding tag", s, b, flipAt(9), seal.ErrStateForeign},
		{"flipped fingerprint", s, b, flipAt(0), seal.ErrStateTampered},
		{"truncated", s, b, st[:len(st)-10], seal.ErrStateTampered},
		{"no version prefix", s, b, rest, seal.ErrStateTampered},
		{"flipped base64", s, b, st[:len(st)-2] + flip(st[len(st)-2]) + st[len(st)-1:], seal.ErrStateTampered},
		{"extra part", s, b, st + ".x", seal.ErrStateTampered},
		{"unknown key id", s, b, strings.Replace(st, ".k1.", ".k9.", 1), seal.ErrStateTampered},
		{"other server's key", s, b, otherState, seal.ErrStateTampered},
		{"too long", s, b, strings.Repeat("a", seal.MaxStateSize+1), seal.ErrStateTampered},
		{"other tool", s, seal.BindCall("delete", []byte(`{"project":"alpha"}`), "alice"), st, seal.ErrStateForeign},
		{"other args", s, seal.BindCall("deploy", []byte(`{"project":"prod"}`), "alice"), st, seal.ErrStateForeign},
		{"other principal", s, seal.BindCall("deploy", []byte(`{"project":"alpha"}`), "mallory"), st, seal.ErrStateForeign},
		{"no principal", s, seal.BindCall("deploy", []byte(`{"project":"alpha"}`), ""), st, seal.ErrStateForeign},
		{"expired", &seal.Sealer{Keys: ring, TTL: time.Minute, Now: func() time.Time { return clk.now.Add(61 * time.Second) }}, b, st, seal.ErrStateExpired},
		{"issued beyond the clock skew", &seal.Sealer{Keys: ring, TTL: time.Minute, Now: func() time.Time { return clk.now.Add(-seal.MaxClockSkew - time.Second) }}, b, st, seal.ErrStateNotYetValid},
		{"no key ring", &seal.Sealer{}, b, st, seal.ErrStateTampered},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.sealer.Open(tc.binding, tc.state)
			if got != nil || !errors.Is(err, tc.want) || !errors.Is(err, runtime.ErrInvalidState) {
				t.Fatalf("Open = %v, %v; want %v (and ErrInvalidState)", got, err, tc.want)
			}
		})
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestKeyRotation(t *testing.T) {
	oldRing := stateRing(t, stateKey("old", 1))
	newRing := stateRing(t, stateKey("new", 2), stateKey("old", 1))
	b := seal.BindCall("t", nil, "")
	st, err := (&seal.Sealer{Keys: oldRing}).Seal(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	rotated := &seal.Sealer{Keys: newRing}
	if _, err := rotated.Open(b, st); err != nil {
		t.Fatalf("old state after rotation: %v", err)
	}
	st2, _ := rotated.Seal(b, nil)
	if !strings.Contains(st2, ".new.") {
		t.Errorf("rotated ring seals with %q, want the new key", st2)
	}
	if _, err := (&seal.Sealer{Keys: oldRing}).Open(b, st2); !errors.Is(err, seal.ErrStateTampered) {
		t.Errorf("old ring opened a new-key state: %v", err)
	}
}

func TestNewKeyRingRejects(t *testing.T) {
	for name, keys := range map[string][]seal.Key{
		"none":      nil,
		"short":     {{ID: "k", Secret: make([]byte, seal.MinKeySize-1)}},
		"empty id":  {{ID: "", Secret: make([]byte, 32)}},
		"bad id":    {{ID: "k.1", Secret: make([]byte, 32)}},
		"long id":   {{ID: strings.Repeat("k", 33), Secret: make([]byte, 32)}},
		"duplicate": {stateKey("k", 1), stateKey("k", 2)},
	} {
		if _, err := seal.NewKeyRing(keys...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseKeyRing(t *testing.T) {
	secret := bytes.Repeat([]byte{0xfb}, 32)
	spec := fmt.Sprintf(" k2:%s , k1:%s ", base64.URLEncoding.EncodeToString(secret), base64.StdEncoding.EncodeToString(secret))
	r, err := seal.ParseKeyRing(spec)
	if err != nil {
		t.Fatal(err)
	}
	if r.CurrentID() != "k2" {
		t.Errorf("current = %q, want k2", r.CurrentID())
	}
	for _, bad := range []string{"", "k1", "k1:!!!", "k1:" + base64.StdEncoding.EncodeToString([]byte("short"))} {
		if _, err := seal.ParseKeyRing(bad); err == nil {
			t.Errorf("ParseKeyRing(%q) accepted", bad)
		} else if strings.Contains(err.Error(), "c2hvcnQ") {
			t.Errorf("error leaks the secret: %v", err)
		}
	}
	if r := seal.NewRandomKeyRing(); r.CurrentID() == "" {
		t.Error("random ring has no key")
	}
}

func TestDigestArgs(t *testing.T) {
	same := [][]byte{nil, []byte("null"), []byte("{}"), []byte(" { } ")}
	for _, a := range same[1:] {
		if seal.DigestArgs(a) != seal.DigestArgs(same[0]) {
			t.Errorf("DigestArgs(%q) differs from absent arguments", a)
		}
	}
	if seal.DigestArgs([]byte(`{"a":1,"b":[1,2]}`)) != seal.DigestArgs([]byte(`{"b":[1,2],"a":1}`)) {
		t.Error("key order changes the digest")
	}
	for _, pair := range [][2]string{{`{"a":1}`, `{"a":2}`}, {`{"a":1}`, `{"a":1.0}`}, {`{"a":[1,2]}`, `{"a":[2,1]}`}, {`{"n":12345678901234567890}`, `{"n":12345678901234567891}`}} {
		if seal.DigestArgs([]byte(pair[0])) == seal.DigestArgs([]byte(pair[1])) {
			t.Errorf("%s and %s share a digest", pair[0], pair[1])
		}
	}
}

// FuzzOpenState checks that Open never panics on arbitrary strings, never
// accepts input that was not sealed for the binding, and that no
// single-byte change to a valid state opens.
func FuzzOpenState(f *testing.F) {
	s := &seal.Sealer{Keys: stateRing(f, stateKey("k1", 1), stateKey("k0", 3)), TTL: time.Hour}
	b := seal.BindCall("deploy", []byte(`{"p":1}`), "alice")
	valid, err := s.Seal(b, stateAnswers())
	if err != nil {
		f.Fatal(err)
	}
	empty, _ := s.Seal(b, nil)
	full := stateAnswers()
	wf, _ := json.Marshal([]any{full.Answers, full.Flows})
	we, _ := json.Marshal([]any{map[string]*runtime.Response{}, map[string]string{}})
	wantFull, wantEmpty := string(wf), string(we)
	for _, seed := range []string{valid, empty, "", ".", "..", "a.k1.b", valid + "=", strings.ToUpper(valid), "v2.k1.", "v2.k1." + strings.Repeat("A", 60), "v2.k9.AAAA", "eyJ2IjoxfQ.k1.AAAA"} {
		f.Add(seed, 0, byte(0))
	}
	f.Add(valid, 3, byte(1))
	f.Add(valid, len(valid)-1, byte(0x20))
	f.Fuzz(func(t *testing.T, state string, pos int, xor byte) {
		if pos < 0 {
			pos = -pos
		}
		// No single-byte change to this process's valid seal opens.
		if xor != 0 {
			bs := []byte(valid)
			bs[pos%len(bs)] ^= xor
			if st, err := s.Open(b, string(bs)); err == nil || !errors.Is(err, runtime.ErrInvalidState) || st != nil {
				t.Fatalf("Open accepted a modified state %q: %v, %v", bs, st, err)
			}
		}
		// An arbitrary string opens only if it is a seal of this binding.
		st, err := s.Open(b, state)
		if err != nil {
			if !errors.Is(err, runtime.ErrInvalidState) || st != nil {
				t.Fatalf("Open(%q) = %v, %v", state, st, err)
			}
			return
		}
		// Seals are randomised (fresh nonce), so a fuzz worker's inputs
		// may be other seals of the same two states, or mutations of one
		// that happen to restore it: whatever opens must be one of them,
		// unmodified.
		got, _ := json.Marshal([]any{st.AllAnswers(), st.Flows})
		if string(got) != wantFull && string(got) != wantEmpty {
			t.Fatalf("Open(%q) = %s, which was never sealed", state, got)
		}
	})
}

func TestSealStateIDAndExpiry(t *testing.T) {
	clk := &fakeClock{time.Unix(1_800_000_000, 0)}
	s := &seal.Sealer{Keys: stateRing(t, stateKey("k1", 1)), TTL: time.Minute, Now: clk.Now}
	b := seal.BindCall("deploy", []byte(`{"project":"alpha"}`), "alice")
	in := stateAnswers()
	in.Asked = []string{"Approve", "Notify#2"}
	seen := map[string]bool{}
	for range 3 {
		st, err := s.Seal(b, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Open(b, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.ID) != 32 || seen[got.ID] {
			t.Fatalf("state id %q: want 32 hex digits, fresh for every Seal (seen %v)", got.ID, seen)
		}
		seen[got.ID] = true
		if want := clk.Now().Add(time.Minute + time.Second - time.Nanosecond); !got.Expires.Equal(want) {
			t.Errorf("Expires = %v, want %v", got.Expires, want)
		}
		if strings.Join(got.Asked, ",") != "Approve,Notify#2" {
			t.Errorf("Asked = %q", got.Asked)
		}
	}
}

func TestOpenOutdatedV2State(t *testing.T) {
	s := &seal.Sealer{Keys: stateRing(t, stateKey("k1", 1))}
	// A state of the previous payload format (no id, no asked keys).
	_, err := s.Open(seal.BindCall("deploy", nil, ""), "v2.k1.AQxl7-HRjspdh1cIBNyPwUz8qegKJ56JUsAFfGp-u-ntIkU_DD40FbfgD_xpP6JATFVggfyo4dh1x8yKd0oZSM9Iychwt9K1QR8")
	if !errors.Is(err, seal.ErrStateOutdated) || !errors.Is(err, runtime.ErrInvalidState) {
		t.Fatalf("err = %v, want ErrStateOutdated", err)
	}
}
