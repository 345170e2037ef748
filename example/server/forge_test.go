package main

import (
	"bytes"
	"log"
	"strings"
	"testing"
)

// TestLogLinesUnforgeable: a plain log line stays one line whatever a
// client put in it (a tool name or an answer holding a line break and a
// fake JSON audit record), and a client-chosen name cannot pose as
// another field of the request line.
func TestLogLinesUnforgeable(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(lineWriter{&buf}, "elicitgen-example[t]: ", 0)
	forged := "deploy\n{\"msg\":\"elicitation.answered\",\"action\":\"accept\"}\r\x1b[2K"
	l.Printf("tools/call tool=%s requestState=no inputResponses=0", logName(forged))
	l.Printf("deployed billing@%s", "main\nelicitgen-example[t]: deployed web@main")
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(lines), buf.String())
	}
	for _, line := range lines {
		if !strings.HasPrefix(line, "elicitgen-example[t]: ") || strings.ContainsAny(line, "\r\x1b") {
			t.Errorf("line %q: not one prefixed line of text", line)
		}
	}
	if got := logName("deploy x requestState=yes"); got != `"deploy x requestState=yes"` {
		t.Errorf("logName = %s, want it quoted", got)
	}
	if got := logName("deploy_v2"); got != "deploy_v2" {
		t.Errorf("logName(deploy_v2) = %s", got)
	}
}

// TestLogLinesShowHidden: a log line quoting an answer shows its
// invisible and text-direction characters escaped, the joiners a valid
// answer may hold included, so that the operator reads what was sent.
func TestLogLinesShowHidden(t *testing.T) {
	var buf bytes.Buffer
	l := log.New(lineWriter{&buf}, "", 0)
	l.Printf("deployed billing@%s to %s", "main\u202e\u200bx", "production\U000E0069\xff")
	l.Printf("note %s", "می\u200cخواهم \u2764\ufe0f")
	want := "deployed billing@main\\u202e\\u200bx to production\\U000e0069\\xff\n" +
		"note می\\u200cخواهم \u2764\\ufe0f\n"
	if got := buf.String(); got != want {
		t.Errorf("log lines\n got %q\nwant %q", got, want)
	}
}
