package page

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime/seal"
)

// This file delivers approvers their links out of band (Config.Notify):
// each allowed approver of a new approval page gets a one-time link,
// which opens once, for that approver only, and leads to the page.

// Notice is what a Notifier delivers to one approver of a new approval
// page.
type Notice struct {
	// Page names the page.
	Page string
	// Approver is the person the notice is for (a principal, as
	// Config.Identity names them).
	Approver string
	// Link is the one-time link to the page: it opens once, for
	// Approver only, and leads to the page (Config.BaseURL + "once/" +
	// a sealed token). It is a credential of sorts: deliver it to the
	// approver only.
	Link string
	// Tool is the tool whose call asks; Requester the call's principal.
	Tool, Requester string
	// Message is the question's text.
	Message string
	// Need is how many distinct approvals the question needs.
	Need int
	// Expires is when the page (and the link) closes.
	Expires time.Time
}

// Notifier delivers approvers their one-time links (Config.Notify): by a
// webhook (package runtime/page/webhook), mail, chat. Notify is called
// once per allowed approver when an approval page is issued, before Issue
// returns; it must return soon (its own timeout), and an error only says
// that this notice was not delivered (Config.NotifyFailed hears it; the
// page is issued all the same, and its link still reaches the approvers
// through the requester).
type Notifier interface {
	Notify(ctx context.Context, n Notice) error
}

// NotifierFunc adapts a function to Notifier.
type NotifierFunc func(ctx context.Context, n Notice) error

// Notify implements Notifier.
func (f NotifierFunc) Notify(ctx context.Context, n Notice) error { return f(ctx, n) }

// ErrLinkUsed: a one-time link opened a second time; it is refused.
var ErrLinkUsed = errors.New("elicit page: one-time link already used")

// onceBinding seals one-time links apart from page and CSRF tokens.
var onceBinding = seal.Binding{Tool: "\x00elicitgen page once"}

// Keys of a one-time link's Flows, besides flowID.
const (
	flowApprover = "w"
)

// onceSegment is the path segment, under the pages' path, of one-time
// links.
const onceSegment = "once/"

// approverList returns the principals to notify of q's page: the policy's
// principals and the members of its groups (Config.Members), each once,
// in order, those the policy admits only.
func (p *Pages) approverList(ctx context.Context, id string, q *question) []string {
	names := slices.Clone(q.Approvers.Principals)
	if p.cfg.Members != nil {
		for _, g := range q.Approvers.Groups {
			ms, err := p.cfg.Members(ctx, g)
			if err != nil {
				p.notifyFailed(ctx, Notice{Page: id, Tool: q.Tool, Requester: q.Principal, Message: q.Message, Need: q.Approvers.Need(), Expires: q.expires}, fmt.Errorf("elicit page: members of group %q: %w", g, err))
				continue
			}
			names = append(names, ms...)
		}
	}
	var out []string
	for _, n := range names {
		if n == "" || slices.Contains(out, n) || p.admit(ctx, q, n) != nil {
			continue
		}
		out = append(out, n)
	}
	return out
}

// notify delivers each allowed approver of the new page id its one-time
// link.
func (p *Pages) notify(ctx context.Context, id string, q *question) {
	if p.cfg.Notify == nil || q.Approvers == nil {
		return
	}
	now := p.now()
	for _, who := range p.approverList(ctx, id, q) {
		n := Notice{Page: id, Approver: who, Tool: q.Tool, Requester: q.Principal, Message: q.Message, Need: q.Approvers.Need(), Expires: q.expires}
		tok, err := p.sealer(now, q.expires).Seal(onceBinding, &seal.State{Flows: map[string]string{flowID: id, flowApprover: who, flowNonce: newID()}})
		if err != nil {
			p.notifyFailed(ctx, n, fmt.Errorf("elicit page: sealing the link: %w", err))
			continue
		}
		n.Link = p.base.String() + onceSegment + tok
		if err := p.cfg.Notify.Notify(ctx, n); err != nil {
			p.notifyFailed(ctx, n, err)
		}
	}
}

