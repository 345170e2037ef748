package runtime_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
)

// legacyAsker is a scripted Asker speaking 2025-06-18.
type legacyAsker struct{ *elicittest.Asker }

func (legacyAsker) ProtocolVersion() string { return runtime.Version20250618 }

type topics struct {
	Name   string
	Topics []string
}

func topicsForm() *runtime.Form {
	one, two := 1, 2
	s := &runtime.Schema{Name: "Topics", Properties: []runtime.Property{
		{Name: "name", Kind: runtime.KindString, Title: "Name", Required: true},
		{Name: "topics", Kind: runtime.KindMulti, Title: "Topics", Required: true, MinItems: &one, MaxItems: &two, Style: runtime.EnumTitled,
			Options: []runtime.Option{{Value: "news", Title: "News"}, {Value: "sport", Title: "Sport"}, {Value: "tech", Title: "Tech"}}},
	}}
	return runtime.NewForm((*topics)(nil), s, "Name", "Topics")
}

func TestRequiredMultiSelectOn20250618(t *testing.T) {
	b, err := topicsForm().Schema().JSON(runtime.Version20250618)
	want := `{"type":"object","properties":{"name":{"type":"string","title":"Name"},` +
		`"topics.news":{"type":"boolean","title":"News","description":"Topics","default":false},` +
		`"topics.sport":{"type":"boolean","title":"Sport","description":"Topics","default":false},` +
		`"topics.tech":{"type":"boolean","title":"Tech","description":"Topics","default":false}},"required":["name"]}`
	if err != nil || string(b) != want {
		t.Fatalf("2025-06-18 schema\n got %s (%v)\nwant %s", b, err, want)
	}

	// Checked boxes become the list, in option order; minItems and
	// maxItems are checked on the server, and the person is asked again.
	a := legacyAsker{elicittest.New(
		elicittest.Accept(map[string]any{"name": "Ana", "topics.news": false, "topics.sport": false, "topics.tech": false}),
		elicittest.Accept(map[string]any{"name": "Ana", "topics.tech": true, "topics.news": true}),
	)}
	out, err := runtime.Ask[topics](context.Background(), a, topicsForm(), "Which topics?", runtime.WithRetries(1))
	if err != nil || out.Action != runtime.ActionAccept || !slices.Equal(out.Value.Topics, []string{"news", "tech"}) {
		t.Fatalf("Ask = %+v, %v; want news, tech", out, err)
	}
	if msg := a.Requests()[1].Message; !strings.Contains(msg, "Topics: choose at least 1") {
		t.Errorf("re-ask = %q", msg)
	}

	a = legacyAsker{elicittest.New(elicittest.Accept(map[string]any{"name": "Ana", "topics.news": true, "topics.sport": true, "topics.tech": true}))}
	_, err = runtime.Ask[topics](context.Background(), a, topicsForm(), "Which topics?")
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || ve.Field("topics") == nil || ve.Field("topics").ID != runtime.MsgMaxItems {
		t.Fatalf("three of at most two: %v", err)
	}

	// A key for an option that does not exist is not a field of the form.
	a = legacyAsker{elicittest.New(elicittest.Accept(map[string]any{"name": "Ana", "topics.news": true, "topics.mars": true}))}
	if _, err = runtime.Ask[topics](context.Background(), a, topicsForm(), "Which topics?"); !errors.As(err, &ve) || ve.Field("topics.mars") == nil {
		t.Fatalf("unknown option key: %v", err)
	}
}
