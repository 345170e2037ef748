package app_test

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
)

func propNames(q question) []string {
	props, _ := q.Schema["properties"].(map[string]any)
	var names []string
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// kr_dashboard asks for kr only when the model leaves it out; a kr it
// gives is checked against the org's, and asked again when it is not one.
func TestKRAskedOnlyWhenMissing(t *testing.T) {
	c, _ := connect(t, clientOpts{elicit: true})
	c.script(accept(map[string]any{"kr": "kr-nps"}))

	out, res := c.call(t, app.ToolKR, map[string]any{"org": "acme", "kr": "kr-churn"})
	if qs := c.asked(); len(qs) != 0 || res.IsError {
		t.Fatalf("a complete call asked %+v (isError %v)", qs, res.IsError)
	}
	want(t, out, "outcome", app.OutcomeAccepted)
	want(t, out, "kr", "kr-churn")

	out, _ = c.call(t, app.ToolKR, map[string]any{"org": "acme"})
	qs := c.asked()
	if len(qs) != 1 || !slices.Equal(propNames(qs[0]), []string{"kr"}) {
		t.Fatalf("questions = %+v, want one asking kr", qs)
	}
	want(t, out, "kr", "kr-nps")

	c.script(accept(map[string]any{"kr": "kr-activation"}))
	out, _ = c.call(t, app.ToolKR, map[string]any{"org": "acme", "kr": "kr-latency"}) // globex's
	qs = c.asked()
	if len(qs) != 1 || !strings.Contains(qs[0].Message, `Key result must be one of "Raise week-1 activation to 45%", "Cut monthly churn below 2%", "Reach an NPS of 50" ("kr-latency" is not)`) {
		t.Fatalf("questions = %+v, want kr asked again with the reason", qs)
	}
	want(t, out, "kr", "kr-activation")
}

// book_table asks for what is missing, and only that.
func TestBookAsksWhatIsMissing(t *testing.T) {
	c, store := connect(t, clientOpts{elicit: true})
	c.script(accept(map[string]any{"date": "2026-12-27", "party_size": 3}))
	out, _ := c.call(t, app.ToolBook, map[string]any{})
	qs := c.asked()
	if len(qs) != 1 || !slices.Equal(propNames(qs[0]), []string{"date", "party_size"}) {
		t.Fatalf("questions = %+v, want one asking date and party_size", qs)
	}
	want(t, out, "booked_date", "2026-12-27")
	want(t, out, "party_size", 3)

	c.script(accept(map[string]any{"date": "2026-12-28"}))
	out, _ = c.call(t, app.ToolBook, map[string]any{"date": "tomorrow", "party_size": 2})
	qs = c.asked()
	if len(qs) != 1 || !slices.Equal(propNames(qs[0]), []string{"date"}) || !strings.Contains(qs[0].Message, `Date must be a date, YYYY-MM-DD ("tomorrow" is not)`) {
		t.Fatalf("questions = %+v, want date asked again with the reason", qs)
	}
	want(t, out, "booked_date", "2026-12-28")
	want(t, out, "party_size", 2)
	if n := len(store.Bookings()); n != 2 {
		t.Errorf("%d bookings, want 2", n)
	}
}

// Tool input schemas mark the asked arguments optional and carry no
// nullable type unions.
func TestInputSchemas(t *testing.T) {
	c, _ := connect(t, clientOpts{})
	res, err := c.cs.ListTools(callCtx(t), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{app.ToolBook: nil, app.ToolKR: {"org"}, app.ToolCampaign: {"campaign", "recipients"}}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(string(b), `"null"`) {
			t.Errorf("%s: input schema has a null type: %s", tool.Name, b)
		}
		want, ok := required[tool.Name]
		if !ok {
			continue
		}
		var s struct {
			Required []string `json:"required"`
		}
		_ = json.Unmarshal(b, &s)
		if !slices.Equal(s.Required, want) {
			t.Errorf("%s: required = %v, want %v (%s)", tool.Name, s.Required, want, b)
		}
	}
}
