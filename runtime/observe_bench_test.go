package runtime_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// BenchmarkLogObserver measures one audit record (an answered event) on a
// JSON handler writing to io.Discard.
func BenchmarkLogObserver(b *testing.B) {
	obs := runtime.NewLogObserver(slog.New(slog.NewJSONHandler(io.Discard, nil)))
	e := runtime.Event{Kind: runtime.EventAnswered, Time: time.Now(), Method: "tools/call", Tool: "deploy", CallID: "0123456789abcdef", Round: 2,
		Protocol: runtime.Version20260728, ClientName: "cli", ClientVersion: "v1", Form: "Deploy", Key: "Deploy", Mode: runtime.ModeForm,
		SchemaDigest: "0123456789abcdef", Attempt: 1, Asked: true, Action: runtime.ActionAccept, WaitTime: time.Second}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		obs.Observe(ctx, e)
	}
}
