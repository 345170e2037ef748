package runtime_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// FuzzDecode feeds arbitrary JSON objects to the decoder: it must never
// panic, and whatever it accepts must validate.
func FuzzDecode(f *testing.F) {
	f.Add(`{"name":"abc","count":1}`)
	f.Add(`{"name":"abc","count":1,"big":18446744073709551615,"tags":["x"],"env":"a"}`)
	f.Add(`{"name":null,"count":1e308,"ratio":-0,"at":"2026-01-01T00:00:00Z"}`)
	f.Add(`{"tags":[null],"day":"0000-00-00"}`)
	f.Fuzz(func(t *testing.T, s string) {
		var content map[string]any
		dec := json.NewDecoder(strings.NewReader(s))
		if len(s)%2 == 0 {
			dec.UseNumber()
		}
		if err := dec.Decode(&content); err != nil {
			return
		}
		v, err := decode(schema, content)
		if err != nil {
			if !errors.Is(err, runtime.ErrInvalidContent) {
				t.Fatalf("error is not ErrInvalidContent: %v", err)
			}
			return
		}
		if err := formDef.Validate(&v); err != nil {
			t.Fatalf("decoded value does not validate: %v (input %s)", err, s)
		}
	})
}
