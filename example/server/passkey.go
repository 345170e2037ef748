package main

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/passkey"
)

// PasskeyEnv names the environment variable that, set to 1, makes the
// approval of deploy_to_production need a passkey step-up on the hosted
// page (runtime.WithStepUp): the person registers a passkey on
// PagesPath+"passkey/register" first (kept in this process's memory).
// It needs --http, --pages and ELICIT_TRUSTED_USER_HEADER.
const PasskeyEnv = "ELICIT_PASSKEY"

// PasskeyPath is where, under PagesPath, the passkey registration page
// is served.
const PasskeyPath = "passkey/"

// checkPasskey refuses PasskeyEnv without what it needs.
func checkPasskey(on, pages, identity, cgi bool) error {
	switch {
	case !on:
		return nil
	case cgi:
		return errors.New(PasskeyEnv + ": the example keeps passkeys in memory: serve with --http, not --cgi")
	case !pages:
		return errors.New(PasskeyEnv + ": the step-up is on the hosted page: start with --pages (or " + PagesEnv + "=1)")
	case !identity:
		return errors.New(PasskeyEnv + ": a passkey is registered to a person: set " + TrustedUserHeaderEnv + " behind an identity-aware proxy")
	}
	return nil
}

// newPasskeys returns the passkeys of pages served under base: its host
// is the WebAuthn relying party, its origin the only one allowed.
func newPasskeys(base string) (*passkey.Passkeys, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	return passkey.New(passkey.Config{RPID: u.Hostname(), RPName: "elicitgen example server", Origins: []string{u.Scheme + "://" + u.Host}})
}

// withRegistration returns the handler of the pages p and, under
// PasskeyPath, the registration page of keys for the person identity
// reads.
func withRegistration(p *page.Pages, keys *passkey.Passkeys, identity func(*http.Request) (string, bool)) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(PagesPath+PasskeyPath, keys.RegisterHandler(identity))
	mux.Handle(PagesPath, p)
	return mux
}
