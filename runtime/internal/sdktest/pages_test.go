package sdktest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// pageSite is an adapter's HTTP handler serving hosted pages, on a
// loopback listener, with one open page.
type pageSite struct {
	url   string // http://127.0.0.1:port
	link  string // the open page
	id    string
	pages *page.Pages
}

func newPageSite(t *testing.T, sdk string, o serve.Options) *pageSite {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	ps := &pageSite{url: "http://" + srv.Listener.Addr().String()}
	keys := seal.NewRandomKeyRing()
	pages, err := page.New(page.Config{Keys: keys, BaseURL: ps.url + "/elicit/", LinkOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ps.pages = pages
	o.Pages, o.PagesPath = pages, "/elicit/"
	switch sdk {
	case goSDK:
		srv.Config.Handler = gosdk.NewHTTPHandler(mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil), &o)
	case mcpGo:
		srv.Config.Handler = mcpgo.NewHTTPHandler(mgserver.NewMCPServer("srv", "v0"), &o)
	}
	srv.Config.ReadHeaderTimeout = o.HeaderTimeout
	srv.Start()
	t.Cleanup(srv.Close)
	schema := &runtime.Schema{Name: "Deploy", Properties: []runtime.Property{
		{Name: "confirmed", Kind: runtime.KindBoolean, Title: "I confirm this deploy", Required: true},
	}}
	link, err := pages.Issue(context.Background(), &page.Question{Schema: schema, Message: "Deploy api to production?", Call: seal.BindCall("deploy", []byte(`{}`), "")})
	if err != nil {
		t.Fatal(err)
	}
	ps.link, ps.id = link.URL, link.ID
	return ps
}

var csrfValue = regexp.MustCompile(`name="csrf" value="([^"]*)"`)

// asHost opens the page and posts an accept with the Host header host
// (and origin as Origin and Sec-Fetch-Site, when set), as a browser does.
// It returns the GET's status, and the POST's (0 when there was no form
// to post).
func (ps *pageSite) asHost(t *testing.T, host, origin, site string) (get, post int) {
	t.Helper()
	c := &http.Client{}
	req, _ := http.NewRequest(http.MethodGet, ps.link, nil)
	req.Host = host
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfValue.FindSubmatch(body)
	if res.StatusCode != http.StatusOK || m == nil {
		return res.StatusCode, 0
	}
	get = res.StatusCode
	var cookie string
	for _, ck := range res.Cookies() {
		cookie = ck.Name + "=" + ck.Value
	}
	form := url.Values{"csrf": {html.UnescapeString(string(m[1]))}, "action": {"accept"}, "confirmed": {"true"}}
	req, _ = http.NewRequest(http.MethodPost, ps.link, strings.NewReader(form.Encode()))
	req.Host = host
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", cookie)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if site != "" {
		req.Header.Set("Sec-Fetch-Site", site)
	}
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return get, res.StatusCode
}

func (ps *pageSite) status(t *testing.T) page.Status {
	t.Helper()
	e, err := ps.pages.Store().Get(context.Background(), ps.id)
	if err != nil {
		t.Fatal(err)
	}
	return e.Status
}

// A page on a loopback listener refuses a Host header that is not a
// loopback name (DNS rebinding: a site re-pointing its name at 127.0.0.1)
// as /mcp does, on both adapters, and records no answer; a cross-origin
// post is refused too. The loopback name itself is served.
func TestPagesRefuseRebinding(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			ps := newPageSite(t, sdk, serve.Options{})
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(ps.url, "http://"))
			evil := "evil.example:" + port

			// /mcp itself refuses the rebound Host (the rule the pages
			// now share).
			req, _ := http.NewRequest(http.MethodPost, ps.url+"/mcp", strings.NewReader(`{}`))
			req.Host = evil
			req.Header.Set("Content-Type", "application/json")
			if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusForbidden {
				t.Fatalf("/mcp with Host %s: %v %v", evil, res, err)
			}
			if get, post := ps.asHost(t, evil, "", ""); get != http.StatusForbidden || post != 0 {
				t.Fatalf("page with Host %s: GET %d, POST %d; want 403 and no form", evil, get, post)
			}
			// A cross-origin post (a form on another site) is refused,
			// whatever its cookie and token.
			if get, post := ps.asHost(t, "localhost:"+port, "https://evil.example", "cross-site"); get != http.StatusOK || post != http.StatusForbidden {
				t.Fatalf("cross-site post: GET %d, POST %d; want 200 and 403", get, post)
			}
			if s := ps.status(t); s != page.StatusOpen {
				t.Fatalf("after the refused requests the page is %v, want open", s)
			}
			if get, post := ps.asHost(t, "localhost:"+port, "http://localhost:"+port, "same-origin"); get != http.StatusOK || post != http.StatusOK {
				t.Fatalf("localhost: GET %d, POST %d", get, post)
			}
			if s := ps.status(t); s != page.StatusAnswered {
				t.Fatalf("after the person's post the page is %v, want answered", s)
			}
			// And pagetest (the plain client of the other tests) still
			// reaches the pages at 127.0.0.1.
			if status, _, err := pagetest.Answer(context.Background(), ps.link, nil, "accept", url.Values{"confirmed": {"true"}}); err != nil || status != http.StatusConflict {
				t.Fatalf("127.0.0.1 after the answer: %d %v, want 409", status, err)
			}
		})
	}
}

// A post to a page that sends its body a byte at a time is cut at the
// configured BodyTimeout, as on /mcp, on both adapters: slow posts cannot
// hold the pages' connections.
func TestPagesSlowBodyCut(t *testing.T) {
	const deadline = 300 * time.Millisecond
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			ps := newPageSite(t, sdk, serve.Options{BodyTimeout: deadline, HeaderTimeout: time.Second})
			u, _ := url.Parse(ps.link)
			conn, err := net.Dial("tcp", u.Host)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4096\r\n\r\n", u.Path, u.Host)
			// Trickle the body well within each byte's gap, for up to 20
			// times the deadline.
			stop := make(chan struct{})
			go func() {
				tick := time.NewTicker(deadline / 6)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						if _, err := conn.Write([]byte("a")); err != nil {
							return
						}
					}
				}
			}()
			defer close(stop)
			conn.SetReadDeadline(time.Now().Add(20 * deadline))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the slow post was still open after 20 times the body deadline")
			}
			if err == nil {
				// The server answered the cut body; the connection ends.
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode < 400 {
					t.Fatalf("slow post answered %d", res.StatusCode)
				}
				conn.SetReadDeadline(time.Now().Add(20 * deadline))
				if _, err := conn.Read(make([]byte, 1)); err == nil || (errors.As(err, &ne) && ne.Timeout()) {
					t.Fatalf("the connection stayed open after the cut: %v", err)
				}
			}
			if s := ps.status(t); s != page.StatusOpen {
				t.Fatalf("page %v after a cut post", s)
			}
		})
	}
}
