// Package passkey implements the hosted page's passkey step-up
// (page.StepUp, for questions asked with runtime.WithStepUp) with WebAuthn
// (github.com/go-webauthn/webauthn), and the registration of a person's
// passkeys.
//
// The page computes each challenge (page.Challenge: bound to the call,
// the form, the answer's digest, the page and a single-use nonce);
// Passkeys asks the browser for an assertion over it with user
// verification, from a passkey registered to the person answering, and
// verifies the one that comes back. It keeps no state of its own for a
// step-up, so every instance serving pages verifies any of them, given
// the same Config and credential store.
package passkey

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/elicitgen/elicitgen/runtime/page"
)

// Errors of Passkeys.
var (
	// ErrNoPasskey: the person has no registered passkey.
	ErrNoPasskey = errors.New("elicit passkey: no passkey registered")
	// ErrAssertion: the assertion does not verify (unregistered
	// authenticator, another challenge, no user verification, a bad
	// signature or origin).
	ErrAssertion = errors.New("elicit passkey: assertion refused")
	// ErrRegistration: a registration that does not verify, or that was
	// not begun.
	ErrRegistration = errors.New("elicit passkey: registration refused")
)

// Credentials keeps the passkeys registered to each principal. It must be
// safe for concurrent use.
type Credentials interface {
	// Credentials returns the passkeys registered to principal.
	Credentials(ctx context.Context, principal string) ([]webauthn.Credential, error)
	// Add registers c to principal.
	Add(ctx context.Context, principal string, c webauthn.Credential) error
}

// MemoryCredentials is Credentials in this process's memory, for a demo
// or a test. The zero value is ready to use.
type MemoryCredentials struct {
	mu sync.Mutex
	m  map[string][]webauthn.Credential
}

// Credentials implements Credentials.
func (s *MemoryCredentials) Credentials(_ context.Context, principal string) ([]webauthn.Credential, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.m[principal]), nil
}

// Add implements Credentials.
func (s *MemoryCredentials) Add(_ context.Context, principal string, c webauthn.Credential) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]webauthn.Credential{}
	}
	s.m[principal] = append(s.m[principal], c)
	return nil
}

// Config configures Passkeys.
type Config struct {
	// RPID is the WebAuthn relying party id: the pages' host name
	// ("mcp.example.com", "localhost").
	RPID string
	// RPName is the relying party's name, shown by the authenticator
	// when registering; RPID when "".
	RPName string
	// Origins are the origins the pages are served from
	// ("https://mcp.example.com").
	Origins []string
	// Credentials keeps the registered passkeys; nil is a new
	// MemoryCredentials.
	Credentials Credentials
}

// Passkeys checks passkey step-ups (page.StepUp) and registers passkeys.
// It is safe for concurrent use.
type Passkeys struct {
	wa    *webauthn.WebAuthn
	creds Credentials

	mu      sync.Mutex
	pending map[string]*webauthn.SessionData // registrations begun, by principal
}

var _ page.StepUp = (*Passkeys)(nil)

