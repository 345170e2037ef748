// Package wiretest holds helpers shared by the tests of the runtime and
// of the example, and by the demo: a go-sdk transport that shows every
// message to the caller (and may replace the ones it writes), a
// goroutine leak check, and the malformed-lines check both SDKs' stdio
// servers are held to (stdio.go).
package wiretest

import (
	"context"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport wraps an mcp.Transport. Each connection it makes calls Read,
// when set, with every message read, and Write, when set, with every
// message about to be written; the message Write returns is written
// instead.
type Transport struct {
	mcp.Transport
	Read  func(jsonrpc.Message)
	Write func(jsonrpc.Message) jsonrpc.Message
}

// Connect implements mcp.Transport.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &conn{Connection: c, t: t}, nil
}

type conn struct {
	mcp.Connection
	t *Transport
}

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil && c.t.Read != nil {
		c.t.Read(m)
	}
	return m, err
}

func (c *conn) Write(ctx context.Context, m jsonrpc.Message) error {
	if c.t.Write != nil {
		m = c.t.Write(m)
	}
	return c.Connection.Write(ctx, m)
}

// CheckNoLeaks fails t if, within three seconds, a goroutine whose stack
// mentions prefix (a package path) is still alive, other than test
// goroutines and the running one. Call it after the test's cleanup.
func CheckNoLeaks(t testing.TB, prefix string) {
	t.Helper()
	var leaked []string
	deadline := time.Now().Add(3 * time.Second)
	for {
		leaked = leaked[:0]
		buf := make([]byte, 1<<20)
		buf = buf[:goruntime.Stack(buf, true)]
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, prefix) && !strings.Contains(g, "testing.tRunner") && !strings.Contains(g, "[running]") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(leaked) > 0 {
		t.Errorf("%d goroutine(s) running %s code leaked:\n%s", len(leaked), prefix, strings.Join(leaked, "\n\n"))
	}
}
