package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/mark3labs/mcp-go/server"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// ServeStdio serves s on os.Stdin and os.Stdout until ctx ends or stdin
// is closed. mcp-go answers a line that is not JSON with -32700 and a
// null id, so the client's call on that line never ends, and it reads a
// line of any length into memory. Here such a line is answered by
// adapter.LineFilter instead: -32700 (not JSON, nested deeper than
// serve.MaxLineDepth, longer than maxLineBytes) or -32600 (JSON that is
// not a message), with the line's id when one can be read; the server
// goes on with the next line. maxLineBytes <= 0 means
// serve.DefaultMaxLineBytes; opts configure mcp-go's stdio server.
func ServeStdio(ctx context.Context, s *server.MCPServer, maxLineBytes int, opts ...server.StdioOption) error {
	return ServeIO(ctx, s, os.Stdin, os.Stdout, maxLineBytes, opts...)
}

// ServeIO is ServeStdio over r and w.
func ServeIO(ctx context.Context, s *server.MCPServer, r io.Reader, w io.Writer, maxLineBytes int, opts ...server.StdioOption) error {
	std := server.NewStdioServer(s)
	for _, opt := range opts {
		opt(std)
	}
	f := adapter.NewLineFilter(r, w, maxLineBytes, checkMessage, nil)
	// The filter also reads answers with exact keys (adapter.ExactAnswers).
	return std.Listen(ctx, f, f.Writer())
}

// ServeTaskStdio is ServeStdio with the MCP Tasks extension
// (io.modelcontextprotocol/tasks) served in front of s by ts (see
// tasks.Server.Stdio): a 2026-07-28 tools/call that declares the extension
// and whose tool asks becomes a task, and tasks/get, tasks/update and
// tasks/cancel are answered for opts.Principal. Every other line passes
// through unchanged. Advertise the extension with
// server.WithExtensions(map[string]any{tasks.Extension: map[string]any{}}).
// A nil ts is ServeStdio.
func ServeTaskStdio(ctx context.Context, s *server.MCPServer, ts *tasks.Server, opts tasks.StdioOptions, maxLineBytes int, stdioOpts ...server.StdioOption) error {
	return ServeTaskIO(ctx, s, os.Stdin, os.Stdout, ts, opts, maxLineBytes, stdioOpts...)
}

// ServeTaskIO is ServeTaskStdio over r and w.
func ServeTaskIO(ctx context.Context, s *server.MCPServer, r io.Reader, w io.Writer, ts *tasks.Server, opts tasks.StdioOptions, maxLineBytes int, stdioOpts ...server.StdioOption) error {
	if ts == nil {
		return ServeIO(ctx, s, r, w, maxLineBytes, stdioOpts...)
	}
	std := server.NewStdioServer(s)
	for _, opt := range stdioOpts {
		opt(std)
	}
	f := adapter.NewLineFilter(r, w, maxLineBytes, checkMessage, nil)
	front := ts.Stdio(f, f.Writer(), opts)
	defer front.Close()
	return std.Listen(ctx, front, front)
}

// checkMessage reports whether line, which is JSON, is a JSON-RPC
// message mcp-go can answer: an object with "jsonrpc":"2.0".
func checkMessage(line []byte) error {
	var m struct {
		JSONRPC string `json:"jsonrpc"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		return errors.New("not an object")
	}
	if m.JSONRPC != "2.0" {
		return errors.New(`no "jsonrpc":"2.0"`)
	}
	return nil
}
