// Package wire holds the few wire rules the runtime and its adapters
// share that involve none of the runtime's types: inputRequests keys,
// URL-mode URLs and elicitation ids.
package wire

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// MaxKeyLen is the maximum length of an inputRequests key.
const MaxKeyLen = 64

// ErrInvalidKey means a question's inputRequests key is empty, too long
// or has characters outside [A-Za-z0-9_.:-] (runtime.ErrInvalidKey).
var ErrInvalidKey = errors.New("elicit: invalid inputRequests key")

// ErrUnsafeURL is returned for a URL-mode URL that must not be sent
// (runtime.ErrUnsafeURL).
var ErrUnsafeURL = errors.New("elicit: unsafe URL")

// CheckKey returns an error matching ErrInvalidKey unless key may name a
// question in inputRequests.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w %q: want 1 to %d characters", ErrInvalidKey, key, MaxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.:-", c) >= 0) {
			return fmt.Errorf("%w %q: character %q is not one of [A-Za-z0-9_.:-]", ErrInvalidKey, key, c)
		}
	}
	return nil
}

// CheckURL enforces the URL-mode rules: absolute https (http only for a
// loopback host), and no user information.
func CheckURL(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnsafeURL, err)
	}
	if u.User != nil {
		return fmt.Errorf("%w: %q carries credentials", ErrUnsafeURL, u.Redacted())
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		host := u.Hostname()
		ip := net.ParseIP(host)
		if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return fmt.Errorf("%w: %q is http on a non-loopback host; use https", ErrUnsafeURL, rawURL)
		}
	default:
		return fmt.Errorf("%w: %q is not an https URL", ErrUnsafeURL, rawURL)
	}
	if u.Host == "" {
		return fmt.Errorf("%w: %q has no host", ErrUnsafeURL, rawURL)
	}
	return nil
}

// NewID returns a random, unguessable elicitation id.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
