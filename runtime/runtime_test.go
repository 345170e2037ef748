package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicittest"
	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// form is a hand-built form in the shape elicitgen generates.
type form struct {
	Name   string
	Count  int8
	Big    uint64
	Ratio  float32
	OK     *bool
	Env    string
	Tags   []string
	At     time.Time
	Mail   string
	Day    *time.Time
	Amount *int
}

var schema = &runtime.Schema{Name: "Form", Properties: []runtime.Property{
	{Name: "name", Kind: runtime.KindString, Required: true, MinLength: ptr(2), MaxLength: ptr(4)},
	{Name: "count", Kind: runtime.KindInteger, Required: true, Minimum: ptr(-100.0)},
	{Name: "big", Kind: runtime.KindInteger, Minimum: ptr(0.0)},
	{Name: "ratio", Kind: runtime.KindNumber, Maximum: ptr(1.0)},
	{Name: "ok", Kind: runtime.KindBoolean, Default: true},
	{Name: "env", Kind: runtime.KindEnum, Options: []runtime.Option{{Value: "a", Title: "A"}, {Value: "b"}}, Style: runtime.EnumTitled, Default: "b"},
	{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "x"}, {Value: "y"}}, MaxItems: ptr(2)},
	{Name: "at", Kind: runtime.KindString, Format: "date-time"},
	{Name: "mail", Kind: runtime.KindString, Format: "email"},
	{Name: "day", Kind: runtime.KindString, Format: "date"},
	{Name: "amount", Kind: runtime.KindInteger, Default: int64(7)},
}}

var formDef = runtime.NewForm((*form)(nil), schema, "Name", "Count", "Big", "Ratio", "OK", "Env", "Tags", "At", "Mail", "Day", "Amount")

func decode(_ *runtime.Schema, c map[string]any) (form, error) {
	var v form
	err := formDef.Decode(c, &v)
	return v, err
}

func TestDecodeValid(t *testing.T) {
	v, err := decode(schema, map[string]any{
		"name": "héé", "count": float64(-100), "big": json.Number("9007199254740991"),
		"ratio": 0.25, "tags": []any{"x", "y"}, "at": "2026-11-30T10:00:00+01:00",
		"mail": "a@b.example", "day": "2026-02-28",
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "héé" || v.Count != -100 || v.Big != 1<<53-1 || v.Ratio != 0.25 {
		t.Fatalf("values: %+v", v)
	}
	if v.OK == nil || !*v.OK || v.Env != "b" || v.Amount == nil || *v.Amount != 7 {
		t.Fatalf("defaults not applied: %+v", v)
	}
	if v.At.Hour() != 10 || v.Day.Day() != 28 || len(v.Tags) != 2 {
		t.Fatalf("time or multi: %+v", v)
	}
}

func TestDecodeRejects(t *testing.T) {
	base := func() map[string]any { return map[string]any{"name": "abc", "count": float64(1)} }
	cases := []struct {
		field string
		value any
		msg   string
	}{
		{"name", "a", "at least 2 characters"},
		{"name", "abcde", "at most 4 characters"},
		{"name", 5.0, "must be a string, got a number"},
		{"name", nil, "is required"},
		{"count", 1.5, "must be an integer"},
		{"count", 128.0, "out of range for int8"},
		{"count", -129.0, "out of range for int8"},
		{"count", -101.0, "at least -100"},
		{"count", "1", "must be an integer, got a string"},
		{"count", json.Number("1e400"), "1e400 is outside the JSON-safe integer range"},
		{"big", -1.0, "out of range for uint64"},
		{"big", 1e20, "outside the JSON-safe integer range"},
		{"big", 9007199254740992.0, "9007199254740992 is outside the JSON-safe integer range"},
		{"big", json.Number("9007199254740993"), "9007199254740993 is outside the JSON-safe integer range"},
		{"big", json.Number("9223372036854775807"), "9223372036854775807 is outside"},
		{"big", json.Number("18446744073709551616"), "18446744073709551616 is outside the JSON-safe integer range"},
		{"count", json.Number("10.0000000000000001"), "must be an integer, got 10.0000000000000001"},
		{"count", 10.000000000000002, "must be an integer"},
		{"ratio", 1.5, "at most 1"},
		{"ratio", 1e39, "out of range for float32"},
		{"ok", "true", "must be a boolean"},
		{"env", "c", `"c" is not one of "a", "b"`},
		{"tags", []any{"x", "z"}, `item "z" is not one of`},
		{"tags", []any{"x", "x"}, `item "x" is repeated`},
		{"tags", []any{"x", "y", "x"}, "at most 2 items"},
		{"tags", []any{1.0}, "items must be strings"},
		{"tags", "x", "must be an array of strings"},
		{"at", "yesterday", "not a date-time"},
		{"mail", "not an email", "not an email address"},
		{"mail", "Bob <b@c.d>", "not an email address"},
		{"day", "2026-02-30", "not a date"},
		{"amount", true, "must be an integer, got a boolean"},
		{"surprise", 1.0, "is not a field of this form"},
	}
	for _, c := range cases {
		t.Run(c.field+"/"+c.msg, func(t *testing.T) {
			content := base()
			content[c.field] = c.value
			_, err := decode(schema, content)
			if !errors.Is(err, runtime.ErrInvalidContent) {
				t.Fatalf("want ErrInvalidContent, got %v", err)
			}
			var ve *runtime.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("not a *ValidationError: %T", err)
			}
			fe := ve.Field(c.field)
			if fe == nil || !strings.Contains(fe.Msg, c.msg) {
				t.Fatalf("field %s: want %q, got %v", c.field, c.msg, err)
			}
			var target *runtime.FieldError
			if !errors.As(err, &target) {
				t.Fatal("errors.As does not find a *FieldError")
			}
		})
	}
}

func TestDecodeReportsEveryField(t *testing.T) {
	_, err := decode(schema, map[string]any{"count": 0.5, "ratio": "x", "zz": 1.0, "aa": 1.0})
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	var names []string
	for _, f := range ve.Fields {
		names = append(names, f.Field)
	}
	if got := strings.Join(names, ","); got != "name,count,ratio,aa,zz" {
		t.Fatalf("fields reported: %s (%v)", got, err)
	}
}

func TestSchemaJSONPerVersion(t *testing.T) {
	s := &runtime.Schema{Name: "S", Properties: []runtime.Property{
		{Name: "env", Kind: runtime.KindEnum, Required: true, Style: runtime.EnumTitled, Default: "a",
			Options: []runtime.Option{{Value: "a", Title: "Alpha"}, {Value: "b"}}},
		{Name: "n", Kind: runtime.KindInteger, Minimum: ptr(1.0), Default: int64(3)},
		{Name: "ok", Kind: runtime.KindBoolean, Default: false},
	}}
	latest, err := s.JSON(runtime.Version20251125)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"env":{"type":"string","oneOf":[{"const":"a","title":"Alpha"},{"const":"b","title":"b"}],"default":"a"},"n":{"type":"integer","minimum":1,"default":3},"ok":{"type":"boolean","default":false}},"required":["env"]}`
	if string(latest) != want {
		t.Fatalf("2025-11-25:\n got %s\nwant %s", latest, want)
	}
	old, err := s.JSON(runtime.Version20250618)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"type":"object","properties":{"env":{"type":"string","enum":["a","b"],"enumNames":["Alpha","b"]},"n":{"type":"integer","minimum":1},"ok":{"type":"boolean","default":false}},"required":["env"]}`
	if string(old) != want {
		t.Fatalf("2025-06-18:\n got %s\nwant %s", old, want)
	}
	multi := &runtime.Schema{Name: "M", Properties: []runtime.Property{{Name: "m", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "x"}}}}}
	if _, err := multi.JSON(runtime.Version20250618); !errors.Is(err, runtime.ErrUnavailable) {
		t.Fatalf("multi-select on 2025-06-18: want ErrUnavailable, got %v", err)
	}
}

