package page

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/templates"
)

var (
	pageTemplate = template.Must(template.ParseFS(templates.Page, "page.html"))
	pageCSS      = func() template.CSS {
		b, err := templates.Page.ReadFile("page.css")
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		return template.CSS(bytes.TrimSpace(b))
	}()
	// contentSecurityPolicy allows nothing but the page's own inline
	// style sheet (by its hash) and posting the form to the page itself.
	contentSecurityPolicy = func() string {
		sum := sha256.Sum256([]byte(pageCSS))
		return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
			"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
	}()
)

// csrfCookie names the cookie that double-submits the CSRF token.
const csrfCookie = "elicit_csrf"

// setHeaders sets the headers of every response of the handler.
func setHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Content-Type", "text/html; charset=utf-8")
}

// ServeHTTP serves the page whose token is the last segment of the
// request's path: GET shows it, POST answers it. Every refusal is one
// plain sentence with a 4xx status (5xx when the store fails), and
// stores nothing.
func (p *Pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setHeaders(w)
	if p.isOnce(r) {
		p.serveOnce(w, r)
		return
	}
	if p.isInbox(r) {
		p.serveInbox(w, r)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		p.notice(w, r, nil, http.StatusMethodNotAllowed, func(t *text) string { return t.Method })
		return
	}
	tokStr := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
	if tokStr == stepUpScript && r.Method != http.MethodPost {
		serveScript(w, r)
		return
	}
	tok, err := p.openPage(tokStr)
	if err != nil {
		if errors.Is(err, ErrExpired) {
			p.notice(w, r, nil, http.StatusGone, func(t *text) string { return t.Expired })
		} else {
			p.notice(w, r, nil, http.StatusNotFound, func(t *text) string { return t.Invalid })
		}
		return
	}
	if r.Method == http.MethodPost {
		// Read the body before anything else, within its limit.
		if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/x-www-form-urlencoded" {
			p.notice(w, r, nil, http.StatusUnsupportedMediaType, func(t *text) string { return t.BadPost })
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, p.cfg.MaxBody)
		if err := r.ParseForm(); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				p.notice(w, r, nil, http.StatusRequestEntityTooLarge, func(t *text) string { return t.TooLarge })
			} else {
				p.notice(w, r, nil, http.StatusBadRequest, func(t *text) string { return t.BadPost })
			}
			return
		}
	}
	ctx := r.Context()
	e, err := p.store.Get(ctx, tok.id)
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
	if q.binding() != tok.call {
		p.notice(w, r, nil, http.StatusNotFound, func(t *text) string { return t.Invalid })
		return
	}
	who := ""
	if p.cfg.Identity != nil {
		var ok bool
		who, ok = p.cfg.Identity(r)
		if !ok || who == "" {
			p.notice(w, r, q, http.StatusUnauthorized, func(t *text) string { return t.SignIn })
			return
		}
		if err := p.admit(ctx, q, who); err != nil {
			p.noteRefusal(r, tok.id, q, who, err)
			p.refuse(w, r, q, err)
			return
		}
	}
	if e.Status != StatusOpen {
		p.notice(w, r, q, http.StatusConflict, func(t *text) string { return t.Answered })
		return
	}
	if !p.now().Before(q.expires) {
		p.notice(w, r, q, http.StatusGone, func(t *text) string { return t.Expired })
		return
	}
	if q.Approvers.Need() > 1 {
		switch _, err := p.store.Get(ctx, voterID(tok.id, who)); {
		case err == nil:
			p.noteRefusal(r, tok.id, q, who, ErrAnswered)
			p.notice(w, r, q, http.StatusConflict, func(t *text) string { return t.Again })
			return
		case !errors.Is(err, ErrNotFound):
			p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
			return
		}
	}
	if r.Method != http.MethodPost {
		p.showForm(w, r, tok, q, nil, nil, http.StatusOK)
		return
	}
	p.answer(ctx, w, r, tok, q, who)
}

