package exact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/internal/exact"
)

func TestCheckAnswerKeys(t *testing.T) {
	for _, tc := range []struct {
		raw string
		bad string // "" when accepted
	}{
		{`{"action":"accept","content":{"a":1}}`, ""},
		{`{"action":"decline"}`, ""},
		{`{"action":"accept","content":{"a":1,"a":2},"_meta":{"x":1},"extra":true}`, ""},
		{`{"action":"decline","Action":"accept"}`, `"Action"`},
		{`{"ACTION":"accept"}`, `"ACTION"`},
		{`{"action":"accept","Content":{}}`, `"Content"`},
		{`{"action":"accept","\u0043ontent":{}}`, `"Content"`},
		{`{"action":"decline","action":"accept"}`, `"action" appears twice`},
		{`[1]`, "not a JSON object"},
		{`null`, "not a JSON object"},
		{`{"action":"accept","content":null}`, "content of an accept is null: content must be a JSON object"},
		{`{"content":"x","action":"accept"}`, "must be a JSON object"},
		{`{"action":"accept","content":[1]}`, "must be a JSON object"},
		{`{"action":"decline","content":null}`, ""},
		{`{"action":"accept"}`, ""}, // URL mode; a form's accept without content fails later
	} {
		err := exact.CheckAnswerKeys([]byte(tc.raw))
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.raw, err)
		case tc.bad != "" && (!errors.Is(err, exact.ErrAnswerKeys) || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s: %v, want ErrAnswerKeys naming %s", tc.raw, err, tc.bad)
		}
	}
}

func TestExactAnswers(t *testing.T) {
	keep := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":{"a":{"action":"accept","content":{"x":1}}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{"x":1}}}`,
		`{"jsonrpc":"2.0","id":3,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		`not json`,
	}
	for _, m := range keep {
		if got := exact.ExactAnswers([]byte(m)); !bytes.Equal(got, []byte(m)) {
			t.Errorf("%s was rewritten to %s", m, got)
		}
	}
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","inputResponses":{"a":{"action":"decline","Action":"accept"},"b":{"action":"accept"}}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"Action":"accept","content":{"x":1}}}`,
	} {
		got := exact.ExactAnswers([]byte(m))
		var v struct {
			Result *struct{ Action string } `json:"result"`
			Params *struct {
				InputResponses map[string]struct {
					Action string `json:"action"`
				} `json:"inputResponses"`
			} `json:"params"`
		}
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatal(err)
		}
		action := ""
		if v.Result != nil {
			action = v.Result.Action
		} else {
			action = v.Params.InputResponses["a"].Action
			if v.Params.InputResponses["b"].Action != "accept" {
				t.Errorf("%s: a well-formed entry was changed: %s", m, got)
			}
		}
		reason, bad := exact.MalformedAction(action)
		if !bad || !strings.Contains(reason, "Action") {
			t.Errorf("%s: rewritten to %s; want a malformed marker naming the key", m, got)
		}
	}
}
