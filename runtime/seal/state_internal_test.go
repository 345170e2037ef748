package seal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// FuzzStatePayload feeds arbitrary bytes to the decoder of the state's
// plaintext. Open only decodes what authenticated, but the decoder must
// still never panic, and what it indexes must decode.
func FuzzStatePayload(f *testing.F) {
	st := &State{
		Answers: map[string]*runtime.Response{
			"Deploy":  {Action: runtime.ActionAccept, Content: map[string]any{"branch": "main", "n": 3.0, "tags": []any{"a", nil, true}, "o": map[string]any{"k": false}}},
			"Approve": {Action: runtime.ActionDecline},
		},
		Flows: map[string]string{"url": "f00d"},
	}
	buf := binary.AppendVarint(nil, 1)
	buf = binary.AppendVarint(buf, 2)
	good, err := appendState(buf, st)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{2, 4, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 4, 1, 0, 0, 0, 1, 'k', 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := stateDecoder{s: string(b)}
		d.varint()
		d.varint()
		got := d.index()
		if d.err {
			return
		}
		for k, r := range got.AllAnswers() {
			if r == nil {
				t.Fatalf("answer %q indexed but does not decode", k)
			}
		}
	})
}

func TestStatePayloadRoundTripKeepsTypes(t *testing.T) {
	type custom struct{ A int }
	st := &State{Answers: map[string]*runtime.Response{"F": {Action: runtime.ActionAccept, Content: map[string]any{
		"s": "x", "f": 1.5, "b": true, "n": nil, "l": []string{"a"}, "c": custom{A: 2}, "i": 7,
	}}}}
	buf, err := appendState(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	d := stateDecoder{s: string(buf)}
	got := d.index()
	if d.err {
		t.Fatal("payload does not decode")
	}
	r, ok := got.Answer("F")
	if !ok {
		t.Fatal("answer F missing")
	}
	// As after a JSON round trip: numbers are float64, lists []any,
	// structs objects.
	if r.Content["f"] != 1.5 || r.Content["i"] != 7.0 || r.Content["s"] != "x" || r.Content["b"] != true || r.Content["n"] != nil {
		t.Errorf("scalars = %#v", r.Content)
	}
	if l, _ := r.Content["l"].([]any); len(l) != 1 || l[0] != "a" {
		t.Errorf("list = %#v", r.Content["l"])
	}
	if c, _ := r.Content["c"].(map[string]any); c["A"] != 2.0 {
		t.Errorf("struct = %#v", r.Content["c"])
	}
}

func slowCanonicalJSON(b []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}

// FuzzCanonicalArgs checks the fast path of canonicalJSON: whatever it
// takes as already canonical is exactly what decoding and re-encoding
// gives.
func FuzzCanonicalArgs(f *testing.F) {
	for _, s := range []string{`{"project":"alpha"}`, `{"a":1,"b":[true,null,"x"],"c":{"d":-0.5e+3}}`, `{"b":1,"a":2}`,
		`{"a":1,"a":2}`, `{"a":"<"}`, `{"a":"\u00e9"}`, `[1,2]`, `"s"`, `1.0`, `{"a":01}`, `{"é":1,"z":2}`, "{\"a\":\"\u2028\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := canonChecker{b: b}
		if !c.value(0) || c.i != len(b) {
			return
		}
		if slow := slowCanonicalJSON(b); !bytes.Equal(slow, b) {
			t.Fatalf("fast path kept %q, decoding and encoding gives %q", b, slow)
		}
	})
}
