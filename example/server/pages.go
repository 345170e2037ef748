package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/textproto"
	"os"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/passkey"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Environment variables of the hosted form pages.
const (
	// TrustedUserHeaderEnv names the request header that carries the
	// person's identity, set by the identity-aware proxy in front of the
	// server (oauth2-proxy's X-Forwarded-User, X-Forwarded-Email, ...).
	// The same header names the principal of MCP calls and the person a
	// page admits. Only a proxy that strips the header from what clients
	// send may set it.
	TrustedUserHeaderEnv = "ELICIT_TRUSTED_USER_HEADER"
	// PagesEnv, set to 1, serves the hosted form pages (as --pages).
	PagesEnv = "ELICIT_PAGES"
	// PageBaseURLEnv is the public URL the pages are served under,
	// ending in "/elicit/" (behind a proxy: its https URL). Empty means
	// http://<listen address>/elicit/.
	PageBaseURLEnv = "ELICIT_PAGE_BASE_URL"
)

// PagesPath is the path the example serves its pages under.
const PagesPath = "/elicit/"

// trustedIdentity returns the identity read from the header named by
// TrustedUserHeaderEnv, or nil when it is unset.
func trustedIdentity() (func(*http.Request) (string, bool), error) {
	name := os.Getenv(TrustedUserHeaderEnv)
	if name == "" {
		return nil, nil
	}
	if textproto.CanonicalMIMEHeaderKey(name) == "" || !validHeaderName(name) {
		return nil, fmt.Errorf("%s=%q: not a header name", TrustedUserHeaderEnv, name)
	}
	return func(r *http.Request) (string, bool) {
		v := r.Header.Values(name)
		if len(v) != 1 || v[0] == "" {
			return "", false // absent, or sent twice: nobody
		}
		return v[0], true
	}, nil
}

func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return s != ""
}

// newPages returns the pages of a server listening on addr, or an error
// that refuses to start: pages on a non-loopback address need the
// trusted identity header. On a loopback address without it, anyone on
// this machine holding a link can answer it (page.Config.LinkOnly), which
// is logged. With stepUp (ELICIT_PASSKEY), the pages check passkey
// step-ups, and the handler returned serves the registration page too.
// With receipts (--receipts), every post a page refuses by policy leaves
// a signed "refused" receipt in that log (receipt.Refusals); the refusal
// stands, and is logged, whether or not its receipt is written. The
// pages' clock is their store's (storeClock).
func newPages(keys *seal.KeyRing, store page.Store, addr net.Addr, loopback bool, identity func(*http.Request) (string, bool), stepUp bool, receipts *receipt.Log) (*page.Pages, http.Handler, error) {
	if identity == nil && !loopback {
		return nil, nil, errors.New("hosted pages on a non-loopback address need " + TrustedUserHeaderEnv +
			" (the header your identity-aware proxy sets): without it a page could not tell who answers")
	}
	base := os.Getenv(PageBaseURLEnv)
	if base == "" {
		base = "http://" + addr.String() + PagesPath
	}
	quiet := addr == nil // a CGI process: one request, no banner
	// ELICIT_APPROVERS: a refused approver (the requester, someone not
	// named, the same approver twice) is logged, and with --receipts
	// signed into the receipt log; it never counts.
	refused := func(_ context.Context, r page.Refusal) {
		log.Printf("page refused: tool=%s page=%s requester=%s who=%s post=%t: %v", logName(r.Tool), r.Page, logName(r.Requester), logName(r.Who), r.Post, r.Err)
	}
	if receipts != nil {
		signed := receipt.Refusals(receipts, app.ReceiptServer, func(page.Refusal) string { return receipt.VerifiedTrustedHeader },
			func(_ context.Context, r page.Refusal, err error) {
				log.Printf("page refused: tool=%s page=%s: no receipt of the refusal (it stands): %v", logName(r.Tool), r.Page, err)
			})
		logged := refused
		refused = func(ctx context.Context, r page.Refusal) { logged(ctx, r); signed(ctx, r) }
	}
	cfg := page.Config{Keys: keys, Store: store, BaseURL: base, Identity: identity, Name: "elicitgen example server", Now: storeClock(store), Refused: refused}
	notify, err := notifierFromEnv()
	if err != nil {
		return nil, nil, err
	}
	if notify != nil {
		if identity == nil {
			return nil, nil, errors.New(NotifyURLEnv + ": the approvers' one-time links need " + TrustedUserHeaderEnv + " (the page must tell the approvers apart)")
		}
		cfg.Notify, cfg.NotifyFailed = notify, notifyFailed
		if !quiet {
			log.Printf("approvers get their links by webhook to %s", redactURL(os.Getenv(NotifyURLEnv)))
		}
	}
	if identity == nil {
		cfg.LinkOnly = true
		if !quiet {
			log.Printf("hosted pages without %s: anyone who holds a page's link can answer it (loopback only)", TrustedUserHeaderEnv)
		}
	}
	var passkeys *passkey.Passkeys
	if stepUp {
		k, err := newPasskeys(base)
		if err != nil {
			return nil, nil, err
		}
		cfg.StepUp, passkeys = k, k
	}
	p, err := page.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	if !quiet {
		log.Printf("serving hosted form pages under %s", base)
	}
	if passkeys != nil {
		if !quiet {
			log.Printf("deploy_to_production asks for a passkey: register one at %s%s", base, PasskeyPath+"register")
		}
		return p, withRegistration(p, passkeys, identity), nil
	}
	return p, p, nil
}

func getenvOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
