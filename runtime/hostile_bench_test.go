package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// BenchmarkHostileLongString checks the longest string answer a client
// can send under go-sdk's 4 MiB request body limit against a property
// with a maxLength and each format, at three sizes: MB/s stays flat when
// the cost is linear in the answer's length.
func BenchmarkHostileLongString(b *testing.B) {
	maxLen := 200
	for _, format := range []string{"", "email", "uri", "date", "date-time"} {
		p := &runtime.Property{Name: "f", Kind: runtime.KindString, MaxLength: &maxLen, Format: format}
		for _, size := range []int{64 << 10, 1 << 20, 4<<20 - 64} {
			// A URI-shaped value, so that the uri check reads it all.
			v := "https://example.com/" + strings.Repeat("a", size-20)
			b.Run(fmt.Sprintf("format=%s/bytes=%d", format, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if p.Check(v) == nil {
						b.Fatal("accepted")
					}
				}
			})
		}
	}
}
