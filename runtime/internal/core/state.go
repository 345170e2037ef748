package core

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Sealed request state.
//
// On a 2026-07-28 request a tool that asks two or more forms in sequence
// returns input_required once per form; the answers of earlier rounds ride
// back and forth in the result's requestState. The client controls that
// string, so the runtime seals it with AES-256-GCM (an AEAD: encrypted and
// authenticated) under a key derived from the server's KeyRing, with an
// issue time, an expiry, and a binding to the tool name, a digest of its
// arguments and (when known) the principal; the binding is the AEAD's
// additional data. A state that fails any check is rejected; adapters
// answer it with JSON-RPC -32602.
//
// The state is confidential: a client, proxy or gateway that logs it
// learns the key id, the state's length and nothing else; the answers are
// readable only by a server holding the key ring. Every state has a random
// 96-bit nonce: rotate a key long before it has sealed 2^32 states.
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

// MaxClockSkew is how far in the future a state's issue time may lie
// (by the opener's clock) before Open rejects it with ErrStateNotYetValid:
// room for instances whose clocks disagree slightly.
const MaxClockSkew = time.Minute

const (
	// statePrefix starts every sealed state: "v2." key-id "." base64url(
	// key fingerprint | binding tag | nonce | ciphertext | GCM tag).
	statePrefix = "v2."
	stateDomain = "elicitgen/request-state/v2"
	maxKeyID    = 32
	// bindTagSize is the length of the key fingerprint and of the keyed
	// binding tag, both in clear before the nonce: they let Open tell a
	// state issued for another call (ErrStateForeign) from a damaged one
	// or one sealed under another secret, and reveal nothing else.
	bindTagSize = 8
	// maxStateDepth bounds the nesting of answer values in a state.
	maxStateDepth = 32
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
	// ErrStateTampered: the state is malformed, does not authenticate,
	// or names a key the ring does not hold.
	ErrStateTampered error = &stateError{"tampered or malformed"}
	// ErrStateExpired: the state is older than its TTL.
	ErrStateExpired error = &stateError{"expired"}
	// ErrStateForeign: the state was issued for another tool, other
	// arguments or another principal.
	ErrStateForeign error = &stateError{"issued for another call"}
	// ErrStateNotYetValid: the state's issue time lies further in the
	// future than MaxClockSkew.
	ErrStateNotYetValid error = &stateError{"issued in the future"}
	// ErrStateOutdated: the state was sealed by an earlier elicitgen
	// release in the signed, unencrypted format, which is no longer
	// accepted; the client must start the call again.
	ErrStateOutdated error = &stateError{"is in the signed, unencrypted format of earlier elicitgen releases, no longer accepted: start the call again"}
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
	keys    map[string]*stateKey
}

// stateKey holds what one ring key seals and opens with: an AES-256-GCM
// AEAD (random nonces) and a binding-tag key, both derived from the
// secret with HKDF-SHA256 under distinct labels.
type stateKey struct {
	aead cipher.AEAD
	tag  []byte
	// fingerprint identifies the secret (not only its id) in every state
	// it seals, so that Open can tell a state sealed by another server's
	// key of the same id from one issued for another call.
	fingerprint [bindTagSize]byte
}

func deriveStateKey(secret []byte) (*stateKey, error) {
	encKey, err := hkdf.Key(sha256.New, secret, nil, stateDomain+" aes-256-gcm", 32)
	if err != nil {
		return nil, err
	}
	tagKey, err := hkdf.Key(sha256.New, secret, nil, stateDomain+" binding tag", 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(encKey)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, err
	}
	fp, err := hkdf.Key(sha256.New, secret, nil, stateDomain+" key fingerprint", bindTagSize)
	if err != nil {
		return nil, err
	}
	k := &stateKey{aead: aead, tag: tagKey}
	copy(k.fingerprint[:], fp)
	return k, nil
}

