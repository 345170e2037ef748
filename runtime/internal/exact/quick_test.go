package exact

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
)

// quickTypical are messages as clients send them (the servebench
// client's, both eras): the fast path must take them, or it buys
// nothing.
var quickTypical = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"deploy_to_production","arguments":{"service":"billing"}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}},"name":"deploy_to_production","arguments":{"service":"billing"},"inputResponses":{"Deploy":{"action":"accept","content":{"branch":"release/2.4","environment":"production","confirmed":true}}},"requestState":"v3.r8a4e5d2a.9JvnWxE4T_NXCkLUtcX8wg2neNcy0OlFsRovt9qf11lh9sJdqdyomURQWU1TN-naE0fP-iMeyj9Qf8Y9eOQL7KVlo18mToIN2LqQFtlBES2pUqM"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}}},"clientInfo":{"name":"servebench","version":"v0"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deploy_to_production","arguments":{"service":"billing"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"branch":"release/2.4","environment":"production","confirmed":true}}}`,
	` {"jsonrpc": "2.0", "id": 7, "result": {"action": "decline"}}` + "\r\n",
	`{"jsonrpc":"2.0","id":3,"result":{"role":"assistant","content":{"type":"text","text":"hi \"there\"\n"},"model":"m"}}`,
	`{"jsonrpc":"2.0","id":4,"result":{}}`,
	`{"jsonrpc":"2.0","id":"a-1","error":{"code":-32602,"message":"bad","data":[1,2.5,-0.25,null,true,false]}}`,
}

// quickTricky are messages near the fast path's edges: each is refused,
// rewritten, or passed by the general path, and the fast path must never
// take one the general path refuses or rewrites.
var quickTricky = []string{
	`{"jsonrpc":"2.0","id":1,"Result":{"action":"decline","Action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"decline","Action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"decline","action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"decline"},"reſult":{"action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":null}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":[1]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","Content":{}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"decline","content":null}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"\u0061ccept","content":null}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":1,"content":null}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"\u0061ction":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"pad":1e400,"action":"accept"}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"pad":1E4,"action":"accept","content":{}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"a":1,"a":2}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"action":"accept","content":{"a":1,"A":2}}}`,
	`{"jsonrpc":"2.0","id":1,"result":"done"}`,
	`{"jsonrpc":"2.0","id":1,"result":[{"action":"accept","content":null}]}`,
	`{"jsonrpc":"2.0","id":1,"result":null}`,
	`[{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}]`,
	`{"jsonrpc":"2.0","id":1,"ID":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","InputResponses":{"q":{"action":"accept"}}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","NAME":"y"}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"a":1,"A":2}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{"a":1e400}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"q":{"action":"decline","Action":"accept"}}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"q":{"action":"accept","content":null}}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"q":"accept"}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":null}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","inputResponses":{"q":{"action":"decline","\u0041ction":"accept"}}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1,2]}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}} {}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x",}}`,
	"\v{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
	"{\"jsonrpc\":\"2.0\",\"method\":\"ping\x00\"}",
	`{"jsonrpc":"2.0","method":"ping","x":01}`,
	`{"jsonrpc":"2.0","method":"ping","x":-}`,
	`{"jsonrpc":"2.0","method":"ping","x":1.}`,
	`{"jsonrpc":"2.0","method":"ping","x":tru}`,
	`{"jsonrpc":"2.0","method":"ping","x":"\x"}`,
	`{"jsonrpc":"2.0","method":"ping","x":"\u12"}`,
	`{"jsonrpc":"2.0","method":"ping","x":"` + strings.Repeat("9", 400) + `"}`,
	`{"jsonrpc":"2.0","method":"ping","x":` + strings.Repeat("9", 400) + `}`,
	`{"jsonrpc":"2.0","method":"ping","x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`,
	`{"jsonrpc":"2.0","method":"ping","\u006Dethod":"x"}`,
	`{"jsonrpc":"2.0","method":"ping","méthod":"x"}`,
	`{}`,
	`not json`,
	``,
}

// quickArgsCases are tool arguments for the same comparison.
var quickArgsCases = []string{
	``, `   `, `null`, `{}`, `[]`, `"s"`, `1`, `-0.5`, `true`,
	`{"service":"billing"}`,
	`{"service":"billing","services":1,"env":{"service":1}}`,
	`{"SERVICE":"web","service":"billing"}`,
	`{"service":"a","ſervice":"b"}`,
	`{"kind":1,"\u212aind":2}`,
	`{"kind":1,"Kind":2}`,
	`{"a":1,"a":2}`,
	`{"x":[{"y":1},{"Y":2,"y":3}]}`,
	`{"x":{"z":{"Ab":1,"aB":2}}}`,
	`{"x":[1,2,{"a":[{}]}],"X":1}`,
	`[{"a":1},{"a":1}]`,
	`{"a":{"b":1},"b":2}`,
	`{"a":{"b":1,"c":{"d":2}},"e":{"b":3}}`,
	`not json {"a":1,"a":1}`,
	`{"pad":1e400}`,
	`{"pad":[-1e999]}`,
	`{"n":1e308}`,
	`{"service":"billing"`,
	`{"service":"billing"} {"service":"web"}`,
	`{"service":"billing"}]`,
	`{"a":"` + strings.Repeat("\\u0041", 10) + `"}`,
	`{"a":` + strings.Repeat("1", 300) + `}`,
	`{"a":` + strings.Repeat("1", 301) + `}`,
	`{"a":` + strings.Repeat("1", 320) + `}`,
	`{"a":0.` + strings.Repeat("0", 400) + `1}`,
	strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70),
	manyKeys(47), manyKeys(48), manyKeys(49), manyKeys(300),
	"\ufeff{}", "\u00a0{}", "{}\u0085",
}

