package gosdk

import (
	"encoding/json"
	"testing"
)

// BenchmarkSentSchemaMarshal measures the marshalling of a sent schema
// outside go-sdk's result validation (the wire's case), where
// readForValidation walks the caller's stack.
func BenchmarkSentSchemaMarshal(b *testing.B) {
	s := sentSchema(`{"type":"object"}`)
	b.ReportAllocs()
	for b.Loop() {
		if out, err := json.Marshal(s); err != nil || string(out) != `{"type":"object"}` {
			b.Fatal(string(out), err)
		}
	}
}
