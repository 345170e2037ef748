package elicitimpl_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"
)

func ip(v int) *int         { return &v }
func fp(v float64) *float64 { return &v }
func specOf(s *runtime.Schema, paths ...string) string {
	return string(elicitimpl.AppendSpec(nil, s, paths))
}

// every is a schema that sets every property field and every default
// type the generator writes, with text a raw string could not hold as is.
var every = &runtime.Schema{Name: "Every", Properties: []runtime.Property{
	{Name: "s", Kind: runtime.KindString, Title: "Name \"quoted\" `ticked`", Description: "line\nbreak\ttab \\ back \u202e bidi \u2028 sep \x00 nul 名前",
		Required: true, MinLength: ip(1), MaxLength: ip(80), Format: "email", Default: "a`b", Pattern: `^[a-z]+\d$`,
		PatternMessage: "a word, then a `digit`"},
	{Name: "i", Kind: runtime.KindInteger, Minimum: fp(-9007199254740991), Maximum: fp(9007199254740991), Default: int64(-3)},
	{Name: "u", Kind: runtime.KindInteger, Minimum: fp(0), Default: uint64(18)},
	{Name: "f", Kind: runtime.KindNumber, Minimum: fp(0.25), Maximum: fp(1e300), Default: 2.0},
	{Name: "b", Kind: runtime.KindBoolean, Required: true, Default: false, Confirm: true},
	{Name: "e", Kind: runtime.KindEnum, Options: []runtime.Option{{Value: "staging", Title: "Staging"}, {Value: "prod"}}, Style: runtime.EnumTitled, Default: "prod"},
	{Name: "l", Kind: runtime.KindEnum, Options: []runtime.Option{{Value: "x", Title: "X"}}, Style: runtime.EnumLegacy},
	{Name: "d", Kind: runtime.KindEnum, Dynamic: true},
	{Name: "m", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}, {Value: "b"}}, MinItems: ip(1), MaxItems: ip(2), Default: []string{"a", "b"}},
	{Name: "m0", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}}, Default: []string{}},
}}

var everyPaths = []string{"S", "I", "U", "F", "B", "Base.E", "L", "D", "M", "M0"}

func TestSpecRoundTrip(t *testing.T) {
	spec := specOf(every, everyPaths...)
	checkRawSafe(t, spec)
	if n := strings.Count(spec, "\n"); n != len(every.Properties) {
		t.Errorf("spec has %d lines breaks, want one per property (%d):\n%s", n, len(every.Properties), spec)
	}
	s, paths, err := elicitimpl.ParseSpec(spec)
	if err != nil {
		t.Fatalf("ParseSpec: %v\n%s", err, spec)
	}
	if !reflect.DeepEqual(s, every) {
		for i := range s.Properties {
			if !reflect.DeepEqual(s.Properties[i], every.Properties[i]) {
				t.Errorf("property %d:\n got %#v\nwant %#v", i, s.Properties[i], every.Properties[i])
			}
		}
		t.Fatalf("schema differs after a round trip:\n%s", spec)
	}
	if !reflect.DeepEqual(paths, everyPaths) {
		t.Errorf("paths %q, want %q", paths, everyPaths)
	}
	// The writer is deterministic and its output a fixed point.
	if again := specOf(s, paths...); again != spec {
		t.Errorf("second write differs:\n%s\n%s", spec, again)
	}
}

func TestSpecEmptyAndInvalidUTF8(t *testing.T) {
	spec := specOf(&runtime.Schema{Name: "Empty"})
	if spec != `{"name":"Empty","properties":[]}` {
		t.Errorf("empty form: %s", spec)
	}
	s, _, err := elicitimpl.ParseSpec(specOf(&runtime.Schema{Name: "X", Properties: []runtime.Property{
		{Name: "s", Kind: runtime.KindString, Title: "a\xffb"},
	}}))
	if err != nil || s.Properties[0].Title != "a\uFFFDb" {
		t.Errorf("invalid UTF-8: %q %v, want U+FFFD in its place", s.Properties[0].Title, err)
	}
}

// checkRawSafe fails unless spec can sit in a Go raw string as it is and
// shows every character it holds: no backquote, carriage return, control
// or invisible formatting character.
func checkRawSafe(t *testing.T, spec string) {
	t.Helper()
	for _, r := range spec {
		if r == '`' || r == '\r' || (r < 0x20 && r != '\n') || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) || r == 0x7f {
			t.Fatalf("spec holds %U:\n%q", r, spec)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, in := range []string{
		``,
		`{`,
		`{"name":"F","properties":[]} {}`,
		`{"name":"F","properties":[],"extra":1}`,
		`{"name":"F","properties":[{"name":"a","kind":"text"}]}`,
		`{"name":"F","properties":[{"name":"a"}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"enum","style":"fancy"}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"integer","default":1.5}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"integer","default":-1,"unsigned":true}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"boolean","default":"yes"}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"multi","default":"a"}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"multi","default":null}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"string","default":null}]}`,
		`{"name":"F","properties":[{"name":"a","kind":"number","default":true}]}`,
	} {
		if _, _, err := elicitimpl.ParseSpec(in); !errors.Is(err, elicitimpl.ErrSpec) {
			t.Errorf("ParseSpec(%s) = %v, want ErrSpec", in, err)
		}
	}
}

// FuzzSpec: any text and number the generator may hold survives a round
// trip, and the spec stays raw-string safe; ParseSpec never panics on
// anything else.
func FuzzSpec(f *testing.F) {
	f.Add("name", "Title `x`", "desc \u202e\n", "def", int64(-3), 0.5, "")
	f.Add("", "\x00", "\xff\xfe", "", int64(9007199254740991), 1e300, `{"name":"F","properties":[{"name":"a","kind":"string"}]}`)
	f.Fuzz(func(t *testing.T, name, title, desc, def string, n int64, x float64, raw string) {
		_, _, _ = elicitimpl.ParseSpec(raw)
		s := &runtime.Schema{Name: name, Properties: []runtime.Property{
			{Name: name, Kind: runtime.KindString, Title: title, Description: desc, Default: def, Pattern: def},
			{Name: "i", Kind: runtime.KindInteger, Default: n, Minimum: fp(float64(n))},
			{Name: "m", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: def, Title: title}}, Default: []string{def}},
		}}
		if x == x && x-x == 0 { // a finite number: the only kind a schema holds
			s.Properties = append(s.Properties, runtime.Property{Name: "x", Kind: runtime.KindNumber, Default: x, Maximum: fp(x)})
		}
		spec := specOf(s, title, desc)
		checkRawSafe(t, spec)
		got, paths, err := elicitimpl.ParseSpec(spec)
		if err != nil {
			t.Fatalf("cannot read back %s: %v", spec, err)
		}
		if again := specOf(got, paths...); again != spec {
			t.Fatalf("round trip changed the spec:\n%s\n%s", spec, again)
		}
	})
}