// answer handles the post of an open page that the request's person may
// answer.
func (p *Pages) answer(ctx context.Context, w http.ResponseWriter, r *http.Request, tok *pageToken, q *question, who string) {
	c, err := r.Cookie(csrfCookie)
	if err != nil || !p.checkCSRF(r.PostForm.Get("csrf"), tok.id, c.Value) || len(r.PostForm["csrf"]) != 1 {
		p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.Stale })
		return
	}
	var a answer
	switch acts := r.PostForm["action"]; {
	case len(acts) == 1 && acts[0] == "decline":
		a.Action = "decline"
	case len(acts) == 1 && acts[0] == "accept":
		t, errLang := p.language(r, q)
		content, bad := p.content(q.schema, r.PostForm, t)
		var errs []fieldProblem
		if len(bad) == 0 {
			errs = problems(q.schema.CheckAnswer(content), p.cfg.Messages, errLang, q.schema)
			if len(errs) == 0 && p.cfg.Validate != nil {
				errs = problems(p.cfg.Validate(q.Form, content), p.cfg.Messages, errLang, q.schema)
			}
			errs = append(errs, unconfirmed(q.schema, content, t)...)
		}
		if len(bad)+len(errs) > 0 {
			p.showForm(w, r, tok, q, r.PostForm, append(bad, errs...), http.StatusUnprocessableEntity)
			return
		}
		a.Action, a.Content = "accept", content
	default:
		p.notice(w, r, q, http.StatusBadRequest, func(t *text) string { return t.BadPost })
		return
	}
	enc, err := json.Marshal(&a)
	if err != nil {
		p.notice(w, r, q, http.StatusBadRequest, func(t *text) string { return t.BadPost })
		return
	}
	if q.StepUp && a.Action == "accept" && !p.stepUp(ctx, w, r, tok.id, q, who, enc) {
		return
	}
	if q.Approvers != nil {
		done, by, got, err := p.vote(ctx, tok.id, q, who, enc, a.Action == "decline")
		switch {
		case errors.Is(err, ErrAnswered):
			p.noteRefusal(r, tok.id, q, who, ErrAnswered)
			p.notice(w, r, q, http.StatusConflict, func(t *text) string { return t.Again })
			return
		case errors.Is(err, ErrDiffers):
			p.noteRefusal(r, tok.id, q, who, ErrDiffers)
			p.notice(w, r, q, http.StatusConflict, func(t *text) string { return t.Differs })
			return
		case err != nil:
			p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
			return
		case !done:
			need := q.Approvers.Need()
			p.notice(w, r, q, http.StatusOK, func(t *text) string {
				return fill(t.Counted, "", strconv.Itoa(got), strconv.Itoa(need))
			})
			return
		}
		a.By = by
		if enc, err = json.Marshal(&a); err != nil {
			p.notice(w, r, q, http.StatusBadRequest, func(t *text) string { return t.BadPost })
			return
		}
	}
	if q.StepUp && a.Action == "accept" {
		a.Verified = VerifiedPasskey
		if enc, err = json.Marshal(&a); err != nil {
			p.notice(w, r, q, http.StatusBadRequest, func(t *text) string { return t.BadPost })
			return
		}
	}
	switch err := p.store.Answer(ctx, tok.id, enc); {
	case err == nil:
	case errors.Is(err, ErrAnswered):
		p.notice(w, r, q, http.StatusConflict, func(t *text) string { return t.Answered })
		return
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrExpired): // closed, by the store's clock
		p.notice(w, r, q, http.StatusGone, func(t *text) string { return t.Expired })
		return
	default:
		p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		return
	}
	if a.Action == "decline" {
		p.notice(w, r, q, http.StatusOK, func(t *text) string { return t.Declined })
		return
	}
	p.notice(w, r, q, http.StatusOK, p.sent(ctx, tok.id, q))
}

// sent returns the notice after an accepted answer of page id: sent when
// a call waits for it (Hold) and takes it now; when none does, to go back
// to the client and confirm there (Question.ClientContinues), or kept for
// the same call made again, saying until when (for an approval: that the
// requester must make the request again); either, in words true of both,
// when the page cannot tell.
func (p *Pages) sent(ctx context.Context, id string, q *question) func(*text) string {
	switch p.waiting(ctx, id) {
	case waitHeld:
		return func(t *text) string { return t.Sent }
	case waitNone:
		if q.ClientContinues {
			return func(t *text) string { return t.Continue }
		}
		until := q.expires.Add(p.cfg.Keep).UTC()
		if q.Approvers != nil && q.Principal != "" {
			return func(t *text) string { return fill(t.KeptApproval, "", q.Principal, until.Format(t.ClosesAt)) }
		}
		return func(t *text) string { return fill(t.Kept, "", until.Format(t.ClosesAt)) }
	}
	return func(t *text) string { return t.Saved }
}