func (p *Pages) notifyFailed(ctx context.Context, n Notice, err error) {
	if p.cfg.NotifyFailed != nil {
		p.cfg.NotifyFailed(ctx, n, err)
	}
}

// usedID names the marker of the one-time link whose nonce is nonce.
func usedID(id, nonce string) string {
	sum := sha256.Sum256([]byte("elicitgen page once\x00" + nonce))
	return id + "_o_" + hex.EncodeToString(sum[:16])
}

// isOnce reports whether r's path is a one-time link's.
func (p *Pages) isOnce(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, p.path+onceSegment)
}

// serveOnce opens a one-time link: for its approver only (when
// Config.Identity is set), once (a marker in the Store records its use;
// a second use is refused with 410 and ErrLinkUsed's sentence), and
// redirects to the page.
func (p *Pages) serveOnce(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		p.notice(w, r, nil, http.StatusMethodNotAllowed, func(t *text) string { return t.Method })
		return
	}
	tokStr := tokenOf(r)
	if tokStr == "" || len(tokStr) > maxToken {
		p.notice(w, r, nil, http.StatusNotFound, func(t *text) string { return t.Invalid })
		return
	}
	st, err := (&seal.Sealer{Keys: p.cfg.Keys, Now: p.cfg.Now}).Open(onceBinding, tokStr)
	switch {
	case errors.Is(err, seal.ErrStateExpired):
		p.notice(w, r, nil, http.StatusGone, func(t *text) string { return t.Expired })
		return
	case err != nil || !validID(st.Flows[flowID]) || st.Flows[flowNonce] == "":
		p.notice(w, r, nil, http.StatusNotFound, func(t *text) string { return t.Invalid })
		return
	}
	id, approver := st.Flows[flowID], st.Flows[flowApprover]
	ctx := r.Context()
	e, err := p.store.Get(ctx, id)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			p.notice(w, r, nil, http.StatusNotFound, func(t *text) string { return t.Invalid })
		} else {
			p.notice(w, r, nil, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		}
		return
	}
	q, err := decodeQuestion(e.Question)
	if err != nil {
		p.notice(w, r, nil, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		return
	}
	if p.cfg.Identity != nil {
		who, ok := p.cfg.Identity(r)
		if !ok || who == "" {
			p.notice(w, r, q, http.StatusUnauthorized, func(t *text) string { return t.SignIn })
			return
		}
		if who != approver {
			p.noteRefusal(r, id, q, who, fmt.Errorf("%w: the one-time link is %q's", ErrForeign, approver))
			p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.NotApprover })
			return
		}
	}
	now := p.now()
	if !now.Before(q.expires) {
		p.notice(w, r, q, http.StatusGone, func(t *text) string { return t.Expired })
		return
	}
	mark := Record{ID: usedID(id, st.Flows[flowNonce]), Question: []byte(`{"used":true}`), Closes: q.expires, Until: q.expires.Add(p.cfg.Keep)}
	switch err := p.store.Put(ctx, mark); {
	case errors.Is(err, ErrExists):
		p.notice(w, r, q, http.StatusGone, func(t *text) string { return extraFor(t).Used })
		return
	case err != nil:
		p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		return
	}
	tok, err := p.sealPage(id, q.binding(), now, q.expires)
	if err != nil {
		p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		return
	}
	http.Redirect(w, r, p.path+tok, http.StatusSeeOther)
}

// issued files the new approval page id, q its question, in the store's
// Index (for the approvers' inboxes) and sends the approvers their
// one-time links (Config.Notify).
func (p *Pages) issued(ctx context.Context, id string, q *question) error {
	if err := p.file(ctx, id, q); err != nil {
		return err
	}
	p.notify(ctx, id, q)
	return nil
}
