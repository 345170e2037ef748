package sdktest

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// bookTool completes its arguments with HandleArgs before it runs.
const bookTool = "book_args"

var bookMissing = runtime.MissingArgs[testforms.BookArgs]{
	Ask:     testforms.AskMissingBookArgs,
	Message: "Which date, and for how many?",
}

func booked(in testforms.BookArgs) string {
	return fmt.Sprintf("booked %s %s %d", in.Org, in.Date, in.PartySize)
}

// properties returns the property names of a question's schema, sorted.
func properties(q question) string {
	props, _ := q.Schema["properties"].(map[string]any)
	var names []string
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

var argsMatrix = []matrixCase{
	{"complete_asks_nothing", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(int, question) (*runtime.Response, error) { return choiceAnswer("x"), nil }}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), bookTool, map[string]any{"org": "acme", "date": "2026-12-24", "party_size": 2})
		if err != nil || res.IsError || res.Text != "booked acme 2026-12-24 2" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		if n := len(u.questions()); n != 0 {
			t.Errorf("asked %d questions, want none", n)
		}
		checkEra(t, s, c, version)
	}},
	{"missing_asked", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(int, question) (*runtime.Response, error) {
			return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 4}}, nil
		}}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), bookTool, map[string]any{"org": "acme", "date": "2026-12-24"})
		if err != nil || res.IsError || res.Text != "booked acme 2026-12-24 4" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		qs := u.questions()
		if len(qs) != 1 || properties(qs[0]) != "party_size" || qs[0].Message != "Please fill in: Party size." {
			t.Fatalf("questions = %+v, want one asking party_size only", qs)
		}
		// The handler runs once, with complete arguments, on every era.
		if n := s.runs.Load(); n != 1 {
			t.Errorf("handler ran %d times, want 1", n)
		}
		pushed, results := c.tap.requests(false, "elicitation/create"), c.tap.toolResults()
		if runtime.EraOf(version).MultiRoundTrip() {
			ir, _ := results[0]["inputRequests"].(map[string]any)
			if len(pushed) != 0 || len(results) != 2 || results[0]["resultType"] != "input_required" || ir["BookArgs"] == nil {
				t.Errorf("2026-07-28: %d pushed, results %v; want one input_required round keyed BookArgs", len(pushed), results)
			}
		} else if len(pushed) != 1 {
			t.Errorf("%s: %d elicitation/create requests, want 1", version, len(pushed))
		}
	}},
	{"invalid_supplied_asked_again", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(int, question) (*runtime.Response, error) {
			return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"party_size": 3, "date": "2026-12-31"}}, nil
		}}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), bookTool, map[string]any{"org": "acme", "party_size": 40})
		if err != nil || res.IsError || res.Text != "booked acme 2026-12-31 3" {
			t.Fatalf("call = %+v, %v", res, err)
		}
		qs := u.questions()
		if len(qs) != 1 || properties(qs[0]) != "date,party_size" || !strings.HasPrefix(qs[0].Message, bookMissing.Message) || !strings.Contains(qs[0].Message, "Party size must be at most 12") {
			t.Fatalf("questions = %+v, want date and party_size with the reason", qs)
		}
	}},
	{"declined", func(t *testing.T, sdk, version string) {
		s := newServer(t, sdk, runtime.UnavailableAuto)
		u := &recorder{f: func(int, question) (*runtime.Response, error) {
			return &runtime.Response{Action: runtime.ActionDecline}, nil
		}}
		c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
		res, err := c.call(callCtx(t), bookTool, map[string]any{"org": "acme"})
		if err != nil || !res.IsError || !strings.Contains(res.Text, "declined to give the tool's missing arguments") {
			t.Fatalf("call = %+v, %v; want a tool error saying the user declined", res, err)
		}
		if n := s.runs.Load(); n != 0 {
			t.Errorf("handler ran %d times, want 0", n)
		}
	}},
}

func TestArgsMatrix(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		t.Run(sdk, func(t *testing.T) {
			for _, version := range versions {
				t.Run(version, func(t *testing.T) {
					for _, mc := range argsMatrix {
						t.Run(mc.name, func(t *testing.T) { mc.run(t, sdk, version) })
					}
				})
			}
		})
	}
}
