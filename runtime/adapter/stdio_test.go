package adapter

import (
	"io"
	"strings"
	"testing"
)

// TestLineFilter: accepted lines pass whole (CRLF and a last line without
// a newline included); refused ones are answered with their id.
func TestLineFilter(t *testing.T) {
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n" +
		"\n" +
		"{\"id\": \"a\\\"b\", \"x\": NaN}\n" +
		"{\"x\":{\"id\":7},\"id\":8,\"y\":" + strings.Repeat("[", 300) + "\n" +
		strings.Repeat("z", 100) + "\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"
	var out strings.Builder
	f := NewLineFilter(strings.NewReader(in), &out, 90, nil, nil)
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n"
	if string(got) != want {
		t.Errorf("passed %q, want %q", got, want)
	}
	replies := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(replies) != 3 {
		t.Fatalf("replies:\n%s", out.String())
	}
	for i, id := range []string{`"id":"a\"b"`, `"id":8`, `"id":null`} {
		if !strings.Contains(replies[i], id) || !strings.Contains(replies[i], "-32700") {
			t.Errorf("reply %d = %s, want -32700 with %s", i, replies[i], id)
		}
	}
}

// TestLineFilterExactAnswers: an accepted line holding a case-variant
// answer key reaches the SDK with the answer replaced by the malformed
// marker; other lines pass unchanged.
func TestLineFilterExactAnswers(t *testing.T) {
	bad := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deploy","inputResponses":{"Deploy":{"action":"decline","Action":"accept"}}}}`
	good := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"deploy","inputResponses":{"Deploy":{"action":"accept","content":{}}}}}`
	var out strings.Builder
	got, err := io.ReadAll(NewLineFilter(strings.NewReader(bad+"\n"+good+"\n"), &out, 0, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if len(lines) != 2 || lines[1] != good {
		t.Fatalf("passed %q", got)
	}
	if strings.Contains(lines[0], `"Action"`) || !strings.Contains(lines[0], `elicitgen-malformed`) {
		t.Errorf("case-variant answer passed as %s", lines[0])
	}
}
