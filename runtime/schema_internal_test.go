package runtime

import (
	"encoding/json"
	"testing"
)

// FuzzAppendString: the fast path writes exactly what json.Marshal writes.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"uote`, "back\\slash", "<html>&", "tab\t", "é", "\u2028", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
