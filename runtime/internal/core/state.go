package core

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sealed request state.
//
// On a 2026-07-28 request a tool that asks two or more forms in sequence
// returns input_required once per form; the answers of earlier rounds ride
// back and forth in the result's requestState. The client controls that
// string, so the runtime seals it: HMAC-SHA256 under a server key, an
// expiry, and a binding to the tool name, a digest of its arguments and
// (when known) the principal. A state that fails any check is rejected;
// adapters answer it with JSON-RPC -32602.
//
// The state is signed, not encrypted: the client can read the answers it
// gave, which form mode never allows to be secret anyway.
//
// A stateless deployment (several instances behind a load balancer, any
// of which may receive the retry) must give every instance the same
// KeyRing, for example from one secret: ParseKeyRing(os.Getenv(...)).

// MinKeySize is the minimum length, in bytes, of a state key.
const MinKeySize = 32

// DefaultStateTTL is how long a sealed state stays valid when
// Sealer.TTL is zero: long enough for a person to read and fill a form.
const DefaultStateTTL = 15 * time.Minute

// MaxStateSize bounds the length of a requestState the runtime will try
// to open.
const MaxStateSize = 64 << 10

const (
	stateVersion = 1
	stateDomain  = "elicitgen/request-state/v1"
	maxKeyID     = 32
)

// b64 is unpadded base64url with strict decoding, so that no two strings
// decode to the same bytes.
var b64 = base64.RawURLEncoding.Strict()

// ErrInvalidState is matched (errors.Is) by every error of Sealer.Open:
// the requestState is tampered, expired or foreign and must not be
// trusted.
var ErrInvalidState = errors.New("elicit: invalid request state")

// The ways a requestState can fail. Each matches ErrInvalidState.
var (
	// ErrStateTampered: the state is malformed, its MAC does not verify,
	// or it names a key the ring does not hold.
	ErrStateTampered error = &stateError{"tampered or malformed"}
	// ErrStateExpired: the state is older than its TTL.
	ErrStateExpired error = &stateError{"expired"}
	// ErrStateForeign: the state is authentic but was issued for another
	// tool, other arguments or another principal.
	ErrStateForeign error = &stateError{"issued for another call"}
)

type stateError struct{ msg string }

// Error implements error.
func (e *stateError) Error() string { return "elicit: request state " + e.msg }

// Is reports whether target is ErrInvalidState.
func (e *stateError) Is(target error) bool { return target == ErrInvalidState }

// Key is one secret of a KeyRing.
type Key struct {
	// ID names the key inside sealed states: 1 to 32 characters from
	// [A-Za-z0-9_-].
	ID string
	// Secret is at least MinKeySize random bytes.
	Secret []byte
}

// KeyRing holds the keys that seal and open request state. The first key
// seals; every key opens, so keys can rotate: put the new key first and
// keep the old one until states sealed with it have expired. A KeyRing is
// immutable and safe for concurrent use.
type KeyRing struct {
	current string
	keys    map[string][]byte
}

// NewKeyRing returns a ring whose first key seals. It rejects an empty
// ring, short secrets, bad or duplicate ids.
func NewKeyRing(keys ...Key) (*KeyRing, error) {
	if len(keys) == 0 {
		return nil, errors.New("elicit: key ring: no keys")
	}
	r := &KeyRing{current: keys[0].ID, keys: make(map[string][]byte, len(keys))}
	for _, k := range keys {
		if !validKeyID(k.ID) {
			return nil, fmt.Errorf("elicit: key ring: bad key id %q: want 1-%d characters of [A-Za-z0-9_-]", k.ID, maxKeyID)
		}
		if len(k.Secret) < MinKeySize {
			return nil, fmt.Errorf("elicit: key ring: key %q is %d bytes, want at least %d", k.ID, len(k.Secret), MinKeySize)
		}
		if _, dup := r.keys[k.ID]; dup {
			return nil, fmt.Errorf("elicit: key ring: duplicate key id %q", k.ID)
		}
		r.keys[k.ID] = bytes.Clone(k.Secret)
	}
	return r, nil
}

