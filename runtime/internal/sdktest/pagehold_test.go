package sdktest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// rendering is the server-wide rendering the options ask for: every form
// to the hosted page in URL mode when there are pages.
func (o *serverOpts) rendering() runtime.Rendering {
	if o.pages != nil {
		return runtime.RenderingURLPage
	}
	return runtime.RenderingAuto
}

// hostedPages serves every form of the server as a hosted page (on its
// own HTTP listener, whose base URL it returns), asked in URL mode, with
// a 2025-era call holding its request at most hold.
func hostedPages(t *testing.T, hold time.Duration) (serverOpt, string) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + "/elicit/"
	pages, err := page.New(page.Config{Keys: seal.NewRandomKeyRing(), BaseURL: base, LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = pages
	srv.Start()
	t.Cleanup(srv.Close)
	return func(o *serverOpts) { o.pages, o.pageHold = pages, hold }, base
}

// TestPageHoldEnds: on every pair of SDKs, a 2025-11-25 call whose
// question went to the hosted page in URL mode holds its request at most
// PageHold, then returns the page's link and tells the model to call
// again; the person answers after that, the page says the answer is kept
// (not sent), and the same call made again takes it without a second
// URL-mode request. The tool runs on the kept answer once.
func TestPageHoldEnds(t *testing.T) {
	for _, server := range sdks {
		for _, client := range sdks {
			t.Run(server+"-server/"+client+"-client", func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				opt, base := hostedPages(t, 200*time.Millisecond)
				s := newServer(t, server, runtime.UnavailableAuto, opt)
				var pushes atomic.Int64
				c := connect(t, s, client, clientOpts{version: runtime.Version20251125, url: true,
					answer: func(_ context.Context, q question) (*runtime.Response, error) {
						pushes.Add(1)
						if q.Mode != "url" || !strings.HasPrefix(q.URL, base) {
							t.Errorf("asked %+v, want the hosted page in URL mode", q)
						}
						return &runtime.Response{Action: runtime.ActionAccept}, nil // opened; not answered yet
					}})
				res, err := c.call(ctx, "deploy", nil)
				if err != nil {
					t.Fatal(err)
				}
				link := pagetest.LinkIn(res.Text, base)
				if !res.IsError || link == "" || !strings.Contains(res.Text, "has not answered yet") ||
					!strings.Contains(res.Text, "again with exactly the same arguments") {
					t.Fatalf("the call whose hold ended: %+v", res)
				}
				answer := url.Values{"branch": {"main"}, "env": {"prod"}, "replicas": {"2"}, "confirm": {"true"}}
				status, body, err := pagetest.Answer(ctx, link, nil, "accept", answer)
				if err != nil || status != http.StatusOK || !strings.Contains(body, "the request that asked for it is no longer waiting") || strings.Contains(body, "was sent") {
					t.Fatalf("the page after the hold: %d %v\n%s", status, err, body)
				}
				res, err = c.call(ctx, "deploy", nil)
				if err != nil || res.IsError || res.Text != "deployed main to prod x2 confirm=true" {
					t.Fatalf("the same call again: %+v %v", res, err)
				}
				if n := pushes.Load(); n != 1 {
					t.Errorf("%d URL-mode requests, want 1", n)
				}
			})
		}
	}
}