func TestAskOutcomes(t *testing.T) {
	ctx := context.Background()
	a := elicittest.New(
		elicittest.Accept(map[string]any{"name": "abc", "count": 3}),
		elicittest.Decline(),
		elicittest.Cancel(),
		elicittest.Respond(&runtime.Response{Action: "maybe"}, nil),
		elicittest.Respond(nil, nil),
	)
	out, err := runtime.Ask[form](ctx, a, formDef, "q")
	if v, ok := out.Accepted(); err != nil || !ok || v.Count != 3 {
		t.Fatalf("accept: %+v %v", out, err)
	}
	if out, err := runtime.Ask[form](ctx, a, formDef, "q"); err != nil || out.Action != runtime.ActionDecline {
		t.Fatalf("decline: %+v %v", out, err)
	}
	if out, err := runtime.Ask[form](ctx, a, formDef, "q"); err != nil || out.Action != runtime.ActionCancel {
		t.Fatalf("cancel: %+v %v", out, err)
	}
	for i := 0; i < 2; i++ {
		if out, err := runtime.Ask[form](ctx, a, formDef, "q"); !errors.Is(err, runtime.ErrInvalidAction) || out.Action != "" {
			t.Fatalf("bad action: %+v %v", out, err)
		}
	}
	if _, err := runtime.Ask[form](ctx, nil, formDef, "q"); !errors.Is(err, runtime.ErrUnavailable) {
		t.Fatalf("nil asker: %v", err)
	}
}

