package page

import (
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// The tokens are request states of package seal under bindings no tool
// can have (MCP tool names hold no NUL), so that neither kind of token
// opens as the other, nor as any call's requestState.
var (
	pageBinding = seal.Binding{Tool: "\x00elicitgen page"}
	csrfBinding = seal.Binding{Tool: "\x00elicitgen page csrf"}
)

// Keys of the tokens' Flows.
const (
	flowID        = "p"
	flowTool      = "t"
	flowArgs      = "a"
	flowPrincipal = "u"
	flowNonce     = "n"
)

// maxToken bounds a token read from a URL or a form.
const maxToken = 4096

// sealer returns a Sealer whose states live from now until expires.
func (p *Pages) sealer(now, expires time.Time) *seal.Sealer {
	return &seal.Sealer{Keys: p.cfg.Keys, TTL: expires.Sub(now), Now: func() time.Time { return now }}
}

// sealPage returns the page token of page id for the call b.
func (p *Pages) sealPage(id string, b seal.Binding, now, expires time.Time) (string, error) {
	st := &seal.State{Flows: map[string]string{
		flowID: id, flowTool: b.Tool, flowArgs: hex.EncodeToString(b.ArgsDigest[:]), flowPrincipal: b.Principal,
	}}
	tok, err := p.sealer(now, expires).Seal(pageBinding, st)
	if err != nil {
		return "", fmt.Errorf("elicit page: sealing the link: %w", err)
	}
	return tok, nil
}

// pageToken is an opened page token.
type pageToken struct {
	id      string
	call    seal.Binding
	expires time.Time
}

// openPage opens a page token: ErrInvalidLink or ErrExpired.
func (p *Pages) openPage(tok string) (*pageToken, error) {
	if tok == "" || len(tok) > maxToken {
		return nil, ErrInvalidLink
	}
	st, err := (&seal.Sealer{Keys: p.cfg.Keys, Now: p.cfg.Now}).Open(pageBinding, tok)
	if err != nil {
		if errors.Is(err, seal.ErrStateExpired) {
			return nil, ErrExpired
		}
		return nil, ErrInvalidLink
	}
	t := &pageToken{id: st.Flows[flowID], expires: st.Expires}
	t.call = seal.Binding{Tool: st.Flows[flowTool], Principal: st.Flows[flowPrincipal]}
	d, err := hex.DecodeString(st.Flows[flowArgs])
	if err != nil || len(d) != len(t.call.ArgsDigest) || !validID(t.id) {
		return nil, ErrInvalidLink
	}
	copy(t.call.ArgsDigest[:], d)
	return t, nil
}

// sealCSRF returns the CSRF token of page id for the cookie value nonce.
func (p *Pages) sealCSRF(id, nonce string, expires time.Time) (string, error) {
	st := &seal.State{Flows: map[string]string{flowID: id, flowNonce: nonce}}
	now := p.now()
	if !expires.After(now) {
		expires = now.Add(time.Second)
	}
	tok, err := p.sealer(now, expires).Seal(csrfBinding, st)
	if err != nil {
		return "", fmt.Errorf("elicit page: sealing the CSRF token: %w", err)
	}
	return tok, nil
}

// checkCSRF reports whether tok is the CSRF token of page id for the
// cookie value nonce.
func (p *Pages) checkCSRF(tok, id, nonce string) bool {
	if tok == "" || nonce == "" || len(tok) > maxToken {
		return false
	}
	st, err := (&seal.Sealer{Keys: p.cfg.Keys, Now: p.cfg.Now}).Open(csrfBinding, tok)
	if err != nil {
		return false
	}
	okID := subtle.ConstantTimeCompare([]byte(st.Flows[flowID]), []byte(id)) == 1
	okNonce := subtle.ConstantTimeCompare([]byte(st.Flows[flowNonce]), []byte(nonce)) == 1
	return okID && okNonce
}
