package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDemo runs the demo twice: the output is the same both times and
// shows every tool's question, schema, answer and outcome.
func TestDemo(t *testing.T) {
	var a, b bytes.Buffer
	if err := run(context.Background(), &a); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("demo output is not deterministic:\n%s\n---\n%s", a.String(), b.String())
	}
	out := a.String()
	for _, want := range []string{
		"call: deploy_to_production", "call: book_table", "call: kr_dashboard", "call: send_campaign", "call: connect_account",
		`"default": "release/2.4"`, `"default": "2026-12-27"`,
		"question (url mode)", "url: https://accounts.example.com/connect/github?flow=<flow-id>",
		"answer: decline", `"outcome":"declined"`, `result (isError): {"offered":["kr-latency"],"org":"globex","outcome":"unavailable"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if n := strings.Count(out, `"outcome":"accepted"`); n != 6 {
		t.Errorf("%d accepted outcomes, want 6:\n%s", n, out)
	}
	// The same form, asked in English and in Japanese (elicit.ja.json).
	for _, want := range []string{`"title": "Branch"`, `"title": "ブランチ"`, `"title": "本番"`, `"const": "production"`, "billing をデプロイしますか"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
}
