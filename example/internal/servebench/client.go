package servebench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// answer is what every measured user answers: accept, production,
// confirmed, the branch left to its default.
const answer = `{"action":"accept","content":{"branch":"` + Branch + `","environment":"production","confirmed":true}}`

// meta2026 is the _meta of a 2026-07-28 request: the protocol version
// and a client that can be asked forms.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// Client is one MCP client of the measured servers, speaking streamable
// HTTP with its own small JSON-RPC code (so that it costs the same
// against every server, and little). It answers every question by
// accepting a confirmed production deploy, and checks that each approval
// ended in a deploy. A Client is not safe for concurrent use; run one per
// concurrent user.
type Client struct {
	hc      *http.Client
	url     string
	version string
	session string
	id      int
}

// NewClient returns a client of the server at url (a loopback URL)
// speaking protocol version (runtime.Version20260728 or
// runtime.Version20251125), over hc.
func NewClient(hc *http.Client, url, version string) (*Client, error) {
	switch version {
	case runtime.Version20260728, runtime.Version20251125:
	default:
		return nil, fmt.Errorf("servebench: protocol version %q: want %s or %s", version, runtime.Version20260728, runtime.Version20251125)
	}
	return &Client{hc: hc, url: url, version: version}, nil
}

// Open starts the client's session on a 2025-11-25 server (initialize,
// then notifications/initialized); on 2026-07-28 it does nothing.
func (c *Client) Open(ctx context.Context) error {
	if c.version == runtime.Version20260728 {
		return nil
	}
	res, err := c.post(ctx, nil, c.request("initialize", `{"protocolVersion":"`+c.version+`","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"servebench","version":"v0"}}`))
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	c.session = res.Header.Get("Mcp-Session-Id")
	if _, err := c.result(res, c.id, nil); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if c.session == "" {
		return errors.New("initialize: no Mcp-Session-Id")
	}
	res, err = c.post(ctx, nil, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return drain(res, http.StatusAccepted)
}

// Close ends the client's session (DELETE), if it has one.
func (c *Client) Close(ctx context.Context) error {
	if c.session == "" {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
	if err != nil {
		return err
	}
	c.headers(req, nil)
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	c.session = ""
	return drain(res, res.StatusCode)
}

// Approve makes one approval: a tools/call of deploy_to_production
// answered with a confirmed deploy (two POSTs on 2026-07-28: the call and
// its retry; on 2025-11-25 one call, whose pushed elicitation/create is
// answered by a second POST). It fails unless the result says deployed.
func (c *Client) Approve(ctx context.Context) error {
	args := `"name":"` + Tool + `","arguments":{"service":"` + Service + `"}`
	tool := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": Tool}
	if c.version == runtime.Version20251125 {
		res, err := c.post(ctx, nil, c.request("tools/call", "{"+args+"}"))
		if err != nil {
			return err
		}
		r, err := c.result(res, c.id, func(id json.RawMessage) error { return c.reply(ctx, id) })
		if err != nil {
			return err
		}
		return checkDeployed(r)
	}
	res, err := c.post(ctx, tool, c.request("tools/call", "{"+meta2026+","+args+"}"))
	if err != nil {
		return err
	}
	r, err := c.result(res, c.id, nil)
	if err != nil {
		return err
	}
	var first struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := json.Unmarshal(r, &first); err != nil {
		return err
	}
	if first.ResultType != "input_required" || len(first.InputRequests) != 1 {
		return fmt.Errorf("round 1: want one input request, got %.300s", r)
	}
	var key string
	for k := range first.InputRequests {
		key = k
	}
	k, _ := json.Marshal(key)
	st, _ := json.Marshal(first.RequestState)
	res, err = c.post(ctx, tool, c.request("tools/call", "{"+meta2026+","+args+`,"inputResponses":{`+string(k)+":"+answer+`},"requestState":`+string(st)+"}"))
	if err != nil {
		return err
	}
	if r, err = c.result(res, c.id, nil); err != nil {
		return err
	}
	return checkDeployed(r)
}

// checkDeployed fails unless r is a complete tool result that deployed.
func checkDeployed(r json.RawMessage) error {
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Deployed bool `json:"deployed"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(r, &res); err != nil {
		return err
	}
	if res.IsError || !res.StructuredContent.Deployed {
		return fmt.Errorf("not deployed: %.300s", r)
	}
	return nil
}

// reply answers the elicitation/create request id of a 2025-11-25
// session.
func (c *Client) reply(ctx context.Context, id json.RawMessage) error {
	res, err := c.post(ctx, nil, []byte(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":`+answer+`}`))
	if err != nil {
		return err
	}
	return drain(res, http.StatusAccepted)
}

// request returns a JSON-RPC request with the next id.
func (c *Client) request(method, params string) []byte {
	c.id++
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(c.id) + `,"method":"` + method + `","params":` + params + `}`)
}

func (c *Client) headers(req *http.Request, extra map[string]string) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	req.Header.Set("MCP-Protocol-Version", c.version)
	for k, v := range extra {
		req.Header.Set(k, v)
	}
}

// post sends body and returns the response, whose body the caller
// reads.
func (c *Client) post(ctx context.Context, extra map[string]string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	c.headers(req, extra)
	return c.hc.Do(req)
}

// message is a JSON-RPC message from the server.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// result reads the response res of the request id (a JSON body or an
// event stream) and returns its result. A server request on the stream
// goes to ask, when set (elicitation/create); any other is an error.
func (c *Client) result(res *http.Response, id int, ask func(id json.RawMessage) error) (json.RawMessage, error) {
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
		var m message
		if json.Unmarshal(b, &m) == nil && m.Error != nil {
			return nil, fmt.Errorf("HTTP %d: JSON-RPC error %d: %s", res.StatusCode, m.Error.Code, m.Error.Message)
		}
		return nil, fmt.Errorf("HTTP %d: %.512s", res.StatusCode, bytes.TrimSpace(b))
	}
	want := strconv.Itoa(id)
	handle := func(data []byte) (json.RawMessage, bool, error) {
		var m message
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, false, fmt.Errorf("bad message %.200q: %w", data, err)
		}
		switch {
		case m.Method == "elicitation/create" && ask != nil && m.ID != nil:
			return nil, false, ask(m.ID)
		case m.Method != "":
			return nil, false, fmt.Errorf("unexpected %s from the server", m.Method)
		case string(m.ID) != want:
			return nil, false, fmt.Errorf("response to id %s, want %s", m.ID, want)
		case m.Error != nil:
			return nil, false, fmt.Errorf("JSON-RPC error %d: %s", m.Error.Code, m.Error.Message)
		}
		return m.Result, true, nil
	}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(res.Body)
		if err != nil {
			return nil, err
		}
		r, ok, err := handle(b)
		if err == nil && !ok {
			err = errors.New("no result")
		}
		return r, err
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 0, 16<<10), 1<<20)
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if len(data) == 0 {
				continue
			}
			r, ok, err := handle(data)
			if err != nil || ok {
				// Read the stream to its end (the server ends it after
				// the response), so that the connection is reused.
				_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
				return r, err
			}
			data = data[:0]
			continue
		}
		if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(d, []byte(" "))...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

// drain reads and closes the body of res and fails unless its status is
// want.
func drain(res *http.Response, want int) error {
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != want {
		return fmt.Errorf("HTTP %d: %s", res.StatusCode, bytes.TrimSpace(b))
	}
	return nil
}
