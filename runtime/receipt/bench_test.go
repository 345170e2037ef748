//go:build unix

package receipt_test

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// readCPU returns the process's CPU time (user and system).
func readCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// discardSink keeps only the head: the signing alone.
type discardSink struct{ head receipt.Head }

func (d *discardSink) Head(context.Context) (receipt.Head, error) { return d.head, nil }
func (d *discardSink) Append(_ context.Context, _ receipt.Head, r *receipt.Receipt) error {
	d.head = r.Head()
	return nil
}

// BenchmarkAppend measures one receipt: signed and chained (sign), also
// written to a JSONL file with fsync (file), the same from 8 goroutines
// per core at once (file-parallel), whose receipts share fsyncs, and
// appended to a Redis list (redis, with ELICITGEN_REDIS_URL; the CPU is
// this process's only).
func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"sign", "file", "file-parallel", "redis"} {
		b.Run(name, func(b *testing.B) {
			var sink receipt.Sink = &discardSink{}
			if name == "redis" {
				sink = benchRedisSink(b)
			} else if name != "sign" {
				fs, err := receipt.OpenFile(filepath.Join(b.TempDir(), "r.jsonl"))
				if err != nil {
					b.Fatal(err)
				}
				sink = fs
			}
			log, err := receipt.NewLog(ctx, signer(b, 1), sink)
			if err != nil {
				b.Fatal(err)
			}
			defer log.Close()
			f := fields(1)
			b.ReportAllocs()
			cpu := readCPU()
			if name == "file-parallel" {
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if _, err := log.Append(ctx, f); err != nil {
							b.Error(err)
							return
						}
					}
				})
			} else {
				for b.Loop() {
					if _, err := log.Append(ctx, f); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64((readCPU()-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// benchRedisSink returns a sink on an empty Redis list, emptied again
// when the benchmark ends; it skips without ELICITGEN_REDIS_URL.
func benchRedisSink(b *testing.B) receipt.Sink {
	ctx := context.Background()
	url := redisURL(b)
	const key = "{elicitgen-bench:receipts}"
	rs, err := receipt.OpenRedis(url, key)
	if err != nil {
		b.Fatal(err)
	}
	opt, _ := redis.ParseURL(url)
	c := redis.NewClient(opt)
	c.Del(ctx, key, key+":head")
	b.Cleanup(func() {
		c.Del(ctx, key, key+":head")
		c.Close()
		rs.Close()
	})
	return rs
}

// BenchmarkVerify measures Verify per receipt of a 100-receipt log.
func BenchmarkVerify(b *testing.B) {
	s := signer(b, 1)
	path, _ := writeLog(b, s, 100)
	keys := s.Keys()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := verifyFile(b, path, keys, receipt.VerifyOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100, "ns/receipt")
}

// BenchmarkApprovalSideBySide serves one deploy approval (a tools/call
// whose handler asks the Deploy form through gosdk and AskDeploy, the
// person accepting) with receipts off and on, interleaved on one
// in-memory connection, and reports the process's CPU time per approval
// of each (getrusage; client included, the same for both) and what the
// receipt adds. "on" does what a server with receipts does per decided
// question before the handler acts: the argument, schema and answer
// digests, one signed receipt chained to the last, written to a JSONL
// file and synced ("file"), or to a Redis list ("redis", with
// ELICITGEN_REDIS_URL; the Redis server's CPU is not counted); "sign"
// only signs, for the share of the disk. With 1 client the two alternate call by call; with 16, each
// op is a round of 16 concurrent approvals (one per client) of one kind,
// the kinds alternating round by round, so that receipts written at
// once share syncs as on a busy server.
func BenchmarkApprovalSideBySide(b *testing.B) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		for _, sink := range []string{"file", "redis", "sign"} {
			for _, clients := range []int{1, 16} {
				b.Run(fmt.Sprintf("%s/%s/clients=%d", version, sink, clients), func(b *testing.B) { benchApprovals(b, version, sink, clients) })
			}
		}
	}
}

// benchApprovals runs BenchmarkApprovalSideBySide with receipts written
// to a file (sinkName "file") or Redis ("redis"), or only signed
// ("sign").
func benchApprovals(b *testing.B, version, sinkName string, clients int) {
	ctx := context.Background()
	var sink receipt.Sink = &discardSink{}
	if sinkName == "redis" {
		sink = benchRedisSink(b)
	}
	if sinkName == "file" {
		fs, err := receipt.OpenFile(filepath.Join(b.TempDir(), "receipts.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		sink = fs
	}
	log, err := receipt.NewLog(ctx, signer(b, 1), sink)
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	schema := testforms.DeploySchema()
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cfg := &gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing()}}
	for _, tool := range []string{"off", "on"} {
		s.AddTool(&mcp.Tool{Name: tool, InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(cfg,
			func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				asked := time.Now()
				out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
				if err != nil {
					return nil, err
				}
				v, ok := out.Accepted()
				if !ok {
					return nil, fmt.Errorf("not accepted: %s", out.Action)
				}
				if tool == "on" {
					answer, err := receipt.DigestJSON(v)
					if err != nil {
						return nil, err
					}
					if _, err := log.Append(ctx, receipt.Fields{
						Server: "bench", Tool: req.Params.Name,
						ArgsDigest:   receipt.Digest(req.Params.Arguments),
						Form:         schema.Name,
						SchemaDigest: adapter.SchemaDigest(&runtime.Request{Mode: runtime.ModeForm, Schema: schema}, version),
						AnswerDigest: answer, Action: receipt.ActionAccept, Confirm: receipt.ConfirmNone,
						Approvers: []receipt.Approver{{Principal: "alice", Verified: receipt.VerifiedSession}},
						Requester: "alice", Rendering: "form", AskedAt: asked, DecidedAt: time.Now(),
					}); err != nil {
						return nil, err // fail closed: the deploy does not run
					}
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s %s %d", v.Branch, v.Env, v.Replicas)}}}, nil
			}))
	}
	answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 2})
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: maps.Clone(answer.Content)}, nil // the SDK writes to it
		},
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	tools := []string{"off", "on"}
	approve := func(tool string) error {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"project": "alpha"}})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content)
		}
		return err
	}
	// round serves one approval per client, all at once, and returns
	// the CPU time it took.
	round := func(tool string) time.Duration {
		t := readCPU()
		if clients == 1 {
			if err := approve(tool); err != nil {
				b.Fatal(tool, err)
			}
			return readCPU() - t
		}
		var wg sync.WaitGroup
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := approve(tool); err != nil {
					b.Error(tool, err)
				}
			}()
		}
		wg.Wait()
		return readCPU() - t
	}
	for range 20 { // warm up both
		round("off")
		round("on")
	}
	cpu := make([]time.Duration, 2)
	n := 0
	for b.Loop() {
		for j := range tools {
			i := (j + n) % 2 // alternate who goes first
			cpu[i] += round(tools[i])
		}
		n++
	}
	approvals := float64(n * clients)
	b.ReportMetric(float64(cpu[0].Microseconds())/approvals, "off-cpu-µs/op")
	b.ReportMetric(float64(cpu[1].Microseconds())/approvals, "on-cpu-µs/op")
	b.ReportMetric(100*float64(cpu[1]-cpu[0])/float64(cpu[0]), "receipt-cpu-%")
	if h := log.Head(); h.Seq < uint64(n*clients) {
		b.Fatalf("%d receipts for %d approvals", h.Seq, n*clients)
	}
}
