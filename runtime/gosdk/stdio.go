package gosdk

import (
	"errors"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// StdioTransport returns the stdio transport (os.Stdin, os.Stdout) of a
// server that outlives a malformed line: go-sdk's mcp.StdioTransport ends
// the connection, and with it the server, on the first line it cannot
// decode. This one answers such a line itself (JSON-RPC -32700 for a line
// that is not JSON, nested deeper than serve.MaxLineDepth or longer
// than maxLineBytes; -32600 for JSON that is not a message), with the
// line's id when one can be read, so that the client's pending call ends,
// and goes on with the next line (see adapter.LineFilter). maxLineBytes
// <= 0 means serve.DefaultMaxLineBytes.
func StdioTransport(maxLineBytes int) mcp.Transport {
	return IOTransport(os.Stdin, nopCloser{os.Stdout}, maxLineBytes)
}

// nopCloser is a writer whose Close does nothing: the process's stdout
// outlives a session.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// IOTransport is StdioTransport over r and w.
func IOTransport(r io.ReadCloser, w io.WriteCloser, maxLineBytes int) mcp.Transport {
	f := adapter.NewLineFilter(r, w, maxLineBytes, checkMessage, nil)
	// The filter also reads answers with exact keys (adapter.ExactAnswers).
	return &mcp.IOTransport{Reader: readCloser{f, r}, Writer: f.Writer(), MaxLineLength: -1}
}

// checkMessage reports whether line, which is JSON, is a message go-sdk
// decodes (batches never reach it: adapter.CheckEnvelope refuses them).
func checkMessage(line []byte) error {
	_, err := jsonrpc.DecodeMessage(line)
	return err
}

// readCloser reads from a filter and closes its source.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }

// TaskStdioTransport is StdioTransport with the MCP Tasks extension
// (io.modelcontextprotocol/tasks) served in front of the server by ts (see
// tasks.Server.Stdio): a 2026-07-28 tools/call that declares the extension
// and whose tool asks becomes a task, and tasks/get, tasks/update and
// tasks/cancel are answered for opts.Principal. Every other line passes
// through unchanged. Advertise the extension with TaskCapabilities. A nil
// ts is StdioTransport.
func TaskStdioTransport(ts *tasks.Server, opts tasks.StdioOptions, maxLineBytes int) mcp.Transport {
	return TaskIOTransport(os.Stdin, nopCloser{os.Stdout}, ts, opts, maxLineBytes)
}

// TaskIOTransport is TaskStdioTransport over r and w.
func TaskIOTransport(r io.ReadCloser, w io.WriteCloser, ts *tasks.Server, opts tasks.StdioOptions, maxLineBytes int) mcp.Transport {
	if ts == nil {
		return IOTransport(r, w, maxLineBytes)
	}
	f := adapter.NewLineFilter(r, w, maxLineBytes, checkMessage, nil)
	front := ts.Stdio(f, f.Writer(), opts)
	return &mcp.IOTransport{Reader: readCloser{front, closeBoth{front, r}}, Writer: writeCloser{front, f.Writer()}, MaxLineLength: -1}
}

// closeBoth closes a then b.
type closeBoth struct{ a, b io.Closer }

func (c closeBoth) Close() error { return errors.Join(c.a.Close(), c.b.Close()) }

// writeCloser writes to a front and closes the stream under it.
type writeCloser struct {
	io.Writer
	c io.Closer
}

func (w writeCloser) Close() error { return w.c.Close() }
