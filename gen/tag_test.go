package gen

import (
	"strings"
	"testing"
)

func TestParseTag(t *testing.T) {
	cases := []struct {
		tag  string
		want string // key=value;... or error text
	}{
		{"", ""},
		{"optional", "optional"},
		{"min=1,max=5", "min=1;max=5"},
		{"title='Phone, optional',desc=x", "title=Phone, optional;desc=x"},
		{"enum=a|b|c", "enum=a|b|c"},
		{"title='it''s',optional", "title=it's;optional"},
		{"default=", "default="},
		{"title='oops", "error: unterminated quote"},
		{"maxlen=3", `error: unknown elicit option "maxlen" (did you mean "maxLength"?)`},
		{"description=x", `error: unknown elicit option "description" (did you mean "desc"?)`},
		{"zzzzzz=1", `error: unknown elicit option "zzzzzz"`},
		{"default", "error: needs a value"},
		{"required=true", "error: takes no value"},
		{"min=1,min=2", "error: given twice"},
		{"a,,b", "error: empty option"},
		{"title='x'y", "error: unexpected text after quoted value"},
	}
	for _, c := range cases {
		opts, errs := parseTag(c.tag)
		if strings.HasPrefix(c.want, "error: ") {
			found := false
			for _, e := range errs {
				found = found || strings.Contains(e.Msg, strings.TrimPrefix(c.want, "error: "))
			}
			if !found {
				t.Errorf("parseTag(%q): want error %q, got %v", c.tag, c.want, errs)
			}
			continue
		}
		if len(errs) > 0 {
			t.Errorf("parseTag(%q): unexpected error %v", c.tag, errs[0])
			continue
		}
		var parts []string
		for _, o := range opts {
			if o.HasValue {
				parts = append(parts, o.Key+"="+o.Value)
			} else {
				parts = append(parts, o.Key)
			}
		}
		if got := strings.Join(parts, ";"); got != c.want {
			t.Errorf("parseTag(%q) = %q, want %q", c.tag, got, c.want)
		}
	}
}

func TestParseTagOffsets(t *testing.T) {
	_, errs := parseTag("min=1,bogus=2")
	if len(errs) != 1 || errs[0].Offset != 6 {
		t.Fatalf("offset: %+v", errs)
	}
}

func TestLooksSecret(t *testing.T) {
	for _, s := range []string{"Password", "api_key", "APIKey", "authToken", "card_number", "CreditCard", "clientSecret", "PIN", "PrivateKey"} {
		if !looksSecret(s) {
			t.Errorf("%s: not detected", s)
		}
	}
	for _, s := range []string{"Branch", "Tokens", "Spinner", "Keyboard", "Opinion", "Passenger", "Pinned", "Description"} {
		if looksSecret(s) {
			t.Errorf("%s: false positive", s)
		}
	}
}

// FuzzParseTag: the parser never panics, every error has an offset inside
// the tag, and every option it returns is a known key.
func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"", "min=1,max=2", "title='a, b'", "enum=a|b", "title='x''y'", "'", "=,=", "default=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		opts, errs := parseTag(s)
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("offset %d outside %q", e.Offset, s)
			}
		}
		seen := map[string]bool{}
		for _, o := range opts {
			if _, ok := knownKeys[o.Key]; !ok {
				t.Fatalf("unknown key %q accepted", o.Key)
			}
			if seen[o.Key] {
				t.Fatalf("key %q returned twice", o.Key)
			}
			seen[o.Key] = true
		}
	})
}

// nearElicit catches misspellings of the elicit key, a swap of neighbours
// among them, and nothing else.
func TestNearElicit(t *testing.T) {
	for _, k := range []string{"elict", "Elicit", "ELICITS", "elciit", "ellicit"} {
		if !nearElicit(k) {
			t.Errorf("nearElicit(%q) = false", k)
		}
	}
	for _, k := range []string{"elicit", "json", "yaml", "jsonschema", "e", "elicitation"} {
		if nearElicit(k) {
			t.Errorf("nearElicit(%q) = true", k)
		}
	}
}

// spacedOptions warns at the option's name after ", " behind free text,
// and quotes the value it suggests as a tag must (a quote doubled).
func TestSpacedOptions(t *testing.T) {
	for _, c := range []struct {
		tag  string
		at   []int
		want string
	}{
		{tag: "title=Phone, optional", at: []int{13}, want: "title='Phone, optional'"},
		{tag: "title=It's, optional", at: []int{12}, want: "title='It''s, optional'"},
		{tag: "desc=Where,  maxLength=8", at: []int{13}, want: "desc='Where, maxLength=8'"},
		{tag: "title=Phone,optional"},
		{tag: "title='Phone, optional'"},
		{tag: "min=1, max=2"},
	} {
		opts, errs := parseTag(c.tag)
		if len(errs) > 0 {
			t.Fatalf("parseTag(%q): %v", c.tag, errs)
		}
		ws := spacedOptions(c.tag, opts)
		if len(ws) != len(c.at) {
			t.Errorf("%q: %d warnings, want %d: %v", c.tag, len(ws), len(c.at), ws)
			continue
		}
		for i, w := range ws {
			if w.Offset != c.at[i] || !strings.Contains(w.Msg, c.want) {
				t.Errorf("%q: warning at %d %q, want at %d naming %s", c.tag, w.Offset, w.Msg, c.at[i], c.want)
			}
		}
	}
}
