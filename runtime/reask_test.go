package runtime_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

type reaskForm struct {
	Name    string
	Count   int
	Teams   []string
	Approve bool
	Note    string
}

// TestReaskKeepsValidAnswers: the re-ask of an invalid answer pre-fills
// every field that was valid with what the person gave (its default), so
// that only the invalid field needs their attention; the invalid field
// and a box tagged confirm keep the form's own defaults. The MCP schema
// of the re-ask carries those defaults on 2025-11-25 and 2026-07-28.
func TestReaskKeepsValidAnswers(t *testing.T) {
	ten, one := 10.0, 1
	s := &runtime.Schema{Name: "Reask", Properties: []runtime.Property{
		{Name: "name", Kind: runtime.KindString, Title: "Name", Required: true},
		{Name: "count", Kind: runtime.KindInteger, Title: "Count", Required: true, Maximum: &ten},
		{Name: "teams", Kind: runtime.KindMulti, Title: "Teams", MinItems: &one, Options: []runtime.Option{{Value: "web"}, {Value: "ops"}}},
		{Name: "approve", Kind: runtime.KindBoolean, Title: "Approve", Required: true, Confirm: true, Default: false},
		{Name: "note", Kind: runtime.KindString, Title: "Note", Default: "none"},
	}}
	f := runtime.NewForm((*reaskForm)(nil), s, "Name", "Count", "Teams", "Approve", "Note")
	a := elicittest.New(
		elicittest.Accept(map[string]any{"name": "Ana", "count": 99.0, "teams": []any{"ops"}, "approve": true, "note": "late"}),
		elicittest.Accept(map[string]any{"name": "Ana", "count": 3.0, "teams": []any{"ops"}, "approve": true, "note": "late"}),
	)
	out, err := runtime.Ask[reaskForm](context.Background(), a, f, "Book?", runtime.WithRetries(1))
	if err != nil || out.Action != runtime.ActionAccept {
		t.Fatalf("%+v, %v", out, err)
	}
	reqs := a.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, again := reqs[0].Schema, reqs[1].Schema
	for name, want := range map[string]any{"name": "Ana", "count": nil, "teams": []string{"ops"}, "approve": false, "note": "late"} {
		if got := again.Property(name).Default; !reflect.DeepEqual(got, want) {
			t.Errorf("re-ask default of %s = %#v, want %#v", name, got, want)
		}
	}
	if first.Property("name").Default != nil || first.Property("note").Default != "none" {
		t.Error("the first question's schema was changed")
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		raw, err := again.JSON(version)
		if err != nil {
			t.Fatal(err)
		}
		var js struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &js); err != nil {
			t.Fatal(err)
		}
		if js.Properties["name"].Default != "Ana" || js.Properties["note"].Default != "late" || !reflect.DeepEqual(js.Properties["teams"].Default, []any{"ops"}) {
			t.Errorf("%s: the re-asked schema does not carry the valid answers: %s", version, raw)
		}
	}
}