// NewKeyRing returns a ring whose first key seals. It rejects an empty
// ring, short secrets, bad or duplicate ids.
func NewKeyRing(keys ...Key) (*KeyRing, error) {
	if len(keys) == 0 {
		return nil, errors.New("elicit: key ring: no keys")
	}
	r := &KeyRing{current: keys[0].ID, keys: make(map[string]*stateKey, len(keys))}
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
		sk, err := deriveStateKey(k.Secret)
		if err != nil {
			return nil, fmt.Errorf("elicit: key ring: key %q: %w", k.ID, err)
		}
		r.keys[k.ID] = sk
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
	if c := (canonChecker{b: b}); c.value(0) && c.i == len(b) {
		return b // already canonical: what the SDKs' encoders send
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

// canonChecker reports whether JSON text is already in the canonical
// form canonicalJSON produces (what json.Marshal writes for it decoded
// with UseNumber): no insignificant space, object keys strictly
// ascending, strings free of escapes, HTML characters, control
// characters, U+2028, U+2029 and invalid UTF-8. It answers false for
// anything else, which then takes the slow path, so it may be strict.
type canonChecker struct {
	b []byte
	i int
}

func (c *canonChecker) value(depth int) bool {
	if c.i >= len(c.b) || depth > 64 {
		return false
	}
	switch ch := c.b[c.i]; {
	case ch == '{':
		c.i++
		if c.next('}') {
			return true
		}
		var prev []byte
		for n := 0; ; n++ {
			start := c.i
			if !c.str() {
				return false
			}
			key := c.b[start:c.i]
			if n > 0 && bytes.Compare(prev, key) >= 0 {
				return false
			}
			prev = key
			if !c.next(':') || !c.value(depth+1) {
				return false
			}
			if !c.next(',') {
				return c.next('}')
			}
		}
	case ch == '[':
		c.i++
		if c.next(']') {
			return true
		}
		for {
			if !c.value(depth + 1) {
				return false
			}
			if !c.next(',') {
				return c.next(']')
			}
		}
	case ch == '"':
		return c.str()
	case ch == 't':
		return c.lit("true")
	case ch == 'f':
		return c.lit("false")
	case ch == 'n':
		return c.lit("null")
	}
	return c.num()
}

// next consumes b if it is the next byte.
func (c *canonChecker) next(b byte) bool {
	if c.i < len(c.b) && c.b[c.i] == b {
		c.i++
		return true
	}
	return false
}

func (c *canonChecker) lit(s string) bool {
	if !bytes.HasPrefix(c.b[c.i:], []byte(s)) {
		return false
	}
	c.i += len(s)
	return true
}

// str accepts a string of printable ASCII other than `"`, `\`, `<`, `>`
// and `&`, and valid UTF-8 other than U+2028 and U+2029.
func (c *canonChecker) str() bool {
	if c.i >= len(c.b) || c.b[c.i] != '"' {
		return false
	}
	for c.i++; c.i < len(c.b); {
		ch := c.b[c.i]
		switch {
		case ch == '"':
			c.i++
			return true
		case ch < 0x20 || ch == '\\' || ch == '<' || ch == '>' || ch == '&':
			return false
		case ch < utf8.RuneSelf:
			c.i++
		default:
			r, n := utf8.DecodeRune(c.b[c.i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return false
			}
			c.i += n
		}
	}
	return false
}

// num accepts a JSON number (RFC 8259 section 6).
func (c *canonChecker) num() bool {
	b, i := c.b, c.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	c.i = i
	return true
}

// State is what rides in requestState between the rounds of one call.
//
// A State from Sealer.Open keeps the answers of earlier rounds encoded
// until they are read with Answer (and seals them again as they are), so
// that opening costs little more than decrypting: read answers through
// Answer or AllAnswers, not through the Answers field.
type State struct {
	// Answers holds answers by inputRequests key: those added since the
	// state was opened and those already read with Answer.
	Answers map[string]*Response
	// Flows holds the flow id of each URL-mode request, by key, so that
	// the out-of-band page can be correlated across rounds.
	Flows map[string]string

	// sealed are the answers of an opened state not yet decoded, in the
	// order sealed; a decoded one has its key cleared.
	sealed []sealedAnswer
}

type sealedAnswer struct {
	key  string
	body string // action and content, encoded
}

// Answer returns the answer under key, from this round or an earlier one.
func (st *State) Answer(key string) (*Response, bool) {
	if r, ok := st.Answers[key]; ok && r != nil {
		return r, true
	}
	for i := range st.sealed {
		if a := &st.sealed[i]; a.key == key {
			d := stateDecoder{s: a.body}
			r := d.answer()
			if d.err || len(d.s) != 0 { // cannot happen: the AEAD authenticated our own encoding
				return nil, false
			}
			if st.Answers == nil {
				st.Answers = map[string]*Response{}
			}
			st.Answers[key] = r
			a.key = ""
			return r, true
		}
	}
	return nil, false
}

// AllAnswers decodes and returns every answer, by key.
func (st *State) AllAnswers() map[string]*Response {
	for _, a := range st.sealed {
		if a.key != "" {
			st.Answer(a.key)
		}
	}
	st.sealed = nil
	return st.Answers
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

// appendAAD appends the AEAD's additional data: the format's domain, the
// key id and the binding (tool, argument digest, principal), each length
// prefixed so that no two bindings share an encoding.
func appendAAD(dst []byte, kid string, b *Binding) []byte {
	dst = append(dst, stateDomain...)
	dst = appendStr(dst, kid)
	dst = appendStr(dst, b.Tool)
	dst = append(dst, b.ArgsDigest[:]...)
	return appendStr(dst, b.Principal)
}

// bindTag returns the binding tag of aad: SHA-256 of the ring key's
// 32-byte tag key followed by aad, truncated. It is a diagnostic (the AEAD
// authenticates it with the binding), so a keyed hash suffices.
func (k *stateKey) bindTag(aad []byte) [bindTagSize]byte {
	h := sha256.New()
	h.Write(k.tag)
	h.Write(aad)
	var sum [sha256.Size]byte
	var t [bindTagSize]byte
	copy(t[:], h.Sum(sum[:0]))
	return t
}

// Seal returns st as an opaque requestState bound to b, valid for the
// Sealer's TTL, encrypted and authenticated with the ring's current key.
// The format is "v2." key-id "." base64url(key fingerprint | binding tag
// | nonce | AES-256-GCM ciphertext and tag), the binding being the
// additional data.
func (s *Sealer) Seal(b Binding, st *State) (string, error) {
	if s == nil || s.Keys == nil {
		return "", errors.New("elicit: sealing request state: no key ring configured")
	}
	now := s.now()
	kid := s.Keys.current
	key := s.Keys.keys[kid]

	// The plaintext is built where the ciphertext will go, after the key
	// fingerprint and binding tag, and sealed in place.
	const head = 2 * bindTagSize
	buf := make([]byte, head, head+32+sizeHint(st)+key.aead.NonceSize()+key.aead.Overhead())
	buf = binary.AppendVarint(buf, now.Unix())
	buf = binary.AppendVarint(buf, now.Add(s.ttl()).Unix())
	buf, err := appendState(buf, st)
	if err != nil {
		return "", fmt.Errorf("elicit: sealing request state: %w", err)
	}
	plain := buf[head:]
	var aadBuf [256]byte
	aad := appendAAD(aadBuf[:0], kid, &b)
	tag := key.bindTag(aad)

	sealedLen := head + key.aead.NonceSize() + len(plain) + key.aead.Overhead()
	outLen := len(statePrefix) + len(kid) + 1 + b64.EncodedLen(sealedLen)
	if outLen > MaxStateSize {
		return "", fmt.Errorf("elicit: sealing request state: %d bytes exceeds the %d byte limit", outLen, MaxStateSize)
	}
	copy(buf, key.fingerprint[:])
	copy(buf[bindTagSize:], tag[:])
	sealed := key.aead.Seal(buf[:head], nil, plain, append(aad, buf[:head]...))

	var sb strings.Builder
	sb.Grow(outLen)
	sb.WriteString(statePrefix)
	sb.WriteString(kid)
	sb.WriteByte('.')
	var chunk [1024]byte // 768 input bytes per chunk: no padding until the end
	for len(sealed) > 0 {
		n := min(len(sealed), 768)
		b64.Encode(chunk[:], sealed[:n])
		sb.Write(chunk[:b64.EncodedLen(n)])
		sealed = sealed[n:]
	}
	return sb.String(), nil
}

// sizeHint estimates the encoded size of st, to size the buffer once.
func sizeHint(st *State) int {
	if st == nil {
		return 2
	}
	// A typical answer is under 160 bytes; a larger state grows the
	// buffer once or twice, which beats walking every map to measure it.
	n := 8 + 48*len(st.Flows) + 160*len(st.Answers)
	for _, a := range st.sealed {
		n += len(a.key) + len(a.body) + 8
	}
	return n
}

// Open decrypts and verifies a requestState sealed by Seal and returns
// its contents. Every failure matches ErrInvalidState, and more precisely
// one of ErrStateTampered, ErrStateExpired, ErrStateForeign,
// ErrStateNotYetValid or ErrStateOutdated.
func (s *Sealer) Open(b Binding, state string) (*State, error) {
	if s == nil || s.Keys == nil {
		return nil, fmt.Errorf("%w: no key ring configured to open it", ErrStateTampered)
	}
	if len(state) > MaxStateSize {
		return nil, fmt.Errorf("%w: %d bytes exceeds the %d byte limit", ErrStateTampered, len(state), MaxStateSize)
	}
	rest, ok := strings.CutPrefix(state, statePrefix)
	if !ok {
		if legacyState(state) {
			return nil, ErrStateOutdated
		}
		return nil, fmt.Errorf("%w: not a sealed state", ErrStateTampered)
	}
	kid, body, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, fmt.Errorf("%w: not a sealed state", ErrStateTampered)
	}
	key, ok := s.Keys.keys[kid]
	if !ok {
		return nil, fmt.Errorf("%w: unknown key id", ErrStateTampered)
	}
	sealed, err := b64.DecodeString(body)
	if err != nil || len(sealed) < 2*bindTagSize+key.aead.NonceSize()+key.aead.Overhead() {
		return nil, fmt.Errorf("%w: not a sealed state", ErrStateTampered)
	}
	var aadBuf [256]byte
	aad := appendAAD(aadBuf[:0], kid, &b)
	ct := sealed[2*bindTagSize:]
	plain, err := key.aead.Open(ct[key.aead.NonceSize():key.aead.NonceSize()], nil, ct, append(aad, sealed[:2*bindTagSize]...))
	if err != nil {
		if !hmac.Equal(key.fingerprint[:], sealed[:bindTagSize]) {
			return nil, fmt.Errorf("%w: sealed under another secret", ErrStateTampered)
		}
		if tag := key.bindTag(aad); !hmac.Equal(tag[:], sealed[bindTagSize:2*bindTagSize]) {
			return nil, ErrStateForeign
		}
		return nil, fmt.Errorf("%w: does not authenticate", ErrStateTampered)
	}
	d := stateDecoder{s: string(plain)}
	issued, expires := d.varint(), d.varint()
	st := d.index()
	if d.err {
		return nil, fmt.Errorf("%w: unsupported payload", ErrStateTampered)
	}
	now := s.now()
	if issued > now.Add(MaxClockSkew).Unix() {
		return nil, fmt.Errorf("%w: %s ahead of this server's clock (at most %s allowed)", ErrStateNotYetValid, time.Duration(issued-now.Unix())*time.Second, MaxClockSkew)
	}
	if n := now.Unix(); n > expires {
		return nil, fmt.Errorf("%w: %s ago", ErrStateExpired, time.Duration(n-expires)*time.Second)
	}
	return st, nil
}

// legacyState reports whether state has the shape of the signed,
// unencrypted format of earlier releases: base64url of a JSON object
// ("eyJ"), a key id and a MAC, separated by dots.
func legacyState(state string) bool {
	payload, rest, ok := strings.Cut(state, ".")
	if !ok || !strings.HasPrefix(payload, "eyJ") {
		return false
	}
	_, mac, ok := strings.Cut(rest, ".")
	return ok && mac != "" && !strings.Contains(mac, ".")
}

// State payload encoding (inside the AEAD): varint issue time, varint
// expiry, then a 4-byte little-endian count and (key, body) per answer,
// then uvarint count and (key, flow id) per flow. Strings are uvarint
// length and bytes; a body is a 4-byte little-endian length, the action
// and the content: uvarint count+1 (0: nil) and (name, value) pairs. A
// value is a tag byte and its data. Values of types JSON decoding does not
// produce are stored as JSON and come back as JSON decoding gives them.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagString
	tagFloat
	tagNumber
	tagList
	tagObject
	tagJSON
	tagInt // a float64 holding an integer, as a zigzag varint
)

// Actions are one byte: 1 accept, 2 decline, 3 cancel; 0 and the string
// for anything else.
func appendAction(dst []byte, a Action) []byte {
	switch a {
	case ActionAccept:
		return append(dst, 1)
	case ActionDecline:
		return append(dst, 2)
	case ActionCancel:
		return append(dst, 3)
	}
	return appendStr(append(dst, 0), string(a))
}

func (d *stateDecoder) action() Action {
	switch d.byte() {
	case 0:
		return Action(d.str())
	case 1:
		return ActionAccept
	case 2:
		return ActionDecline
	case 3:
		return ActionCancel
	}
	d.fail()
	return ""
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendState(dst []byte, st *State) ([]byte, error) {
	if st == nil {
		return append(dst, 0, 0, 0, 0, 0), nil
	}
	countAt, n := len(dst), 0
	dst = append(dst, 0, 0, 0, 0) // answer count, set below
	var err error
	for k, r := range st.Answers {
		if r == nil {
			continue
		}
		n++
		dst = appendStr(dst, k)
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = appendAction(dst, r.Action)
		if r.Content == nil {
			dst = append(dst, 0)
		} else {
			dst = binary.AppendUvarint(dst, uint64(len(r.Content))+1)
			for name, v := range r.Content {
				dst = appendStr(dst, name)
				if dst, err = appendStateValue(dst, v, 0); err != nil {
					return nil, fmt.Errorf("answer %q, field %q: %w", k, name, err)
				}
			}
		}
		size := len(dst) - at - 4
		if size > MaxStateSize {
			return nil, fmt.Errorf("answer %q exceeds the %d byte limit", k, MaxStateSize)
		}
		binary.LittleEndian.PutUint32(dst[at:], uint32(size))
	}
	for _, a := range st.sealed {
		if a.key != "" && st.Answers[a.key] == nil {
			n++
			dst = appendStr(dst, a.key)
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(a.body)))
			dst = append(dst, a.body...)
		}
	}
	binary.LittleEndian.PutUint32(dst[countAt:], uint32(n))
	dst = binary.AppendUvarint(dst, uint64(len(st.Flows)))
	for k, id := range st.Flows {
		dst = appendStr(dst, k)
		dst = appendStr(dst, id)
	}
	return dst, nil
}

func appendStateValue(dst []byte, v any, depth int) ([]byte, error) {
	if depth > maxStateDepth {
		return nil, errors.New("value nested too deeply")
	}
	switch v := v.(type) {
	case nil:
		return append(dst, tagNull), nil
	case bool:
		if v {
			return append(dst, tagTrue), nil
		}
		return append(dst, tagFalse), nil
	case string:
		return appendStr(append(dst, tagString), v), nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 && (v != 0 || !math.Signbit(v)) {
			return binary.AppendVarint(append(dst, tagInt), int64(v)), nil
		}
		return binary.LittleEndian.AppendUint64(append(dst, tagFloat), math.Float64bits(v)), nil
	case json.Number:
		return appendStr(append(dst, tagNumber), string(v)), nil
	case []any:
		dst = binary.AppendUvarint(append(dst, tagList), uint64(len(v)))
		var err error
		for _, e := range v {
			if dst, err = appendStateValue(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case []string:
		dst = binary.AppendUvarint(append(dst, tagList), uint64(len(v)))
		for _, e := range v {
			dst = appendStr(append(dst, tagString), e)
		}
		return dst, nil
	case map[string]any:
		dst = binary.AppendUvarint(append(dst, tagObject), uint64(len(v)))
		var err error
		for k, e := range v {
			dst = appendStr(dst, k)
			if dst, err = appendStateValue(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return appendStr(append(dst, tagJSON), string(b)), nil
}

// stateDecoder reads the payload of an authenticated state. Its input was
// sealed by this runtime, but it still checks every bound: err is set
// instead of panicking on anything short or malformed.
type stateDecoder struct {
	s   string
	err bool
}

func (d *stateDecoder) fail() { d.err, d.s = true, "" }

func (d *stateDecoder) uvarint() uint64 {
	v, n := uvarintString(d.s)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.s = d.s[n:]
	return v
}

func (d *stateDecoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a count of items each taking at least min bytes, failing if
// the rest of the payload cannot hold them.
func (d *stateDecoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.s)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *stateDecoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

func (d *stateDecoder) byte() byte {
	if len(d.s) == 0 {
		d.fail()
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// index reads the answers' keys and bodies and the flows, leaving the
// bodies encoded.
func (d *stateDecoder) index() *State {
	if len(d.s) < 4 {
		d.fail()
		return nil
	}
	n := int(binary.LittleEndian.Uint32([]byte(d.s[:4])))
	d.s = d.s[4:]
	if n > len(d.s)/6 {
		d.fail()
		return nil
	}
	st := &State{Answers: map[string]*Response{}, sealed: make([]sealedAnswer, n)}
	for i := range st.sealed {
		k := d.str()
		if len(d.s) < 4 {
			d.fail()
			return nil
		}
		size := uint64(binary.LittleEndian.Uint32([]byte(d.s[:4])))
		if size > uint64(len(d.s)-4) {
			d.fail()
			return nil
		}
		body := d.s[4 : 4+size]
		d.s = d.s[4+size:]
		st.sealed[i] = sealedAnswer{key: k, body: body}
	}
	n = d.count(2)
	st.Flows = make(map[string]string, n)
	for range n {
		k := d.str()
		st.Flows[k] = d.str()
	}
	if len(d.s) != 0 {
		d.fail()
	}
	if d.err {
		return nil
	}
	return st
}

// answer decodes an answer body. Bodies are decoded only when read: the
// AEAD has authenticated them as this runtime's own encoding, and the
// decoder checks every bound anyway (a body that fails sets d.err and
// reads as no answer).
func (d *stateDecoder) answer() *Response {
	r := &Response{Action: d.action()}
	if c := d.uvarint(); c > 0 {
		if c-1 > uint64(len(d.s)/2) {
			d.fail()
			return nil
		}
		r.Content = make(map[string]any, c-1)
		for range c - 1 {
			name := d.str()
			r.Content[name] = d.value(0)
		}
	}
	return r
}

func (d *stateDecoder) value(depth int) any {
	if depth > maxStateDepth {
		d.fail()
		return nil
	}
	switch d.byte() {
	case tagNull:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return d.str()
	case tagFloat:
		if len(d.s) < 8 {
			d.fail()
			return nil
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[:8])))
		d.s = d.s[8:]
		return v
	case tagNumber:
		return json.Number(d.str())
	case tagInt:
		return float64(d.varint())
	case tagList:
		n := d.count(1)
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	case tagObject:
		n := d.count(2)
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		return m
	case tagJSON:
		var v any
		if err := json.Unmarshal([]byte(d.str()), &v); err != nil {
			d.fail()
		}
		return v
	}
	d.fail()
	return nil
}