func TestAskTimeoutAndCancel(t *testing.T) {
	a := elicittest.New(elicittest.Block())
	_, err := runtime.Ask[form](context.Background(), a, formDef, "q", runtime.WithTimeout(10*time.Millisecond))
	if !errors.Is(err, runtime.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = runtime.Ask[form](ctx, elicittest.New(elicittest.Block()), formDef, "q")
	if !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrTimeout) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestAskOptionsAndDefaults(t *testing.T) {
	dyn := &runtime.Schema{Name: "Pick", Properties: []runtime.Property{
		{Name: "kr", Kind: runtime.KindEnum, Required: true, Dynamic: true},
		{Name: "branch", Kind: runtime.KindString, MinLength: ptr(1)},
	}}
	type pick struct{ KR, Branch string }
	f := runtime.NewForm((*pick)(nil), dyn, "KR", "Branch")
	ctx := context.Background()
	a := elicittest.New(elicittest.Accept(map[string]any{"kr": "kr-2"}), elicittest.Accept(map[string]any{"kr": "kr-9"}))
	if _, err := runtime.Ask[pick](ctx, a, f, "q"); !errors.Is(err, runtime.ErrMissingOptions) {
		t.Fatalf("no options: %v", err)
	}
	if len(a.Requests()) != 0 {
		t.Fatal("a request was sent without options")
	}
	opts := runtime.WithOptions("kr", runtime.Option{Value: "kr-1", Title: "Grow"}, runtime.Option{Value: "kr-2", Title: "Keep"})
	out, err := runtime.Ask[pick](ctx, a, f, "q", opts, runtime.WithDefault("branch", "feat"))
	if v, ok := out.Accepted(); err != nil || !ok || v.KR != "kr-2" || v.Branch != "feat" {
		t.Fatalf("with options: %+v %v", out, err)
	}
	sent, _ := a.Requests()[0].Schema.JSON(runtime.Version20251125)
	if !strings.Contains(string(sent), `"oneOf":[{"const":"kr-1","title":"Grow"}`) || !strings.Contains(string(sent), `"default":"feat"`) {
		t.Fatalf("sent schema: %s", sent)
	}
	if dyn.Properties[0].Options != nil || dyn.Properties[1].Default != nil {
		t.Fatal("Ask modified the form's static schema")
	}
	// The answer is checked against the options actually sent.
	if _, err := runtime.Ask[pick](ctx, a, f, "q", opts); !errors.Is(err, runtime.ErrInvalidContent) {
		t.Fatalf("answer outside sent options: %v", err)
	}
	// A per-call default must satisfy the field's rules.
	if _, err := runtime.Ask[pick](ctx, a, f, "q", opts, runtime.WithDefault("branch", "")); err == nil || !strings.Contains(err.Error(), "branch: default") {
		t.Fatalf("bad default: %v", err)
	}
}

func TestCheckURL(t *testing.T) {
	for _, u := range []string{"https://example.com/connect", "http://127.0.0.1:8080/cb", "http://localhost/x", "http://[::1]/x"} {
		if err := wire.CheckURL(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []string{"http://example.com/", "https://user:pw@example.com/", "javascript:alert(1)", "ftp://example.com", "https:///nohost", "::"} {
		if err := wire.CheckURL(u); !errors.Is(err, runtime.ErrUnsafeURL) {
			t.Errorf("%s: want ErrUnsafeURL, got %v", u, err)
		}
	}
}

// Every Go integer width takes its extremes and refuses one past them.
func TestDecodeIntegerWidths(t *testing.T) {
	type ints struct {
		I8  int8
		I16 int16
		I32 int32
		U8  uint8
		U16 uint16
		U32 uint32
		U   uint
	}
	names := []string{"i8", "i16", "i32", "u8", "u16", "u32", "u"}
	s := &runtime.Schema{Name: "Ints"}
	for _, n := range names {
		s.Properties = append(s.Properties, runtime.Property{Name: n, Kind: runtime.KindInteger})
	}
	f := runtime.NewForm((*ints)(nil), s, "I8", "I16", "I32", "U8", "U16", "U32", "U")
	lo := []float64{-128, -32768, -2147483648, 0, 0, 0, 0}
	hi := []float64{127, 32767, 2147483647, 255, 65535, 4294967295, runtime.MaxSafeInteger}
	for i, n := range names {
		var v ints
		if err := f.Decode(map[string]any{n: lo[i]}, &v); err != nil {
			t.Errorf("%s = %v: %v", n, lo[i], err)
		}
		if err := f.Decode(map[string]any{n: hi[i]}, &v); err != nil {
			t.Errorf("%s = %v: %v", n, hi[i], err)
		}
		if err := f.Decode(map[string]any{n: lo[i] - 1}, &v); err == nil {
			t.Errorf("%s = %v accepted", n, lo[i]-1)
		}
		if i < len(names)-1 { // uint's bound is the JSON-safe range
			if err := f.Decode(map[string]any{n: hi[i] + 1}, &v); err == nil || !strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s = %v: %v, want out of range", n, hi[i]+1, err)
			}
		}
	}
	var v ints
	if err := f.Decode(map[string]any{"i8": -5.0, "u16": 65535.0, "u": 7.0}, &v); err != nil || v.I8 != -5 || v.U16 != 65535 || v.U != 7 {
		t.Fatalf("decoded %+v, %v", v, err)
	}
}

func ptr[T any](v T) *T { return &v }
