package exact

import "testing"

// BenchmarkQuickMessage: the fast path over the messages of one
// approval, against the general checks it replaces.
func BenchmarkQuickMessage(b *testing.B) {
	msgs := make([][]byte, len(quickTypical))
	for i, s := range quickTypical {
		msgs[i] = []byte(s)
	}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, m := range msgs {
				if !quickMessage(m) {
					b.Fatal("not taken")
				}
			}
		}
	})
	b.Run("general", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, m := range msgs {
				if checkEnvelope(m) != nil {
					b.Fatal("refused")
				}
				exactAnswers(m)
			}
		}
	})
}