// view is the data of page.html.
type view struct {
	Lang    string
	Title   string // the heading and <title>
	CSS     template.CSS
	Text    *text
	Notice  string
	Message string
	Summary []summaryItem
	Fields  []fieldView
	Action  string
	CSRF    string
	Expires string
	// Asker says which server and tool ask.
	Asker string
	// ContentLang is the language of the question's own text (message,
	// titles, options) when it differs from Lang, the page's words.
	ContentLang string
	// ErrLang is the language of the runtime's sentences about invalid
	// fields when it differs from Lang (a Config.Messages language the
	// page's words lack).
	ErrLang string
	// StepUp is the path of the step-up script, for a question asked
	// with runtime.WithStepUp; "" otherwise.
	StepUp string
}

type summaryItem struct {
	Target string // the id of the field, "" for the form
	Text   string
}

// notice writes a page of one sentence, in the question's language, or
// the request's when there is no question.
func (p *Pages) notice(w http.ResponseWriter, r *http.Request, q *question, status int, say func(*text) string) {
	t, _ := p.language(r, q)
	msg := say(t)
	p.render(w, r, status, &view{Lang: t.Lang, Title: t.heading(msg), Text: t, Notice: msg})
}

// language returns the page's words for a request about q (nil when
// there is none), and the language of the runtime's sentences on it
// (Config.Messages): each is the first of the call's preference, the
// question's language and the browser's Accept-Language that it has,
// else English. The person's language comes first, so that a form
// without their translation still has its buttons, hints and errors in
// it.
func (p *Pages) language(r *http.Request, q *question) (*text, string) {
	prefs := []string{r.Header.Get("Accept-Language")}
	if q != nil {
		prefs = []string{q.Preference, q.Language, prefs[0]}
	}
	t := textFor(prefs...)
	tags := p.cfg.Messages.Tags()
	for _, pref := range prefs {
		if pref == "" {
			continue
		}
		if tag := runtime.MatchLanguage(pref, tags...); tag != "" {
			return t, tag
		}
	}
	return t, "en"
}

// render writes v with status; the template is executed into a buffer
// first, so that a failure never sends half a page.
func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, v *view) {
	v.CSS = pageCSS
	w.Header().Set("Content-Language", v.Lang)
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, v); err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// showForm writes the form of q: as issued (posted nil), or with what
// was posted and the problems found.
func (p *Pages) showForm(w http.ResponseWriter, r *http.Request, tok *pageToken, q *question, posted url.Values, errs []fieldProblem, status int) {
	t, errLang := p.language(r, q)
	nonce := ""
	if c, err := r.Cookie(csrfCookie); err == nil && validNonce(c.Value) {
		nonce = c.Value
	} else {
		var b [16]byte
		rand.Read(b[:])
		nonce = hex.EncodeToString(b[:])
	}
	csrf, err := p.sealCSRF(tok.id, nonce, q.expires)
	if err != nil {
		p.notice(w, r, q, http.StatusServiceUnavailable, func(t *text) string { return t.Store })
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: csrfCookie, Value: nonce, Path: p.path + tokenOf(r),
		MaxAge:   max(1, int(q.expires.Sub(p.now()).Seconds())),
		HttpOnly: true, Secure: p.base.Scheme == "https", SameSite: http.SameSiteStrictMode,
	})
	v := &view{
		Lang: t.Lang, Title: t.Title, Text: t, Message: q.Message,
		Action: p.path + tokenOf(r), CSRF: csrf, Expires: t.closes(q.expires, p.now()),
		Asker: t.asker(p.cfg.Name, q.Tool),
	}
	if q.Approvers != nil && q.Principal != "" {
		// An approver must know whose action they approve.
		v.Asker = strings.TrimSpace(v.Asker + " " + fill(t.RequestedBy, "", q.Principal))
	}
	if content := cmp.Or(q.Language, "en"); !strings.EqualFold(content, t.Lang) {
		v.ContentLang = content
	}
	if !strings.EqualFold(errLang, t.Lang) {
		v.ErrLang = errLang
	}
	v.Fields, v.Summary = fields(q.schema, posted, errs, t)
	if q.StepUp {
		v.StepUp = p.path + stepUpScript
		w.Header().Set("Content-Security-Policy", stepUpPolicy)
	}
	p.render(w, r, status, v)
}

// tokenOf returns the last segment of the request's path: the token.
func tokenOf(r *http.Request) string {
	return r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
}

func validNonce(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
