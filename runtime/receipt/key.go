package receipt

import (
	"crypto"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"sort"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
)

// Type is the "typ" header of every receipt, so that a receipt cannot be
// passed off as another kind of JWS signed with the same key, nor the
// reverse.
const Type = "elicitgen-receipt"

// Signer signs receipts with one Ed25519 private key. Its key id (the
// "kid" header) is the key's RFC 7638 JWK thumbprint (SHA-256,
// base64url), so a verifier derives it from the public key alone. It is
// safe for concurrent use.
type Signer struct {
	kid  string
	priv ed25519.PrivateKey
	// header is the base64url of the protected header,
	// {"alg":"EdDSA","kid":"...","typ":"elicitgen-receipt"}: the same
	// for every receipt of the key.
	header string
}

// NewSigner returns a Signer for priv.
func NewSigner(priv ed25519.PrivateKey) (*Signer, error) {
	if len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("%w: an Ed25519 private key has %d bytes, not %d", ErrKey, ed25519.PrivateKeySize, len(priv))
	}
	kid, err := KeyID(priv.Public().(ed25519.PublicKey))
	if err != nil {
		return nil, err
	}
	h, err := json.Marshal(header{Alg: string(jose.EdDSA), Kid: kid, Typ: Type})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	return &Signer{kid: kid, priv: priv, header: base64.RawURLEncoding.EncodeToString(h)}, nil
}

// ParsePrivateKey returns a Signer for the first PEM block of data, a
// PKCS#8 "PRIVATE KEY" holding an Ed25519 key (openssl genpkey
// -algorithm ed25519). Any other content fails with an error matching
// ErrKey.
func ParsePrivateKey(data []byte) (*Signer, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%w: no PEM block (want a PKCS#8 \"PRIVATE KEY\" holding an Ed25519 key)", ErrKey)
	}
	if block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%w: a PEM %q block, not a PKCS#8 \"PRIVATE KEY\" holding an Ed25519 key", ErrKey, block.Type)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%w: a %s private key, not Ed25519", ErrKey, keyKind(k))
	}
	return NewSigner(priv)
}

// LoadPrivateKey reads a PKCS#8 PEM Ed25519 private key from the file at
// path (see ParsePrivateKey). A missing or unreadable file fails with an
// error matching ErrKey.
func LoadPrivateKey(path string) (*Signer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	s, err := ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// KeyID returns the key id of pub: its RFC 7638 JWK thumbprint with
// SHA-256, base64url without padding.
func KeyID(pub ed25519.PublicKey) (string, error) {
	if len(pub) != ed25519.PublicKeySize {
		return "", fmt.Errorf("%w: an Ed25519 public key has %d bytes, not %d", ErrKey, ed25519.PublicKeySize, len(pub))
	}
	tp, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrKey, err)
	}
	return base64.RawURLEncoding.EncodeToString(tp), nil
}

// KeyID returns the signer's key id.
func (s *Signer) KeyID() string { return s.kid }

// Public returns the signer's public key.
func (s *Signer) Public() ed25519.PublicKey { return s.priv.Public().(ed25519.PublicKey) }

// PublicKeyPEM returns the signer's public key as a PKIX "PUBLIC KEY" PEM
// block: the file elicitgen verify --key reads.
func (s *Signer) PublicKeyPEM() ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(s.Public())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKey, err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// Keys returns a key set holding the signer's public key.
func (s *Signer) Keys() *Keys {
	k := &Keys{}
	_ = k.Add(s.Public())
	return k
}

// sign returns the compact serialization of a JWS over payload (RFC
// 7515 section 7.1; EdDSA as RFC 8037 defines it): the signing input
// BASE64URL(header) "." BASE64URL(payload), a dot, and the base64url of
// its Ed25519 signature. The header is fixed per key, so the JWS is
// assembled here rather than by a JOSE library, which would encode the
// same header again for every receipt; Verify checks receipts with
// go-jose.
func (s *Signer) sign(payload []byte) string {
	enc := base64.RawURLEncoding
	buf := make([]byte, 0, len(s.header)+2+enc.EncodedLen(len(payload))+enc.EncodedLen(ed25519.SignatureSize))
	buf = append(buf, s.header...)
	buf = append(buf, '.')
	buf = enc.AppendEncode(buf, payload)
	sig := ed25519.Sign(s.priv, buf)
	buf = append(buf, '.')
	return string(enc.AppendEncode(buf, sig))
}

// Keys is a set of Ed25519 public keys by key id: every key whose
// receipts a verifier accepts, the current one and those rotated out. The
// zero value is an empty set. Add keys before using it from several
// goroutines.
type Keys struct {
	byID map[string]ed25519.PublicKey
}

// Add adds pub to the set.
func (k *Keys) Add(pub ed25519.PublicKey) error {
	kid, err := KeyID(pub)
	if err != nil {
		return err
	}
	if k.byID == nil {
		k.byID = map[string]ed25519.PublicKey{}
	}
	k.byID[kid] = pub
	return nil
}

// IDs returns the key ids of the set, sorted.
func (k *Keys) IDs() []string {
	ids := make([]string, 0, len(k.byID))
	for id := range k.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Len returns the number of keys in the set.
func (k *Keys) Len() int { return len(k.byID) }

// key returns the public key of kid.
func (k *Keys) key(kid string) (ed25519.PublicKey, bool) {
	pub, ok := k.byID[kid]
	return pub, ok
}

// ParsePublicKeys adds to the set every PEM block of data: PKIX "PUBLIC
// KEY" blocks holding Ed25519 keys (openssl pkey -pubout). Data without
// one, or any other block, fails with an error matching ErrKey.
func (k *Keys) ParsePublicKeys(data []byte) error {
	n := 0
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		n++
		if block.Type != "PUBLIC KEY" {
			hint := ""
			if strings.Contains(block.Type, "PRIVATE") {
				hint = " (give the public key: openssl pkey -in KEY.pem -pubout)"
			}
			return fmt.Errorf("%w: PEM block %d is %q, not a PKIX \"PUBLIC KEY\"%s", ErrKey, n, block.Type, hint)
		}
		pk, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("%w: PEM block %d: %w", ErrKey, n, err)
		}
		pub, ok := pk.(ed25519.PublicKey)
		if !ok {
			return fmt.Errorf("%w: PEM block %d: a %s public key, not Ed25519", ErrKey, n, keyKind(pk))
		}
		if err := k.Add(pub); err != nil {
			return err
		}
	}
	if n == 0 {
		return fmt.Errorf("%w: no PEM block (want a PKIX \"PUBLIC KEY\" holding an Ed25519 key)", ErrKey)
	}
	return nil
}

// LoadPublicKeys reads the public keys of each file in paths into a new
// set (see ParsePublicKeys); a file may hold several.
func LoadPublicKeys(paths ...string) (*Keys, error) {
	k := &Keys{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrKey, err)
		}
		if err := k.ParsePublicKeys(data); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	if k.Len() == 0 {
		return nil, fmt.Errorf("%w: no public key given", ErrKey)
	}
	return k, nil
}

// keyKind names the kind of a parsed key for an error message.
func keyKind(k any) string {
	switch fmt.Sprintf("%T", k) {
	case "*rsa.PrivateKey", "*rsa.PublicKey":
		return "RSA"
	case "*ecdsa.PrivateKey", "*ecdsa.PublicKey":
		return "ECDSA"
	case "*ecdh.PrivateKey", "*ecdh.PublicKey":
		return "X25519/ECDH"
	}
	return fmt.Sprintf("%T", k)
}
