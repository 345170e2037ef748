package page

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/templates"
)

// This file keeps the index of open approval pages by who may answer
// them (Index) and serves an approver's inbox from it: Config.BaseURL +
// "inbox".

// Index is the index of open approval pages (runtime.WithApprovers) by
// the principals and groups their policy names, kept beside the pages by
// a Store that implements it (MemoryStore, redisstore.PageStore). It is
// only a list of candidates: the inbox checks each page as the page
// itself does (open, not closed, the person admitted and not yet
// answered) before it shows it.
type Index interface {
	// File files the page id under each of principals and groups, until
	// until (the page's closing).
	File(ctx context.Context, id string, principals, groups []string, until time.Time) error
	// Filed returns the ids filed under principal or any of groups, not
	// past their until, each once.
	Filed(ctx context.Context, principal string, groups []string) ([]string, error)
	// FiledGroups returns the groups under which pages are filed, so
	// that the inbox resolves a person's groups (Config.Member) when it
	// is read.
	FiledGroups(ctx context.Context) ([]string, error)
}

// InboxPath is the path, under Config.BaseURL's, of the inbox page.
const InboxPath = "inbox"

// file files the new approval page id of q in the store's Index, if it
// has one.
func (p *Pages) file(ctx context.Context, id string, q *question) error {
	ix, ok := p.store.(Index)
	if !ok || q.Approvers == nil {
		return nil
	}
	return ix.File(ctx, id, q.Approvers.Principals, q.Approvers.Groups, q.expires)
}

// Waiting is one question waiting for an approver, as their inbox lists
// it.
type Waiting struct {
	// Page names the page; Link opens it (Config.BaseURL + a token).
	Page, Link string
	// Tool is the tool whose call asks; Requester the call's principal.
	Tool, Requester string
	// Message is the question's text; Language its language ("" for
	// the form's source text).
	Message, Language string
	// Expires is when the page closes.
	Expires time.Time
	// Needed is how many approvals it still needs.
	Needed int
}

// ErrNoIndex: the Store keeps no Index, so there is no inbox.
var ErrNoIndex = errors.New("elicit page: the store keeps no inbox index")

// Inbox returns the questions waiting for approver: open approval pages
// whose policy admits them (principal, or groups resolved now by
// Config.Member), not closed, and not yet answered by them, soonest
// closing first. ErrNoIndex when the Store keeps no Index.
func (p *Pages) Inbox(ctx context.Context, approver string) ([]Waiting, error) {
	ix, ok := p.store.(Index)
	if !ok {
		return nil, ErrNoIndex
	}
	if approver == "" {
		return nil, nil
	}
	var groups []string
	if p.cfg.Member != nil {
		all, err := ix.FiledGroups(ctx)
		if err != nil {
			return nil, storeErr("inbox", err)
		}
		for _, g := range all {
			if ok, err := p.cfg.Member(ctx, approver, g); err == nil && ok {
				groups = append(groups, g)
			}
		}
	}
	ids, err := ix.Filed(ctx, approver, groups)
	if err != nil {
		return nil, storeErr("inbox", err)
	}
	now := p.now()
	var out []Waiting
	for _, id := range ids {
		e, err := p.store.Get(ctx, id)
		switch {
		case errors.Is(err, ErrNotFound):
			continue
		case err != nil:
			return nil, storeErr("inbox", err)
		}
		// The stored fields alone: the inbox needs no schema.
		q := &question{}
		if err := json.Unmarshal(e.Question, &q.stored); err != nil {
			return nil, fmt.Errorf("%w: stored question does not decode: %v", ErrStore, err)
		}
		q.expires = time.UnixMilli(q.Expires)
		if e.Status != StatusOpen || !now.Before(q.expires) || q.Approvers == nil || p.admit(ctx, q, approver) != nil {
			continue
		}
		switch _, err := p.store.Get(ctx, voterID(id, approver)); {
		case err == nil:
			continue // answered already
		case !errors.Is(err, ErrNotFound):
			return nil, storeErr("inbox", err)
		}
		need, got := q.Approvers.Need(), 0
		for i := 1; i < need; i++ {
			_, err := p.store.Get(ctx, slotID(id, i))
			if errors.Is(err, ErrNotFound) {
				break
			}
			if err != nil {
				return nil, storeErr("inbox", err)
			}
			got++
		}
		tok, err := p.sealPage(id, q.binding(), now, q.expires)
		if err != nil {
			return nil, err
		}
		out = append(out, Waiting{Page: id, Link: p.base.String() + tok, Tool: q.Tool, Requester: q.Principal,
			Message: q.Message, Language: q.Language, Expires: q.expires, Needed: need - got})
	}
	slices.SortFunc(out, func(a, b Waiting) int { return cmp.Or(a.Expires.Compare(b.Expires), strings.Compare(a.Page, b.Page)) })
	return out, nil
}

var inboxTemplate = template.Must(template.ParseFS(templates.Inbox, "inbox.html"))

// inboxView is the data of inbox.html.
type inboxView struct {
	Lang   string
	Title  string
	CSS    template.CSS
	Words  *extra
	Notice string
	Items  []inboxItem
}

type inboxItem struct {
	Link, Tool, Requester, Message, ContentLang, Closes, Needed string
}

// isInbox reports whether r's path is the inbox's.
func (p *Pages) isInbox(r *http.Request) bool { return r.URL.Path == p.path+InboxPath }

// serveInbox serves the inbox of the person the request comes from
// (Config.Identity), in their browser's language.
func (p *Pages) serveInbox(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		p.notice(w, r, nil, http.StatusMethodNotAllowed, func(t *text) string { return t.Method })
		return
	}
	t, _ := p.language(r, nil)
	words := extraFor(t)
	v := &inboxView{Lang: t.Lang, Title: words.Inbox, Words: words}
	status := http.StatusOK
	who := ""
	if p.cfg.Identity != nil {
		who, _ = p.cfg.Identity(r)
	}
	items, err := p.Inbox(r.Context(), who)
	switch {
	case who == "":
		status, v.Notice = http.StatusUnauthorized, t.SignIn
	case errors.Is(err, ErrNoIndex):
		status, v.Notice = http.StatusNotFound, t.Invalid
	case err != nil:
		status, v.Notice = http.StatusServiceUnavailable, t.Store
	}
	if v.Notice == "" {
		now := p.now()
		for _, it := range items {
			item := inboxItem{Link: it.Link, Tool: it.Tool, Requester: it.Requester, Message: it.Message,
				Closes: t.closes(it.Expires, now), Needed: strconv.Itoa(it.Needed)}
			if content := cmp.Or(it.Language, "en"); !strings.EqualFold(content, t.Lang) {
				item.ContentLang = content
			}
			v.Items = append(v.Items, item)
		}
	}
	v.CSS = pageCSS
	w.Header().Set("Content-Language", v.Lang)
	var buf bytes.Buffer
	if err := inboxTemplate.Execute(&buf, v); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}
