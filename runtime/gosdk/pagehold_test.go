package gosdk_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/internal/pagetest"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

// keptNotice is what the page says after an answer no call waits for.
const keptNotice = "the request that asked for it is no longer waiting"

// urlOnly returns client options declaring URL mode only, whose
// elicitation handler is h, counting the requests in pushes.
func urlOnly(pushes *atomic.Int64, h func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error)) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			pushes.Add(1)
			if req.Params.Mode != "url" {
				return nil, errors.New("not a URL-mode request")
			}
			return h(ctx, req)
		},
	}
}

// callEnded waits for the observer's call_end event.
func (ps *pagesServer) callEnded(t *testing.T) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-ps.events:
			if e.Kind == runtime.EventCallEnd {
				return
			}
		case <-timeout:
			t.Fatal("the call did not end")
		}
	}
}

// A 2025-11-25 client that gives up on the call (it cancels the request)
// while the person has the page open does not end the page: the person
// answers later, the page says the answer is kept (not "sent"), and the
// same call made again takes it without asking again.
func TestPagesURLModeClientGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ps := newPagesServer(t, nil)
	var pushes atomic.Int64
	links := make(chan string, 4)
	cs := connect(t, ctx, ps, "alice", runtime.Version20251125, urlOnly(&pushes, func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		links <- req.Params.URL
		return &mcp.ElicitResult{Action: "accept"}, nil // the browser opens; the person answers later
	}))
	callCtx, giveUp := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "deploy", Arguments: map[string]any{"service": "api"}})
		done <- err
	}()
	var link string
	select {
	case link = <-links:
	case <-ctx.Done():
		t.Fatal("no URL-mode request")
	}
	giveUp()
	<-done
	ps.callEnded(t)
	status, body, err := pagetest.Answer(ctx, link, as("alice"), "accept", deployAnswer)
	if err != nil || status != http.StatusOK || !strings.Contains(body, keptNotice) || strings.Contains(body, "was sent") {
		t.Fatalf("the page after the client gave up: %d %v\n%s", status, err, body)
	}
	if text, isErr := call(t, ctx, cs, "api"); isErr || text != "deployed api: release to prod x3" {
		t.Fatalf("the same call again: isError %v: %s", isErr, text)
	}
	if n := pushes.Load(); n != 1 {
		t.Errorf("%d URL-mode requests, want 1: the same call again takes the kept answer", n)
	}
	if n := ps.deploys.Load(); n != 1 {
		t.Fatalf("%d deploys", n)
	}
}

// A 2025-11-25 call holds its request for the page's answer at most
// Config.PageHold: then its result carries the page's link and tells the
// model to call again; the page stays open. An answer given then is kept
// (the page says so) and taken by the same call made again; a call made
// again before the answer sends the person back to the same page and
// waits, and an answer given while it waits is sent.
func TestPagesURLModeHoldEnds(t *testing.T) {
	for _, answerFirst := range []bool{true, false} {
		name := "answered-between-calls"
		if !answerFirst {
			name = "answered-while-the-next-call-waits"
		}
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			ps := newPagesServer(t, nil, func(c *gosdk.Config) { c.PageHold = 300 * time.Millisecond })
			var pushes atomic.Int64
			var second string
			cs := connect(t, ctx, ps, "alice", runtime.Version20251125, urlOnly(&pushes, func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				if pushes.Load() == 1 {
					return &mcp.ElicitResult{Action: "accept"}, nil // not answered in time
				}
				if !strings.Contains(req.Params.Message, "still open from before") {
					return nil, errors.New("message: " + req.Params.Message)
				}
				_, body, err := pagetest.Answer(ctx, req.Params.URL, as("alice"), "accept", deployAnswer)
				second = body
				return &mcp.ElicitResult{Action: "accept"}, err
			}))
			text, isErr := call(t, ctx, cs, "api")
			link := pagetest.LinkIn(text, ps.base)
			if !isErr || link == "" || !strings.Contains(text, "has not answered yet") ||
				!strings.Contains(text, `call the tool "deploy" again with exactly the same arguments`) {
				t.Fatalf("the call whose hold ended: isError %v:\n%s", isErr, text)
			}
			if answerFirst {
				status, body, err := pagetest.Answer(ctx, link, as("alice"), "accept", deployAnswer)
				if err != nil || status != http.StatusOK || !strings.Contains(body, keptNotice) {
					t.Fatalf("the page after the hold: %d %v\n%s", status, err, body)
				}
			}
			if text, isErr := call(t, ctx, cs, "api"); isErr || text != "deployed api: release to prod x3" {
				t.Fatalf("the same call again: isError %v: %s", isErr, text)
			}
			want := int64(2)
			if answerFirst {
				want = 1
			} else if !strings.Contains(second, "your answer was sent") {
				t.Errorf("the page while the next call waits:\n%s", second)
			}
			if n := pushes.Load(); n != want {
				t.Errorf("%d URL-mode requests, want %d", n, want)
			}
			if n := ps.deploys.Load(); n != 1 {
				t.Fatalf("%d deploys", n)
			}
		})
	}
}
