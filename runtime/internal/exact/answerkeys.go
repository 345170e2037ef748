package exact

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// ErrAnswerKeys is matched (errors.Is) by the error of an elicitation
// result whose keys are not exactly the wire's: "action" and "content",
// once each. A case variant ("Action", "CONTENT", "ſ"-spelled) is what
// encoding/json struct decoding would read as the real key, so that
// {"action":"decline","Action":"accept"} would become an accept.
var ErrAnswerKeys = errors.New("elicit: malformed elicitation result")

// CheckAnswerKeys returns an error matching ErrAnswerKeys unless raw, the
// JSON of an elicitation result (an inputResponses entry or the result of
// elicitation/create), is an object whose keys equal to "action" or
// "content" under encoding/json's case folding are exactly "action" and
// "content", each at most once. Other keys (_meta, extensions) are left
// to the SDK; inside content, a repeated field is read as both SDKs decode
// JSON (the last occurrence wins) and validated.
func CheckAnswerKeys(raw []byte) error {
	_, err := answerKeys(raw)
	return err
}

// answerKeys checks the keys of the JSON object raw as CheckAnswerKeys
// does, in one pass, and reports whether it is an elicitation result at
// all: an object with a key equal to "action" under case folding
// (sampling and roots results have none).
func answerKeys(raw []byte) (answer bool, err error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return false, fmt.Errorf("%w: not a JSON object", ErrAnswerKeys)
	}
	action, content := string(FoldKey(nil, "action")), string(FoldKey(nil, "content"))
	seen := map[string]bool{}
	var bad, notObject error
	accept := false
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return answer, fmt.Errorf("%w: %v", ErrAnswerKeys, err)
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return answer, fmt.Errorf("%w: %v", ErrAnswerKeys, err)
		}
		f := string(FoldKey(nil, k))
		if f != action && f != content {
			continue
		}
		want := "content"
		if f == action {
			want, answer = "action", true
		} else if t := bytes.TrimSpace(v); k == want && (len(t) == 0 || t[0] != '{') {
			notObject = fmt.Errorf("%w: content of an accept is %.20s: content must be a JSON object", ErrAnswerKeys, t)
		}
		if k == "action" {
			var a string
			_ = json.Unmarshal(v, &a)
			accept = a == "accept"
		}
		switch {
		case bad != nil:
		case k != want:
			bad = fmt.Errorf("%w: key %s is not %q (keys are exact)", ErrAnswerKeys, strconv.Quote(k), want)
		case seen[k]:
			bad = fmt.Errorf("%w: key %q appears twice", ErrAnswerKeys, k)
		}
		seen[k] = true
	}
	if _, err := d.Token(); err != nil {
		return answer, fmt.Errorf("%w: %v", ErrAnswerKeys, err)
	}
	if d.More() {
		return answer, fmt.Errorf("%w: not a JSON object", ErrAnswerKeys)
	}
	if bad == nil && accept && notObject != nil {
		bad = notObject
	}
	return answer, bad
}

// AcceptContent returns the filter of an answer to req: a form-mode
// accept without content (absent, or null as the SDKs decode it) is
// malformed input, never an accept of the form's defaults; every
// conformance suite's form accept carries an object. A URL-mode accept
// has no content.
func AcceptContent(req *runtime.Request) func(*runtime.Response, error) (*runtime.Response, error) {
	return func(r *runtime.Response, err error) (*runtime.Response, error) {
		if err != nil || r == nil || r.Action != runtime.ActionAccept || req.Mode == runtime.ModeURL || r.Content != nil {
			return r, err
		}
		name := ""
		if req.Schema != nil {
			name = req.Schema.Name
		}
		return nil, fmt.Errorf("%w: %w", runtime.ErrMalformedInput, &runtime.ValidationError{Form: name,
			Fields: []*runtime.FieldError{{Msg: "elicitation result: an accept must carry content, a JSON object"}}})
	}
}

// malformedPrefix starts the action of an elicitation result that
// ExactAnswers rewrote: a NUL, which no real action holds.
const malformedPrefix = "\x00elicitgen-malformed: "

// MalformedAction returns the reason an answer's action carries when
// ExactAnswers (or a wrapper built on it) replaced a malformed result, so
// that an adapter reports it as malformed (JSON-RPC -32602) and never
// reads it as an answer.
func MalformedAction(action string) (string, bool) {
	return strings.CutPrefix(action, malformedPrefix)
}

// ExactAnswers returns the JSON-RPC message msg with every elicitation
// result that fails CheckAnswerKeys replaced by {"action": marker}, the
// marker carrying the reason (see MalformedAction): in a request's
// params.inputResponses (2026-07-28) and as a response's result (to
// elicitation/create, 2025 eras). A result is one whose object has a key
// equal to "action" under case folding. It returns msg itself when
// nothing needed replacing.
//
// It exists for SDKs that decode answers with encoding/json struct
// decoding before an adapter sees them (go-sdk's inputResponses,
// both SDKs' elicitation/create results): wrap the server's transport
// or HTTP handler (ExactAnswersHTTP, ExactAnswersReader, gosdk.ExactAnswers).
func ExactAnswers(msg []byte) []byte {
	if quickMessage(msg) {
		return msg
	}
	return exactAnswers(msg)
}

// exactAnswers is ExactAnswers's general path.
func exactAnswers(msg []byte) []byte {
	if !bytes.Contains(bytes.ToLower(msg), []byte("action")) && !bytes.Contains(msg, []byte(`\u`)) && !bytes.Contains(msg, []byte("\xc5\xbf")) {
		return msg // no key can fold to "action" ('ſ' is "\xc5\xbf"; escapes may hide letters)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	changed := false
	if r, ok := m["result"]; ok {
		if answer, err := answerKeys(r); answer && err != nil {
			m["result"], changed = marker(err), true
		}
	}
	if p, ok := m["params"]; ok {
		var params map[string]json.RawMessage
		if json.Unmarshal(p, &params) == nil {
			var in map[string]json.RawMessage
			if json.Unmarshal(params["inputResponses"], &in) == nil && in != nil {
				pc := false
				for k, v := range in {
					if answer, err := answerKeys(v); answer && err != nil {
						in[k], pc = marker(err), true
					}
				}
				if pc {
					params["inputResponses"], _ = json.Marshal(in)
					m["params"], _ = json.Marshal(params)
					changed = true
				}
			}
		}
	}
	if !changed {
		return msg
	}
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

func marker(err error) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"action": malformedPrefix + strings.TrimPrefix(err.Error(), ErrAnswerKeys.Error()+": ")})
	return b
}

// ExactAnswersReader wraps the input of a newline-delimited JSON-RPC
// stream (stdio) so that every message passes through ExactAnswers.
func ExactAnswersReader(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				body := bytes.TrimRight(line, "\r\n")
				out := append(ExactAnswers(body), '\n')
				if _, werr := pw.Write(out); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// Plain reports whether msg certainly passes CheckEnvelope and is left
// unchanged by ExactAnswers: the checks' allocation-free fast path. False
// means only that the general checks must decide.
func Plain(msg []byte) bool { return quickMessage(msg) }
