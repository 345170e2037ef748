package passkey

import (
	_ "embed"
	"html/template"
	"io"
	"net/http"
	"strings"
)

//go:embed register.html
var registerHTML string

//go:embed register.js
var registerJS []byte

var registerTemplate = template.Must(template.New("register").Parse(registerHTML))

// maxCredential bounds the body of a registration's finish.
const maxCredential = 64 << 10

// RegisterHandler returns the page on which a signed-in person registers
// a passkey (for a demo, or a server without its own account pages),
// to mount under a path ending in "/" (for example
// "/elicit/passkey/"): GET "register" shows it, and its script (served
// as "register.js", the only script its Content-Security-Policy allows)
// posts to "begin" and "finish" as JSON, which a cross-site form cannot
// send. identity must read the person as the pages' Config.Identity does.
//
// A step-up is only as strong as the registration of the passkey it
// checks: whoever can register a passkey for a person can then approve
// as them. This page trusts identity alone, which suits a demo; in
// production, register passkeys where your accounts are managed, after
// a fresh sign-in (or a step-up with a passkey already registered).
func (k *Passkeys) RegisterHandler(identity func(*http.Request) (principal string, ok bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		seg := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		if seg == "register.js" && r.Method == http.MethodGet {
			h.Set("Content-Type", "text/javascript; charset=utf-8")
			w.Write(registerJS)
			return
		}
		who, ok := identity(r)
		if !ok || who == "" {
			http.Error(w, "Sign in to register a passkey.", http.StatusUnauthorized)
			return
		}
		switch {
		case seg == "register" && r.Method == http.MethodGet:
			h.Set("Content-Type", "text/html; charset=utf-8")
			registerTemplate.Execute(w, struct{ Who string }{who})
		case (seg == "begin" || seg == "finish") && r.Method == http.MethodPost:
			if r.Header.Get("Content-Type") != "application/json" {
				http.Error(w, "Post JSON.", http.StatusUnsupportedMediaType)
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxCredential))
			if err != nil {
				http.Error(w, "The request is too large.", http.StatusRequestEntityTooLarge)
				return
			}
			if seg == "begin" {
				opts, err := k.BeginRegistration(r.Context(), who)
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				h.Set("Content-Type", "application/json")
				w.Write(opts)
				return
			}
			if err := k.FinishRegistration(r.Context(), who, body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			h.Set("Content-Type", "application/json")
			w.Write([]byte(`{"registered":true}`))
		default:
			http.Error(w, "Not found.", http.StatusNotFound)
		}
	})
}
