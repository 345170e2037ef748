package servebench

import (
	"context"
	"net/http"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// BenchmarkHandler measures one approval served by each handler in this
// process, without a network (HandlerTransport), one client: the
// handler's own CPU and allocations (the small client's included, the
// same for both). raw is go-sdk alone, memory elicitgen with the
// in-memory replay store.
func BenchmarkHandler(b *testing.B) {
	keys := seal.NewRandomKeyRing()
	for _, version := range []string{runtime.Version20260728, runtime.Version20251125} {
		for _, name := range []string{Raw, Memory} {
			b.Run(version+"/"+name, func(b *testing.B) {
				ctx := context.Background()
				var deploys Counter
				h := NewRawHandler(NewRawServer(&deploys))
				if name == Memory {
					h = NewHandler(NewServer(keys, seal.NewMemoryReplayStore(MemoryReplayLimit), &deploys))
				}
				c, err := NewClient(&http.Client{Transport: HandlerTransport(h)}, "http://127.0.0.1/mcp", version)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Open(ctx); err != nil {
					b.Fatal(err)
				}
				defer c.Close(ctx)
				b.ReportAllocs()
				for b.Loop() {
					if err := c.Approve(ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkHandlerSideBySide interleaves one approval of each handler
// per op (as BenchmarkHandler, in this process, one client) and reports
// each one's CPU time per approval (the process's, from getrusage:
// steadier than wall time on a shared machine) and their ratio.
func BenchmarkHandlerSideBySide(b *testing.B) {
	keys := seal.NewRandomKeyRing()
	for _, version := range []string{runtime.Version20260728, runtime.Version20251125} {
		b.Run(version, func(b *testing.B) {
			ctx := context.Background()
			var deploys Counter
			names := []string{Raw, Memory}
			handlers := []http.Handler{NewRawHandler(NewRawServer(&deploys)),
				NewHandler(NewServer(keys, seal.NewMemoryReplayStore(MemoryReplayLimit), &deploys))}
			clients := make([]*Client, len(handlers))
			for i, h := range handlers {
				c, err := NewClient(&http.Client{Transport: HandlerTransport(h)}, "http://127.0.0.1/mcp", version)
				if err != nil {
					b.Fatal(err)
				}
				if err := c.Open(ctx); err != nil {
					b.Fatal(err)
				}
				defer c.Close(ctx)
				clients[i] = c
			}
			cpu := make([]time.Duration, len(clients))
			n := 0
			for b.Loop() {
				for j := range clients {
					i := (j + n) % len(clients) // alternate who goes first
					t := ReadCPU()
					if err := clients[i].Approve(ctx); err != nil {
						b.Fatal(names[i], err)
					}
					cpu[i] += ReadCPU() - t
				}
				n++
			}
			for i, name := range names {
				b.ReportMetric(float64(cpu[i].Microseconds())/float64(n), name+"-cpu-µs/op")
			}
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "throughput-ratio")
		})
	}
}

// BenchmarkHandlerLabels serves 2026-07-28 approvals of each handler in
// turn, as BenchmarkHandlerSideBySide, with each approval's CPU samples
// labeled server=raw or server=memory (the goroutines it starts inherit
// the label), so that a profile splits the two:
//
//	go test -run '^$' -bench HandlerLabels -benchtime 6000x -cpuprofile cpu.prof ./example/internal/servebench
//	go tool pprof -tags cpu.prof
//	go tool pprof -top -cum -tagfocus server=memory cpu.prof
//
// The GC's background work carries no label.
func BenchmarkHandlerLabels(b *testing.B) {
	ctx := context.Background()
	var deploys Counter
	names := []string{Raw, Memory}
	handlers := []http.Handler{NewRawHandler(NewRawServer(&deploys)),
		NewHandler(NewServer(seal.NewRandomKeyRing(), seal.NewMemoryReplayStore(MemoryReplayLimit), &deploys))}
	clients := make([]*Client, len(handlers))
	for i, h := range handlers {
		c, err := NewClient(&http.Client{Transport: HandlerTransport(h)}, "http://127.0.0.1/mcp", runtime.Version20260728)
		if err != nil {
			b.Fatal(err)
		}
		clients[i] = c
	}
	for b.Loop() {
		for i, c := range clients {
			var err error
			pprof.Do(ctx, pprof.Labels("server", names[i]), func(ctx context.Context) { err = c.Approve(ctx) })
			if err != nil {
				b.Fatal(names[i], err)
			}
		}
	}
}