// ParseKeyRing parses a ring from text such as an environment variable:
// comma-separated "id:secret" pairs, the secret in base64 (standard or
// URL alphabet, padded or not). The first pair seals.
//
//	ELICIT_STATE_KEYS="k2:6Jq...,k1:Zm9v..."
func ParseKeyRing(spec string) (*KeyRing, error) {
	var keys []Key
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, secret, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("elicit: key ring: %q is not id:base64-secret", redactKey(part))
		}
		b, err := decodeAnyBase64(strings.TrimSpace(secret))
		if err != nil {
			return nil, fmt.Errorf("elicit: key ring: key %q: secret is not base64", id)
		}
		keys = append(keys, Key{ID: strings.TrimSpace(id), Secret: b})
	}
	return NewKeyRing(keys...)
}

// NewRandomKeyRing returns a ring with one fresh random key. It suits a
// single long-lived server process; states it sealed cannot be opened by
// another process or after a restart.
func NewRandomKeyRing() *KeyRing {
	secret := make([]byte, MinKeySize)
	_, _ = rand.Read(secret) // crypto/rand.Read never fails
	r, _ := NewKeyRing(Key{ID: "r" + NewElicitationID()[:8], Secret: secret})
	return r
}

// CurrentID returns the id of the key that seals.
func (r *KeyRing) CurrentID() string { return r.current }

func redactKey(s string) string {
	if id, _, ok := strings.Cut(s, ":"); ok {
		return id + ":…"
	}
	if len(s) > 4 {
		return s[:4] + "…"
	}
	return s
}

func decodeAnyBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(s)
}

