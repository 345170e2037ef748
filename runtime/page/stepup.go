package page

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/templates"
)

// StepUp checks a passkey (WebAuthn user verification) for the questions
// asked with runtime.WithStepUp (Config.StepUp). The page computes the
// challenge, bound to the question and the answer (Challenge); StepUp
// only asks the browser for an assertion over it and verifies one.
// Package runtime/passkey implements it with github.com/go-webauthn/webauthn.
type StepUp interface {
	// Begin returns the options of the browser's navigator.credentials.get
	// asking principal's registered passkeys for an assertion, with user
	// verification, over challenge: the JSON of a WebAuthn
	// CredentialAssertion ({"publicKey": {...}}, binary members in
	// base64url).
	Begin(ctx context.Context, principal string, challenge []byte) (options []byte, err error)
	// Finish verifies assertion, the JSON of the browser's
	// PublicKeyCredential (binary members in base64url), as an assertion
	// with user verification over challenge by one of principal's
	// registered passkeys. Any error refuses the answer.
	Finish(ctx context.Context, principal string, challenge, assertion []byte) error
}

// VerifiedPasskey is how an answer that passed a step-up was verified
// (runtime.Response.Verified; runtime/receipt's VerifiedPasskey).
const VerifiedPasskey = "passkey"

// ErrStepUp: an approval of a question asked with runtime.WithStepUp
// came without a valid passkey assertion for it (none, replayed, for
// another question or answer, from an unregistered authenticator or
// without user verification). It is refused, recorded with
// Config.Refused, and never counts as an approval.
var ErrStepUp = errors.New("elicit page: passkey step-up refused")

// Challenge returns the step-up challenge of an answer: the SHA-256 of
// the call (tool, argument digest, principal), the form, the answer's
// digest, the page, the approver and the single-use nonce, so that an
// assertion over it approves only that answer to that question, once.
func Challenge(b seal.Binding, form string, answerDigest [32]byte, page, approver string, nonce []byte) []byte {
	h := sha256.New()
	for _, s := range []string{"elicitgen page step-up", b.Tool, string(b.ArgsDigest[:]), b.Principal, form, string(answerDigest[:]), page, approver, string(nonce)} {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}

// stepUpScript is the path segment, under the handler's path, of the
// page's step-up script.
const stepUpScript = "stepup.js"

// stepUpPolicy is the Content-Security-Policy of a page with a step-up:
// the page's policy, and its own script, which posts to the page itself.
var stepUpPolicy = contentSecurityPolicy + "; script-src 'self'; connect-src 'self'"

// serveScript writes the step-up script.
func serveScript(w http.ResponseWriter, r *http.Request) {
	b, err := templates.Page.ReadFile(stepUpScript)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// nonceID and spentNonceID name the records of a step-up nonce of page id:
// issued (with its approver) and spent.
func nonceID(id, nonce string) string      { return id + "_sn_" + nonce }
func spentNonceID(id, nonce string) string { return id + "_su_" + nonce }

// issuedNonce is the record of an issued step-up nonce.
type issuedNonce struct {
	Who string `json:"who"`
}

// stepUp runs the step-up of the accept enc by who on the page id of q:
// it returns true when the post carries a valid assertion for it. A post
// with elicit_stepup=begin gets the browser's options (JSON) instead; any other
// post is refused, recorded, and counts for nothing.
func (p *Pages) stepUp(ctx context.Context, w http.ResponseWriter, r *http.Request, id string, q *question, who string, enc []byte) bool {
	digest := sha256.Sum256(enc)
	nonce := r.PostForm.Get(formStepUp)
	if nonce == "begin" {
		var b [16]byte
		rand.Read(b[:])
		nonce = hex.EncodeToString(b[:])
		body, _ := json.Marshal(issuedNonce{Who: who})
		if err := p.store.Put(ctx, Record{ID: nonceID(id, nonce), Client: who, Question: body, Closes: q.expires, Until: q.expires.Add(p.cfg.Keep)}); err != nil {
			p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
			return false
		}
		opts, err := p.cfg.StepUp.Begin(ctx, who, Challenge(q.binding(), q.Form, digest, id, who, b[:]))
		if err != nil {
			p.noteRefusal(r, id, q, who, fmt.Errorf("%w: %w", ErrStepUp, err))
			p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.StepUpRefused })
			return false
		}
		out, err := json.Marshal(map[string]any{"nonce": nonce, "options": json.RawMessage(opts)})
		if err != nil {
			p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write(out)
		return false
	}
	if err := p.checkStepUp(ctx, id, q, who, nonce, r.PostForm[formAssertion], digest); err != nil {
		if errors.Is(err, ErrStore) {
			p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
			return false
		}
		p.noteRefusal(r, id, q, who, err)
		p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.StepUpRefused })
		return false
	}
	return true
}

// checkStepUp verifies the assertion posted with nonce for the answer
// digest by who on page id, spending the nonce: an error matching
// ErrStepUp refuses it, one matching ErrStore is the store's failure.
func (p *Pages) checkStepUp(ctx context.Context, id string, q *question, who, nonce string, assertion []string, digest [32]byte) error {
	raw, err := hex.DecodeString(nonce)
	if err != nil || len(raw) != 16 {
		return fmt.Errorf("%w: no step-up nonce", ErrStepUp)
	}
	if len(assertion) != 1 || assertion[0] == "" {
		return fmt.Errorf("%w: no passkey assertion", ErrStepUp)
	}
	e, err := p.store.Get(ctx, nonceID(id, nonce))
	switch {
	case errors.Is(err, ErrNotFound):
		return fmt.Errorf("%w: the nonce was not issued for this page", ErrStepUp)
	case err != nil:
		return storeErr("step-up", err)
	}
	var n issuedNonce
	if err := json.Unmarshal(e.Question, &n); err != nil || n.Who != who {
		return fmt.Errorf("%w: the nonce was issued to someone else", ErrStepUp)
	}
	switch err := p.store.Put(ctx, Record{ID: spentNonceID(id, nonce), Client: who, Question: []byte(`{}`), Closes: q.expires, Until: q.expires.Add(p.cfg.Keep)}); {
	case errors.Is(err, ErrExists):
		return fmt.Errorf("%w: the assertion was used before", ErrStepUp)
	case err != nil:
		return storeErr("step-up", err)
	}
	if err := p.cfg.StepUp.Finish(ctx, who, Challenge(q.binding(), q.Form, digest, id, who, raw), []byte(assertion[0])); err != nil {
		return fmt.Errorf("%w: %w", ErrStepUp, err)
	}
	return nil
}
