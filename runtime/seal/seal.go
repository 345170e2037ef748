package seal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// State is what rides in requestState between the rounds of one call.
//
// A State from Sealer.Open keeps the answers of earlier rounds encoded
// until they are read with Answer (and seals them again as they are), so
// that opening costs little more than decrypting: read answers through
// Answer or AllAnswers, not through the Answers field.
type State struct {
	// Answers holds answers by inputRequests key: those added since the
	// state was opened and those already read with Answer.
	Answers map[string]*runtime.Response
	// Flows holds the flow id of each URL-mode request, by key, so that
	// the out-of-band page can be correlated across rounds.
	Flows map[string]string
	// Call correlates the rounds of one call for observers; nil when no
	// observer was set on the instances that served them.
	Call *CallInfo
	// Asked lists the inputRequests keys of the questions the round that
	// sealed the state asked (see runtime.WithAskedFirst).
	Asked []string

	// ID is the state's random id (hex), fresh for every Seal: the id a
	// replay store claims once (see seal.ReplayStore). Set by Open;
	// Seal ignores it.
	ID string
	// Expires is the last instant the state opens (by the opener's
	// clock). Set by Open; Seal ignores it.
	Expires time.Time
	// Issued is when the state was sealed (by the sealer's clock, to the
	// second). Set by Open; Seal ignores it.
	Issued time.Time
	// Epoch is the replay store's epoch the issuing instance saw
	// (Claimed.Epoch), sealed with the state and compared exactly by its
	// claim (see ReplayStore); zero when none was known, which every
	// store refuses at the claim. Seal seals it; Open sets it (zero for a
	// state sealed by a release before epochs).
	Epoch uint64

	// sealed are the answers of an opened state not yet decoded, in the
	// order sealed; a decoded one has its key cleared.
	sealed []sealedAnswer
}

type sealedAnswer struct {
	key  string
	body string // action and content, encoded
}

// Answer returns the answer under key, from this round or an earlier one.
func (st *State) Answer(key string) (*runtime.Response, bool) {
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
				st.Answers = map[string]*runtime.Response{}
			}
			st.Answers[key] = r
			a.key = ""
			return r, true
		}
	}
	return nil, false
}

// HasAnswers reports whether st holds any answer.
func (st *State) HasAnswers() bool {
	for _, r := range st.Answers {
		if r != nil {
			return true
		}
	}
	for _, a := range st.sealed {
		if a.key != "" {
			return true
		}
	}
	return false
}

// WasAsked reports whether key is one of st.Asked.
func (st *State) WasAsked(key string) bool {
	for _, k := range st.Asked {
		if k == key {
			return true
		}
	}
	return false
}

// AllAnswers decodes and returns every answer, by key.
func (st *State) AllAnswers() map[string]*runtime.Response {
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
	dst = append(dst, aadDomain...)
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
// The format is "v3." key-id "." base64url(key fingerprint | binding tag
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
	var id [stateIDSize]byte
	rand.Read(id[:]) // never fails (crypto/rand)
	buf = append(buf, id[:]...)
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
	n := 8 + 48*len(st.Flows) + 160*len(st.Answers) + 24*len(st.Asked)
	if st.Call != nil {
		n += 64
	}
	for _, a := range st.sealed {
		n += len(a.key) + len(a.body) + 8
	}
	return n
}

// Open decrypts and verifies a requestState sealed by Seal and returns
// its contents. Every failure matches ErrInvalidState, and more precisely
// one of ErrStateTampered, ErrStateExpired, ErrStateForeign,
// ErrStateNotYetValid or ErrStateOutdated. The error of a state that
// authenticates but has expired is an *ExpiredError.
func (s *Sealer) Open(b Binding, state string) (*State, error) {
	if s == nil || s.Keys == nil {
		return nil, fmt.Errorf("%w: no key ring configured to open it", ErrStateTampered)
	}
	if len(state) > MaxStateSize {
		return nil, fmt.Errorf("%w: %d bytes exceeds the %d byte limit", ErrStateTampered, len(state), MaxStateSize)
	}
	rest, ok := strings.CutPrefix(state, statePrefix)
	if !ok {
		if strings.HasPrefix(state, outdatedPrefix) || legacyState(state) {
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
	id := d.bytes(stateIDSize)
	st := d.index()
	if d.err {
		return nil, fmt.Errorf("%w: unsupported payload", ErrStateTampered)
	}
	now := s.now()
	if issued > now.Add(MaxClockSkew).Unix() {
		return nil, fmt.Errorf("%w: %s ahead of this server's clock (at most %s allowed)", ErrStateNotYetValid, time.Duration(issued-now.Unix())*time.Second, MaxClockSkew)
	}
	st.ID = hex.EncodeToString([]byte(id))
	st.Expires = time.Unix(expires, 0).Add(time.Second - time.Nanosecond)
	st.Issued = time.Unix(issued, 0)
	if n := now.Unix(); n > expires {
		return nil, &ExpiredError{State: st, err: fmt.Errorf("%w: %s ago", ErrStateExpired, time.Duration(n-expires)*time.Second)}
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