// manyKeys is an object of n distinct keys and, last, one repeating the
// first under folding.
func manyKeys(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		b.WriteString(strconv.Quote("k" + strconv.Itoa(i)))
		b.WriteString(":1,")
	}
	b.WriteString(`"K0":2}`)
	return b.String()
}

// mutations returns s and variants of it: a byte deleted, or replaced
// by, or preceded by, bytes that matter to JSON and to the checks, at
// each of about 150 positions spread over s.
func mutations(s string) []string {
	const set = "\"\\{}[]:, eE.-0a\x00\x7f\xc5"
	out := []string{s}
	for i := 0; i < len(s); i += 1 + len(s)/150 {
		out = append(out, s[:i]+s[i+1:])
		for _, c := range []byte(set) {
			out = append(out, s[:i]+string(c)+s[i+1:], s[:i]+string(c)+s[i:])
		}
	}
	return out
}

// corpus returns the inputs saved under testdata/fuzz/name of dir.
func corpus(t testing.TB, dir, name string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", name, "*"))
	if len(files) == 0 {
		t.Fatalf("no fuzz corpus %s in %s", name, dir)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if q, ok := strings.CutPrefix(line, "[]byte("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// agreeMessage fails t when quickMessage takes msg but the general path
// refuses or rewrites it.
func agreeMessage(t testing.TB, msg []byte) {
	if !quickMessage(msg) {
		return
	}
	if err := checkEnvelope(msg); err != nil {
		t.Fatalf("the fast path took %q, which CheckEnvelope refuses: %v", msg, err)
	}
	if out := exactAnswers(msg); !bytes.Equal(out, msg) {
		t.Fatalf("the fast path took %q, which ExactAnswers rewrites to %q", msg, out)
	}
}

// agreeArgs fails t when quickArgs takes args but checkArgKeys refuses
// them.
func agreeArgs(t testing.TB, args []byte) {
	if !quickArgs(args) {
		return
	}
	if err := checkArgKeys(args); err != nil {
		t.Fatalf("the fast path took arguments %q, which CheckArgKeys refuses: %v", args, err)
	}
}

func TestQuickMessageAgrees(t *testing.T) {
	seeds := append(append(append([]string{}, quickTypical...), quickTricky...), corpus(t, ".", "FuzzEnvelopeDifferential")...)
	n := 0
	for _, s := range seeds {
		for _, m := range mutations(s) {
			agreeMessage(t, []byte(m))
			n++
		}
	}
	t.Logf("%d messages", n)
}

func TestQuickArgsAgrees(t *testing.T) {
	seeds := append(append([]string{}, quickArgsCases...), corpus(t, "../../seal", "FuzzCanonicalArgs")...)
	for _, s := range seeds {
		for _, m := range mutations(s) {
			agreeArgs(t, []byte(m))
		}
	}
}

// TestQuickTakesTypical: the fast path takes what clients send, reads it
// without allocating, and the public checks give its answer.
func TestQuickTakesTypical(t *testing.T) {
	for _, s := range quickTypical {
		m := []byte(s)
		if !quickMessage(m) {
			t.Errorf("the fast path does not take %s", s)
		}
		if a := testing.AllocsPerRun(10, func() { quickMessage(m) }); a != 0 {
			t.Errorf("%s: %v allocations", s, a)
		}
		if err := CheckEnvelope(m); err != nil {
			t.Errorf("%s: %v", s, err)
		}
		if out := ExactAnswers(m); &out[0] != &m[0] || len(out) != len(m) {
			t.Errorf("%s: ExactAnswers returned a copy", s)
		}
	}
	for _, s := range []string{`{"service":"billing"}`, `{"a":[1,{"b":"c"}],"B":{"a":null}}`, ``, `null`} {
		if !quickArgs([]byte(s)) {
			t.Errorf("the fast path does not take arguments %s", s)
		}
	}
}

// TestQuickKnownNames: exactKnown assumes every known name fits its
// buffer.
func TestQuickKnownNames(t *testing.T) {
	for _, set := range []map[string]string{envelopeKeys, paramsKeys} {
		for _, name := range set {
			if len(name) > 24 || !jsonobj.ASCII([]byte(name)) {
				t.Errorf("known name %q: longer than 24 bytes or not ASCII", name)
			}
		}
	}
}

// FuzzQuickMessage checks the messages' fast path against the general
// checks. Run with
// go test -run '^$' -fuzz FuzzQuickMessage -fuzztime 60s ./runtime/adapter/
func FuzzQuickMessage(f *testing.F) {
	for _, s := range append(append(append([]string{}, quickTypical...), quickTricky...), corpus(f, ".", "FuzzEnvelopeDifferential")...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeMessage(t, b) })
}

// FuzzQuickArgs checks the arguments' fast path against CheckArgKeys's
// general path. Run with
// go test -run '^$' -fuzz FuzzQuickArgs -fuzztime 60s ./runtime/adapter/
func FuzzQuickArgs(f *testing.F) {
	for _, s := range append(append([]string{}, quickArgsCases...), corpus(f, "../../seal", "FuzzCanonicalArgs")...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { agreeArgs(t, b) })
}
