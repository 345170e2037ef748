package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

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
	// statePrefix starts every sealed state: "v3." key-id "." base64url(
	// key fingerprint | binding tag | nonce | ciphertext | GCM tag).
	statePrefix = "v3."
	// outdatedPrefix started the states of the previous payload format
	// (no state id, no asked keys): refused with ErrStateOutdated.
	outdatedPrefix = "v2."
	// stateDomain derives the keys (unchanged since v2); aadDomain starts
	// the additional data of the current format.
	stateDomain = "elicitgen/request-state/v2"
	aadDomain   = "elicitgen/request-state/v3"
	// stateIDSize is the length of a state's random id.
	stateIDSize = 16
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
// keep the old one until states sealed with it have expired, which for a
// question asked with runtime.WithWait is up to adapter.Options.MaxWait
// after the key stopped sealing (Rotate checks a ring against the record
// of the ring before). A KeyRing is immutable and safe for concurrent use.
type KeyRing struct {
	current string
	keys    map[string]*stateKey
	order   []string // the ids as given, the sealing key first
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
		r.order = append(r.order, k.ID)
	}
	return r, nil
}

// ParseKeyRing parses a ring from text such as an environment variable:
// comma-separated "id:secret" pairs, the secret in base64 (standard or
// URL alphabet, padded or not). The first pair seals.
//
//	ELICIT_STATE_KEYS="k2:6Jq...,k1:Zm9v..."
func ParseKeyRing(spec string) (*KeyRing, error) {
	if strings.Trim(spec, " \t\r\n,") == "" {
		return nil, errors.New(`elicit: key ring: empty: want comma-separated id:base64-secret pairs, ` +
			`the secret at least 32 random bytes, the first pair sealing; make one with ` +
			`ELICIT_STATE_KEYS="k1:$(openssl rand -base64 32)"`)
	}
	var keys []Key
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, secret, ok := strings.Cut(part, ":")
		if !ok {
			return nil, fmt.Errorf("elicit: key ring: %q is not id:base64-secret (make a secret with `openssl rand -base64 32`)", redactKey(part))
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
	r, _ := NewKeyRing(Key{ID: "r" + wire.NewID()[:8], Secret: secret})
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
