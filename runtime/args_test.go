package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// bookArgs is a tool's arguments: Org is the model's alone, Date and Party
// are asked when missing.
type bookArgs struct {
	Org   string
	Date  string
	Party int
	KR    string
}

var bookArgsForm = runtime.NewForm((*bookArgs)(nil), &runtime.Schema{Name: "BookArgs", Properties: []runtime.Property{
	{Name: "date", Kind: runtime.KindString, Required: true, Format: "date"},
	{Name: "party_size", Kind: runtime.KindInteger, Required: true, Minimum: ptr(1.0), Maximum: ptr(12.0)},
	{Name: "kr", Kind: runtime.KindEnum, Required: true, Dynamic: true},
}}, "Date", "Party", "KR")

var krOpts = runtime.WithOptions("kr", runtime.Option{Value: "kr-1"}, runtime.Option{Value: "kr-2"})

// recorder answers each question with the next response and records the
// questions.
type recorder struct {
	answers []*runtime.Response
	asked   []*runtime.Request
}

func (r *recorder) Ask(_ context.Context, req *runtime.Request) (*runtime.Response, error) {
	r.asked = append(r.asked, req)
	if len(r.answers) == 0 {
		return nil, errors.New("no more answers")
	}
	a := r.answers[0]
	r.answers = r.answers[1:]
	return a, nil
}

func names(s *runtime.Schema) string {
	var out []string
	for _, p := range s.Properties {
		out = append(out, p.Name)
	}
	return strings.Join(out, ",")
}

func TestAskMissingAsksOnlyTheMissing(t *testing.T) {
	in := bookArgs{Org: "acme", Date: "2026-12-24"}
	r := &recorder{answers: []*runtime.Response{{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 4.0, "kr": "kr-2"}}}}
	act, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book a table", krOpts)
	if err != nil || act != runtime.ActionAccept {
		t.Fatalf("AskMissing: %v %v", act, err)
	}
	if len(r.asked) != 1 || names(r.asked[0].Schema) != "party_size,kr" {
		t.Fatalf("asked %d questions, first: %v", len(r.asked), r.asked)
	}
	if r.asked[0].Schema.Property("kr").Options[1].Value != "kr-2" {
		t.Fatal("the options were not sent")
	}
	if in != (bookArgs{Org: "acme", Date: "2026-12-24", Party: 4, KR: "kr-2"}) {
		t.Fatalf("merged: %+v", in)
	}
}

func TestAskMissingCompleteAsksNothing(t *testing.T) {
	in := bookArgs{Org: "acme", Date: "2026-12-24", Party: 2, KR: "kr-1"}
	r := &recorder{}
	act, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts)
	if err != nil || act != runtime.ActionAccept || len(r.asked) != 0 {
		t.Fatalf("AskMissing: %v %v, asked %d", act, err, len(r.asked))
	}
}

func TestAskMissingReasksInvalidSupplied(t *testing.T) {
	in := bookArgs{Org: "acme", Date: "2026-12-24", Party: 40, KR: "kr-9"}
	r := &recorder{answers: []*runtime.Response{{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 4.0, "kr": "kr-1"}}}}
	act, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts)
	if err != nil || act != runtime.ActionAccept {
		t.Fatalf("AskMissing: %v %v", act, err)
	}
	msg := r.asked[0].Message
	if names(r.asked[0].Schema) != "party_size,kr" || !strings.HasPrefix(msg, "Please fill in: party_size, kr.") || !strings.Contains(msg, "party_size must be at most 12") || !strings.Contains(msg, `kr must be one of "kr-1", "kr-2" ("kr-9" is not)`) || strings.Contains(msg, "kr:") {
		t.Fatalf("asked %s with %q", names(r.asked[0].Schema), msg)
	}
	if in.Party != 4 || in.KR != "kr-1" || in.Date != "2026-12-24" {
		t.Fatalf("merged: %+v", in)
	}
}

func TestAskMissingDeclineLeavesArgs(t *testing.T) {
	in := bookArgs{Org: "acme"}
	r := &recorder{answers: []*runtime.Response{{Action: runtime.ActionDecline}}}
	act, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts)
	if err != nil || act != runtime.ActionDecline || in != (bookArgs{Org: "acme"}) {
		t.Fatalf("AskMissing: %v %v %+v", act, err, in)
	}
	// An answer with a key that was not asked is invalid.
	in = bookArgs{Org: "acme", Date: "2026-12-24", KR: "kr-1"}
	r = &recorder{answers: []*runtime.Response{{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 3.0, "date": "2027-01-01"}}}}
	_, err = bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts)
	if !errors.Is(err, runtime.ErrInvalidContent) || !strings.Contains(err.Error(), "date: is not a field of this form") || in.Party != 0 {
		t.Fatalf("AskMissing: %v %+v", err, in)
	}
	// Options are needed even when the value was supplied.
	in = bookArgs{Org: "acme", Date: "2026-12-24", Party: 2, KR: "kr-1"}
	if _, err := bookArgsForm.AskMissing(context.Background(), &recorder{}, &in, "Book"); !errors.Is(err, runtime.ErrMissingOptions) {
		t.Fatalf("without WithOptions: %v", err)
	}
}