// New checks cfg and returns the Passkeys it configures.
func New(cfg Config) (*Passkeys, error) {
	name := cfg.RPName
	if name == "" {
		name = cfg.RPID
	}
	wa, err := webauthn.New(&webauthn.Config{
		RPID: cfg.RPID, RPDisplayName: name, RPOrigins: cfg.Origins,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementPreferred,
			UserVerification: protocol.VerificationRequired,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("elicit passkey: %w", err)
	}
	creds := cfg.Credentials
	if creds == nil {
		creds = &MemoryCredentials{}
	}
	return &Passkeys{wa: wa, creds: creds, pending: map[string]*webauthn.SessionData{}}, nil
}

// user is a principal as WebAuthn knows it.
type user struct {
	name  string
	creds []webauthn.Credential
}

// WebAuthnID is a digest of the principal: an opaque user handle.
func (u *user) WebAuthnID() []byte {
	sum := sha256.Sum256([]byte("elicitgen passkey user\x00" + u.name))
	return sum[:]
}
func (u *user) WebAuthnName() string                       { return u.name }
func (u *user) WebAuthnDisplayName() string                { return u.name }
func (u *user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func (k *Passkeys) user(ctx context.Context, principal string) (*user, error) {
	if principal == "" {
		return nil, fmt.Errorf("%w: nobody signed in", ErrNoPasskey)
	}
	creds, err := k.creds.Credentials(ctx, principal)
	if err != nil {
		return nil, fmt.Errorf("elicit passkey: credentials of %q: %w", principal, err)
	}
	return &user{name: principal, creds: creds}, nil
}

// login begins the login of u over challenge, with user verification.
func (k *Passkeys) login(u *user, challenge []byte) (*protocol.CredentialAssertion, *webauthn.SessionData, error) {
	return k.wa.BeginLogin(u, webauthn.WithChallenge(challenge), webauthn.WithUserVerification(protocol.VerificationRequired))
}

// Begin implements page.StepUp: the options of navigator.credentials.get
// asking principal's passkeys for an assertion over challenge.
func (k *Passkeys) Begin(ctx context.Context, principal string, challenge []byte) ([]byte, error) {
	u, err := k.user(ctx, principal)
	if err != nil {
		return nil, err
	}
	if len(u.creds) == 0 {
		return nil, fmt.Errorf("%w: %q", ErrNoPasskey, principal)
	}
	a, _, err := k.login(u, challenge)
	if err != nil {
		return nil, fmt.Errorf("elicit passkey: %w", err)
	}
	return json.Marshal(a)
}

// Finish implements page.StepUp: it verifies assertion as principal's,
// with user verification, over challenge.
func (k *Passkeys) Finish(ctx context.Context, principal string, challenge, assertion []byte) error {
	u, err := k.user(ctx, principal)
	if err != nil {
		return err
	}
	if len(u.creds) == 0 {
		return fmt.Errorf("%w: %q", ErrNoPasskey, principal)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(assertion)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrAssertion, detail(err))
	}
	_, session, err := k.login(u, challenge)
	if err != nil {
		return fmt.Errorf("elicit passkey: %w", err)
	}
	if _, err := k.wa.ValidateLogin(u, *session, parsed); err != nil {
		return fmt.Errorf("%w: %s", ErrAssertion, detail(err))
	}
	return nil
}

// detail returns the most specific words of a WebAuthn error.
func detail(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.DevInfo != "" {
		return pe.Details + ": " + pe.DevInfo
	}
	return err.Error()
}

// BeginRegistration returns the options of navigator.credentials.create
// registering a new passkey, with user verification, for principal; the
// registration is finished by FinishRegistration (one pending per
// principal: beginning again replaces it).
func (k *Passkeys) BeginRegistration(ctx context.Context, principal string) ([]byte, error) {
	u, err := k.user(ctx, principal)
	if err != nil {
		return nil, err
	}
	excl := make([]protocol.CredentialDescriptor, len(u.creds))
	for i, c := range u.creds {
		excl[i] = c.Descriptor()
	}
	opts, session, err := k.wa.BeginRegistration(u, webauthn.WithExclusions(excl))
	if err != nil {
		return nil, fmt.Errorf("elicit passkey: %w", err)
	}
	k.mu.Lock()
	k.pending[principal] = session
	k.mu.Unlock()
	return json.Marshal(opts)
}

// FinishRegistration verifies the browser's answer to
// BeginRegistration's options (the JSON of its PublicKeyCredential,
// binary members in base64url) and registers the passkey to principal.
func (k *Passkeys) FinishRegistration(ctx context.Context, principal string, credential []byte) error {
	k.mu.Lock()
	session := k.pending[principal]
	delete(k.pending, principal)
	k.mu.Unlock()
	if session == nil {
		return fmt.Errorf("%w: no registration begun for %q", ErrRegistration, principal)
	}
	u, err := k.user(ctx, principal)
	if err != nil {
		return err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRegistration, detail(err))
	}
	c, err := k.wa.CreateCredential(u, *session, parsed)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRegistration, detail(err))
	}
	if !c.Flags.UserVerified {
		return fmt.Errorf("%w: the authenticator did not verify the user", ErrRegistration)
	}
	return k.creds.Add(ctx, principal, *c)
}