func validKeyID(id string) bool {
	if id == "" || len(id) > maxKeyID {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Binding ties a sealed state to the call that produced it.
type Binding struct {
	// Tool is the tool name (or prompt name, resource URI).
	Tool string
	// ArgsDigest is DigestArgs of the call's arguments.
	ArgsDigest [32]byte
	// Principal identifies the authenticated user, when the transport
	// knows one ("" otherwise).
	Principal string
}

// BindCall returns the binding of a call to tool with raw JSON arguments
// args, made by principal.
func BindCall(tool string, args []byte, principal string) Binding {
	return Binding{Tool: tool, ArgsDigest: DigestArgs(args), Principal: principal}
}

// DigestArgs returns the SHA-256 of the canonical form of the JSON
// arguments args: object keys sorted, insignificant space removed,
// numbers kept as written. Absent, null and {} arguments are equal.
// Arguments that are not valid JSON are digested as given.
func DigestArgs(args []byte) [32]byte {
	canon := canonicalJSON(args)
	return sha256.Sum256(canon)
}

func canonicalJSON(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return b
	}
	out, err := json.Marshal(v) // map keys sorted; json.Number kept verbatim
	if err != nil {
		return b
	}
	return out
}

// State is what rides in requestState between the rounds of one call.
type State struct {
	// Answers holds every answer given so far, by inputRequests key.
	Answers map[string]*Response
	// Flows holds the flow id of each URL-mode request, by key, so that
	// the out-of-band page can be correlated across rounds.
	Flows map[string]string
}

// Sealer seals and opens request state. The zero TTL means
// DefaultStateTTL; a nil Now means time.Now. A Sealer is safe for
// concurrent use.
type Sealer struct {
	// Keys seal (the current key) and open (every key) states.
	Keys *KeyRing
	// TTL is how long a sealed state stays valid.
	TTL time.Duration
	// Now is the clock; tests set it.
	Now func() time.Time
}

type statePayload struct {
	V         int                      `json:"v"`
	Issued    int64                    `json:"iat"`
	Expires   int64                    `json:"exp"`
	Tool      string                   `json:"tool"`
	Args      string                   `json:"args"`
	Principal string                   `json:"sub"`
	Answers   map[string]stateResponse `json:"a,omitempty"`
	Flows     map[string]string        `json:"f,omitempty"`
}

type stateResponse struct {
	Action  Action         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

func (s *Sealer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sealer) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultStateTTL
}

func principalDigest(p string) string {
	sum := sha256.Sum256([]byte("principal\x00" + p))
	return b64.EncodeToString(sum[:16])
}

func (s *Sealer) mac(key []byte, kid, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(stateDomain))
	m.Write([]byte{0})
	m.Write([]byte(kid))
	m.Write([]byte{0})
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Seal returns st as an opaque requestState bound to b, valid for the
// Sealer's TTL. The format is base64url(payload) "." key-id "."
// base64url(HMAC-SHA256).
func (s *Sealer) Seal(b Binding, st *State) (string, error) {
	if s == nil || s.Keys == nil {
		return "", errors.New("elicit: sealing request state: no key ring configured")
	}
	now := s.now()
	p := statePayload{
		V:         stateVersion,
		Issued:    now.Unix(),
		Expires:   now.Add(s.ttl()).Unix(),
		Tool:      b.Tool,
		Args:      b64.EncodeToString(b.ArgsDigest[:]),
		Principal: principalDigest(b.Principal),
	}
	if st != nil {
		if len(st.Answers) > 0 {
			p.Answers = make(map[string]stateResponse, len(st.Answers))
			for k, r := range st.Answers {
				if r != nil {
					p.Answers[k] = stateResponse{Action: r.Action, Content: r.Content}
				}
			}
		}
		if len(st.Flows) > 0 {
			p.Flows = st.Flows
		}
	}
	raw, err := json.Marshal(&p)
	if err != nil {
		return "", fmt.Errorf("elicit: sealing request state: %w", err)
	}
	payload := b64.EncodeToString(raw)
	kid := s.Keys.current
	mac := s.mac(s.Keys.keys[kid], kid, payload)
	out := payload + "." + kid + "." + b64.EncodeToString(mac)
	if len(out) > MaxStateSize {
		return "", fmt.Errorf("elicit: sealing request state: %d bytes exceeds the %d byte limit", len(out), MaxStateSize)
	}
	return out, nil
}

// Open verifies a requestState sealed by Seal and returns its contents.
// Every failure matches ErrInvalidState, and more precisely one of
// ErrStateTampered, ErrStateExpired or ErrStateForeign.
func (s *Sealer) Open(b Binding, state string) (*State, error) {
	if s == nil || s.Keys == nil {
		return nil, fmt.Errorf("%w: no key ring configured to open it", ErrStateTampered)
	}
	if len(state) > MaxStateSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrStateTampered, len(state))
	}
	payload, rest, ok1 := strings.Cut(state, ".")
	kid, macText, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || payload == "" || strings.Contains(macText, ".") {
		return nil, fmt.Errorf("%w: not a sealed state", ErrStateTampered)
	}
	key, ok := s.Keys.keys[kid]
	if !ok {
		return nil, fmt.Errorf("%w: unknown key id", ErrStateTampered)
	}
	mac, err := b64.DecodeString(macText)
	if err != nil || !hmac.Equal(mac, s.mac(key, kid, payload)) {
		return nil, fmt.Errorf("%w: MAC does not verify", ErrStateTampered)
	}
	raw, err := b64.DecodeString(payload)
	if err != nil {
		return nil, fmt.Errorf("%w: payload is not base64url", ErrStateTampered)
	}
	var p statePayload
	if err := json.Unmarshal(raw, &p); err != nil || p.V != stateVersion {
		return nil, fmt.Errorf("%w: unsupported payload", ErrStateTampered)
	}
	if now := s.now().Unix(); now > p.Expires {
		return nil, fmt.Errorf("%w: %s ago", ErrStateExpired, time.Duration(now-p.Expires)*time.Second)
	}
	if p.Tool != b.Tool || p.Args != b64.EncodeToString(b.ArgsDigest[:]) || p.Principal != principalDigest(b.Principal) {
		return nil, ErrStateForeign
	}
	st := &State{Answers: make(map[string]*Response, len(p.Answers)), Flows: p.Flows}
	for k, r := range p.Answers {
		st.Answers[k] = &Response{Action: r.Action, Content: r.Content}
	}
	if st.Flows == nil {
		st.Flows = map[string]string{}
	}
	return st, nil
}