// The same invalid answer twice stops the retries and names the fields
// this client could not fill, for the model.
func TestRepeatedInvalidAnswerStops(t *testing.T) {
	in := bookArgs{Org: "acme", Date: "2026-12-24", KR: "kr-1"}
	empty := &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{}}
	r := &recorder{answers: []*runtime.Response{empty, empty, empty, empty}}
	_, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts, runtime.WithRetries(5))
	var ue *runtime.UnfilledError
	if !errors.As(err, &ue) || !errors.Is(err, runtime.ErrInvalidContent) || len(r.asked) != 2 {
		t.Fatalf("err %v after %d asks", err, len(r.asked))
	}
	if len(ue.Fields) != 1 || ue.Fields[0] != "party_size" || !ue.Args {
		t.Fatalf("fields %v args %v", ue.Fields, ue.Args)
	}
	text := runtime.AskFailureText(err)
	if !strings.Contains(text, "Ask the user for party_size in the conversation, then call the tool again") {
		t.Fatalf("model text: %s", text)
	}
	// A different invalid answer is asked again.
	r = &recorder{answers: []*runtime.Response{empty, {Action: runtime.ActionAccept, Content: map[string]any{"party_size": 0.0}},
		{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 5.0}}}}
	if act, err := bookArgsForm.AskMissing(context.Background(), r, &in, "Book", krOpts, runtime.WithRetries(5)); err != nil || act != runtime.ActionAccept || in.Party != 5 {
		t.Fatalf("AskMissing: %v %v %+v", act, err, in)
	}
}

// code is a form with a server-side pattern and a check hook.
type code struct {
	Code  string
	From  int
	Until int
}

func (c code) CheckElicit() error {
	if c.Until < c.From {
		return errors.Join(&runtime.FieldError{Field: "until", Msg: "must not be before from"}, errors.New("the range is empty"))
	}
	return nil
}

var codeForm = runtime.NewForm((*code)(nil), &runtime.Schema{Name: "Code", Properties: []runtime.Property{
	{Name: "code", Kind: runtime.KindString, Required: true, Pattern: `^[A-Z]{3}-\d+$`},
	{Name: "from", Kind: runtime.KindInteger, Required: true},
	{Name: "until", Kind: runtime.KindInteger, Required: true},
}}, "Code", "From", "Until")

func TestPatternAndCheckHook(t *testing.T) {
	var v code
	err := codeForm.Decode(map[string]any{"code": "abc", "from": 1.0, "until": 2.0}, &v)
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || ve.Field("code") == nil || ve.Field("code").Msg != `"abc" does not match the pattern ^[A-Z]{3}-\d+$` {
		t.Fatalf("pattern: %v", err)
	}
	err = codeForm.Decode(map[string]any{"code": "ABC-1", "from": 3.0, "until": 2.0}, &v)
	if !errors.As(err, &ve) || ve.Field("until") == nil || ve.Field("") == nil || ve.Field("").Msg != "the range is empty" {
		t.Fatalf("hook: %v", err)
	}
	if err := codeForm.Validate(&code{Code: "ABC-1", From: 3, Until: 1}); err == nil {
		t.Fatal("Validate skipped the hook")
	}
	if err := codeForm.Validate(&code{Code: "x", From: 1, Until: 1}); err == nil {
		t.Fatal("Validate skipped the pattern")
	}
	if err := codeForm.Decode(map[string]any{"code": "ABC-1", "from": 1.0, "until": 2.0}, &v); err != nil || v.Code != "ABC-1" {
		t.Fatalf("valid: %v", err)
	}
	// The pattern is never sent.
	b, _ := codeForm.Schema().JSON(runtime.LatestVersion)
	if strings.Contains(string(b), "pattern") || strings.Contains(string(b), "A-Z") {
		t.Fatalf("schema sent the pattern: %s", b)
	}
	// An invalid answer is asked again with elicitgen's message.
	r := &recorder{answers: []*runtime.Response{
		{Action: runtime.ActionAccept, Content: map[string]any{"code": "ABC-1", "from": 3.0, "until": 2.0}},
		{Action: runtime.ActionAccept, Content: map[string]any{"code": "ABC-1", "from": 1.0, "until": 2.0}},
	}}
	if _, err := codeForm.Ask(context.Background(), r, &v, "Code?", runtime.WithRetries(1)); err != nil || len(r.asked) != 2 || !strings.Contains(r.asked[1].Message, "until: must not be before from") {
		t.Fatalf("re-ask: %v %d", err, len(r.asked))
	}
}

// stay is an arguments struct whose CheckElicit spans fields.
type stay struct {
	From, Until int
}

func (s stay) CheckElicit() error {
	if s.Until <= s.From {
		return &runtime.FieldError{Field: "until", Msg: "must be after from"}
	}
	return nil
}

var stayForm = runtime.NewForm((*stay)(nil), &runtime.Schema{Name: "Stay", Properties: []runtime.Property{
	{Name: "from", Kind: runtime.KindInteger, Required: true},
	{Name: "until", Kind: runtime.KindInteger, Required: true},
}}, "From", "Until")

// Complete arguments that CheckElicit refuses are asked again, the field
// it names only, with its reason; a merged answer is checked by it too.
func TestAskMissingCheckHook(t *testing.T) {
	in := stay{From: 5, Until: 3}
	r := &recorder{answers: []*runtime.Response{
		{Action: runtime.ActionAccept, Content: map[string]any{"until": 4.0}},
		{Action: runtime.ActionAccept, Content: map[string]any{"until": 9.0}},
	}}
	act, err := stayForm.AskMissing(context.Background(), r, &in, "Until when?", runtime.WithRetries(1))
	if err != nil || act != runtime.ActionAccept || in != (stay{From: 5, Until: 9}) {
		t.Fatalf("AskMissing: %v %v %+v", act, err, in)
	}
	if len(r.asked) != 2 || names(r.asked[0].Schema) != "until" || !strings.Contains(r.asked[0].Message, "until: must be after from") ||
		!strings.Contains(r.asked[1].Message, "until: must be after from") {
		t.Fatalf("asked %d: %+v", len(r.asked), r.asked)
	}
}
