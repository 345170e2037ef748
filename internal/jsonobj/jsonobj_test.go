package jsonobj

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	raw := []byte(` {"b": 1, "a" :{"x":[1,2]},` + "\n" + `"c":"s"}`)
	ms, ok, err := Parse(raw)
	if err != nil || !ok || len(ms) != 3 {
		t.Fatalf("Parse = %v, %v, %v", ms, ok, err)
	}
	for i, want := range []struct {
		key, val   string
		koff, voff int
	}{{"b", "1", 2, 7}, {"a", `{"x":[1,2]}`, 10, 15}, {"c", `"s"`, 28, 32}} {
		m := ms[i]
		if m.Key != want.key || string(m.Value) != want.val || m.KeyOffset != want.koff || m.ValueOffset != want.voff {
			t.Errorf("member %d = %q %s @%d/%d, want %+v", i, m.Key, m.Value, m.KeyOffset, m.ValueOffset, want)
		}
	}
	if got := string(Append(nil, ms)); got != `{"b":1,"a":{"x":[1,2]},"c":"s"}` {
		t.Errorf("Append = %s", got)
	}
	if line, col := Position(raw, ms[2].KeyOffset); line != 2 || col != 1 {
		t.Errorf("Position = %d:%d, want 2:1", line, col)
	}
}

func TestDuplicates(t *testing.T) {
	raw := []byte(`{"a":1,"b":2,"a":3,"b":4}`)
	_, _, err := Parse(raw)
	var de *DuplicateKeyError
	if !errors.As(err, &de) || de.Key != "a" || de.Offset != 13 {
		t.Fatalf("Parse: %v, want duplicate key \"a\" at 13", err)
	}
	var dups []string
	ms, ok, err := Scan(raw, func(d *DuplicateKeyError) { dups = append(dups, d.Key) })
	if err != nil || !ok || len(ms) != 2 || string(ms[0].Value) != "1" || len(dups) != 2 {
		t.Fatalf("Scan = %v %v %v, dups %v", ms, ok, err, dups)
	}
}

func TestNotObject(t *testing.T) {
	for _, raw := range []string{``, `[]`, `"x"`, `3`} {
		if _, ok, err := Parse([]byte(raw)); ok || err != nil {
			t.Errorf("Parse(%q) = ok %v, %v; want not an object", raw, ok, err)
		}
	}
	for _, raw := range []string{`{"a":}`, `{"a":1`, `{"a":1}}`} {
		if _, _, err := Parse([]byte(raw)); err == nil && Invalid([]byte(raw)) == nil {
			t.Errorf("%q: no error", raw)
		}
	}
	if Kind([]byte(" null")) != "null" || Kind(nil) != "nothing" || Kind([]byte("-1")) != "a number" {
		t.Error("Kind")
	}
	if Compact([]byte("{ \"a\" : 1 }")) != `{"a":1}` {
		t.Error("Compact")
	}
}

func TestNumberEnd(t *testing.T) {
	for _, tc := range []struct {
		in  string
		end int
		exp bool
	}{
		{"0", 1, false}, {"-0,", 2, false}, {"12.50}", 5, false}, {"1e9", 3, true}, {"-2.5E-3 ", 7, true}, {"1E+0", 4, true},
		{"01", 1, false}, // a number ends where its grammar does; the caller sees the "1"
		{"-", -1, false}, {"1.", -1, false}, {".5", -1, false}, {"1e", -1, false}, {"1e+", -1, false}, {"+1", -1, false}, {"", -1, false},
	} {
		end, exp := NumberEnd([]byte(tc.in), 0)
		if end != tc.end || end >= 0 && exp != tc.exp {
			t.Errorf("NumberEnd(%q) = %d, %t; want %d, %t", tc.in, end, exp, tc.end, tc.exp)
		}
	}
}

func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		in    string
		end   int
		plain bool
	}{
		{`"abc",`, 5, true},
		{`""`, 2, true},
		{`"a\"b"x`, 6, false},
		{`"\u00e9"`, 8, false},
		{"\"\xff\"", 3, true},
		{`"\u00g9"`, -1, false},
		{`"\x"`, -1, false},
		{"\"a\nb\"", -1, false},
		{`"abc`, -1, false},
		{`"\`, -1, false},
		{`abc`, -1, false},
		{``, -1, false},
	} {
		if end, plain := StringEnd([]byte(tc.in), 0); end != tc.end || plain != tc.plain {
			t.Errorf("StringEnd(%q) = %d, %v; want %d, %v", tc.in, end, plain, tc.end, tc.plain)
		}
	}
}

func TestASCIIFold(t *testing.T) {
	if !ASCII([]byte("Content-Type_1")) || ASCII([]byte("\u212a")) {
		t.Error("ASCII")
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"action", "ACTION", true}, {"Action", "action", true}, {"action", "actions", false}, {"a[", "A{", false}, {"", "", true}} {
		if got := ASCIIEqualFold([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("ASCIIEqualFold(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
