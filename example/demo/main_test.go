package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDemo runs the demo twice: the output is the same both times and
// shows what a round is, every tool's question, its form's Go struct
// beside the schema it became, the answer and the outcome.
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
		"answer: decline", `"outcome":"declined"`, `result (isError): {"approved":false,"campaign":"Winter sale","outcome":"unavailable","recipients":1,"scheduled":false}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if !strings.HasPrefix(out, "elicitgen example:") || !strings.Contains(out, "\n"+roundLine+"\n") || !strings.Contains(roundLine, "input_required") {
		t.Errorf("the output does not start by saying what a round is:\n%.300s", out)
	}
	// Each form's struct, as its author wrote it, sits in the left column
	// of the schema it became: the line of a field's tag also holds a
	// schema line, and the schema column holds that field's property.
	for form, field := range map[string]string{
		"Deploy":           "Branch string `json:\"branch\" elicit:\"title=Branch,default=main,minLength=1,maxLength=100\"`",
		"Rebook":           "PreferredDate string `json:\"preferred_date,omitempty\" elicit:\"title=Preferred date,format=date\"`",
		"KRArgs":           "KR  string `json:\"kr,omitempty\" jsonschema:\"the key result id; asked of the user when left out\" elicit:\"ask,title=Key result,options\"`",
		"CampaignApproval": "Window SendWindow `json:\"send_window,omitempty\" elicit:\"title=Send window,default=now\"`",
	} {
		head := "Go struct forms." + form + " (example/forms/forms.go)"
		i := strings.Index(out, head)
		if i < 0 {
			t.Errorf("no %q", head)
			continue
		}
		block := out[i:]
		block = block[:strings.Index(block, "\nanswer:")]
		var beside bool
		for _, line := range strings.Split(block, "\n") {
			if l, r, ok := strings.Cut(line, " | "); ok && strings.Contains(l, field) && strings.TrimSpace(r) != "" {
				beside = true
			}
		}
		if !beside || !strings.Contains(block, "type "+form+" struct {") || !strings.Contains(block, "| }") {
			t.Errorf("%s: the struct is not shown beside its schema:\n%s", form, block)
		}
	}
	// The audit records of the approved and the declined deploy: who
	// answered what, to which question, never the values typed.
	for _, want := range []string{
		`"msg":"elicitation.answered","event":"answered","method":"tools/call","tool":"deploy_to_production"`,
		`"client":"demo-client"`, `"form":"Deploy"`, `"asked":true`, `"action":"accept","content":{"environment":"production"}`,
		`"action":"decline"`, `"event":"call_end"`, `"reply":"input_required"`, `"reply":"result"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks the audit record part %q", want)
		}
	}
	if n := strings.Count(out, "audit records ("); n != 2 {
		t.Errorf("%d audit blocks, want 2 (the approved and the declined deploy)", n)
	}
	if n := strings.Count(out, `"outcome":"accepted"`); n != 6 {
		t.Errorf("%d accepted outcomes, want 6:\n%s", n, out)
	}
	// The same form, asked in English and in Japanese (elicit.ja.json),
	// which the question reports (SEP-2792 contentLanguage).
	for _, want := range []string{`"title": "Branch"`, `"title": "ブランチ"`, `"title": "本番"`, `"const": "production"`, "billing をデプロイしますか", `the form is in "ja"`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
}
