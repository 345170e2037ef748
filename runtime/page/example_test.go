package page_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// Pages are mounted on the server's mux; a question asked of a client
// that cannot show it is issued as a page, and its answer taken once.
func Example() {
	pages, err := page.New(page.Config{
		Keys:    seal.NewRandomKeyRing(),
		BaseURL: "https://mcp.example.com/elicit/",
		Identity: func(r *http.Request) (string, bool) {
			user := r.Header.Get("X-Forwarded-User") // set by the identity-aware proxy
			return user, user != ""
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/elicit/", pages)

	ctx := context.Background()
	call := seal.BindCall("deploy", []byte(`{"service":"api"}`), "alice")
	schema := &runtime.Schema{Name: "Deploy", Properties: []runtime.Property{
		{Name: "confirmed", Kind: runtime.KindBoolean, Title: "I confirm this deploy", Required: true},
	}}
	link, err := pages.Issue(ctx, &page.Question{Schema: schema, Message: "Deploy api to production?", Call: call})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.HasPrefix(link.URL, "https://mcp.example.com/elicit/"))

	_, err = pages.Take(ctx, link.ID, call)
	fmt.Println(errors.Is(err, page.ErrNotAnswered))
	// Output:
	// true
	// true
}
