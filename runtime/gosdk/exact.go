package gosdk

import (
	"bytes"
	"context"
	"fmt"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExactAnswers wraps a server transport so that elicitation answers are
// read with exact keys. go-sdk decodes each inputResponses entry
// (2026-07-28) with encoding/json struct decoding, which matches keys
// case-insensitively and keeps the last: {"action":"decline",
// "Action":"accept"} would reach the handler as an accept. Under this
// wrapper every incoming message passes through adapter.ExactAnswers
// first: an answer with a case-variant or repeated "action"/"content"
// key is replaced by a marker the adapter reports as malformed
// (JSON-RPC -32602). Elicitation results of the 2025 eras are checked
// the same way (go-sdk decodes those case-sensitively, dropping a
// "Content" key silently).
//
//	ss, err := server.Connect(ctx, gosdk.ExactAnswers(&mcp.StdioTransport{}), nil)
//
// For HTTP, wrap the handler with adapter.ExactAnswersHTTP instead.
func ExactAnswers(t mcp.Transport) mcp.Transport { return exactTransport{t} }

type exactTransport struct{ mcp.Transport }

// Connect implements mcp.Transport.
func (t exactTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return exactConn{c}, nil
}

type exactConn struct{ mcp.Connection }

// Read implements mcp.Connection.
func (c exactConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err != nil {
		return m, err
	}
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return m, nil
	}
	if nb := adapter.ExactAnswers(b); !bytes.Equal(nb, b) {
		if nm, err := jsonrpc.DecodeMessage(nb); err == nil {
			return nm, nil
		}
	}
	return m, nil
}

// malformedResult is the error of an elicitation result that
// ExactAnswers marked malformed.
func malformedResult(req *runtime.Request, reason string) error {
	name := ""
	if req.Schema != nil {
		name = req.Schema.Name
	}
	return fmt.Errorf("%w: %w", runtime.ErrMalformedInput, &runtime.ValidationError{Form: name, Fields: []*runtime.FieldError{{Msg: "elicitation result: " + reason}}})
}
