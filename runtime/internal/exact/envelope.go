package exact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// ErrEnvelope is matched (errors.Is) by the error of a JSON-RPC message
// whose envelope an SDK could read otherwise than the exact-key checks
// do: a batch (no MCP era since 2025-06-18 has them), a key of the
// message or of its params that is a case variant of the wire's
// ("Result", "RESULT", "reſult" are all "result" to encoding/json's
// struct decoding, which mcp-go uses), a key given twice, or JSON the
// check cannot read to the end. Such a message is refused, never passed
// to the SDK.
var ErrEnvelope = errors.New("elicit: malformed JSON-RPC message")

// envelopeKeys are the keys of a JSON-RPC message.
var envelopeKeys = foldSet("jsonrpc", "id", "method", "params", "result", "error")

// paramsKeys are the keys of the params of every MCP request and
// notification of the eras served (from their schemas), "mode" and "url"
// included.
var paramsKeys = foldSet("_meta", "argument", "arguments", "capabilities", "clientInfo", "context",
	"createdAt", "cursor", "data", "elicitationId", "includeContext", "inputResponses",
	"lastUpdatedAt", "level", "logger", "maxTokens", "message", "messages", "metadata", "mode",
	"modelPreferences", "name", "notifications", "pollInterval", "progress", "progressToken",
	"protocolVersion", "reason", "ref", "requestId", "requestState", "requestedSchema", "status",
	"statusMessage", "stopSequences", "systemPrompt", "task", "taskId", "temperature", "toolChoice",
	"tools", "total", "ttl", "uri", "url")

func foldSet(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[string(FoldKey(nil, n))] = n
	}
	return m
}

// CheckEnvelope returns an error matching ErrEnvelope unless msg is one
// JSON-RPC message (an object, not a batch) whose keys, and the keys of
// its params object, are each given once and exactly as the wire spells
// them: a key equal under encoding/json's case folding to a JSON-RPC key
// ("jsonrpc", "id", "method", "params", "result", "error") or to a key of
// MCP's params must be that key, and no two keys of either object may
// fold to the same name. Every value is read to its end: a number out of
// range (1e400) or any token the check cannot read is an error, never a
// pass.
func CheckEnvelope(msg []byte) error {
	if quickMessage(msg) {
		return nil
	}
	return checkEnvelope(msg)
}

// checkEnvelope is CheckEnvelope's general path.
func checkEnvelope(msg []byte) error {
	msg = bytes.TrimSpace(msg)
	if len(msg) > 0 && msg[0] == '[' {
		return fmt.Errorf("%w: a JSON-RPC batch; MCP has no batches since 2025-06-18: send one message per line or request", ErrEnvelope)
	}
	if !json.Valid(msg) {
		return fmt.Errorf("%w: not one valid JSON value", ErrEnvelope)
	}
	vals, err := objectKeys(msg, envelopeKeys, "message", "params")
	if err != nil {
		return err
	}
	if p, ok := vals["params"]; ok && len(p) > 0 && p[0] == '{' {
		if _, err := objectKeys(p, paramsKeys, "params", "arguments"); err != nil {
			return err
		}
	}
	return nil
}

// objectKeys reads the JSON object raw and returns its values by key,
// refusing (ErrEnvelope) a key given twice under folding, a key that
// folds to one of known but is not spelled so, and a value other than
// skip's holding a number float64 cannot hold (params are checked on
// their own; tool arguments by CheckArgKeys, as invalid params).
func objectKeys(raw []byte, known map[string]string, where, skip string) (map[string]json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: the %s is not a JSON object", ErrEnvelope, where)
	}
	vals := map[string]json.RawMessage{}
	seen := map[string]string{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrEnvelope, where, err)
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrEnvelope, where, err)
		}
		if k != skip {
			if err := readable(v); err != nil {
				return nil, fmt.Errorf("%w: %s key %s: %v", ErrEnvelope, where, strconv.Quote(k), err)
			}
		}
		f := string(FoldKey(nil, k))
		if prev, dup := seen[f]; dup {
			return nil, fmt.Errorf("%w: %s keys %s and %s are one name to case-insensitive JSON decoding; send each key once, spelled exactly",
				ErrEnvelope, where, strconv.Quote(prev), strconv.Quote(k))
		}
		seen[f] = k
		if want, ok := known[f]; ok && want != k {
			return nil, fmt.Errorf("%w: %s key %s is not %q (keys are exact)", ErrEnvelope, where, strconv.Quote(k), want)
		}
		vals[k] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEnvelope, where, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the %s", ErrEnvelope, where)
	}
	return vals, nil
}

// readable reports an error for a JSON value holding a number that
// float64 cannot hold (1e400): encoding/json refuses it when it decodes
// into a number and some SDKs skip it, so the check and a decoder would
// read different messages.
func readable(v json.RawMessage) error {
	if !bytes.ContainsAny(v, "eE") && len(v) < 300 {
		return nil // no number here can overflow (a quick, conservative test)
	}
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n, ok := tok.(json.Number); ok {
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return fmt.Errorf("number %s is out of range", n)
			}
		}
	}
}
