//go:build unix

package receipt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
// written to a JSONL file with fsync (file), and the same from 8
// goroutines per core at once (file-parallel), whose receipts share
// fsyncs.
func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"sign", "file", "file-parallel"} {
		b.Run(name, func(b *testing.B) {
			var sink receipt.Sink = &discardSink{}
			if name != "sign" {
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
// file and fsynced.
func BenchmarkApprovalSideBySide(b *testing.B) {
	for _, version := range []string{runtime.Version20251125, runtime.Version20260728} {
		b.Run(version, func(b *testing.B) { benchApprovals(b, version) })
	}
}

func benchApprovals(b *testing.B, version string) {
	ctx := context.Background()
	sink, err := receipt.OpenFile(filepath.Join(b.TempDir(), "receipts.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	log, err := receipt.NewLog(ctx, signer(b, 1), sink)
	if err != nil {
		b.Fatal(err)
	}
	defer log.Close()
	schema := testforms.DeploySchema()
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	cfg := &gosdk.Config{Keys: seal.NewRandomKeyRing()}
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
			return &mcp.ElicitResult{Action: "accept", Content: answer.Content}, nil
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
	call := func(tool string) time.Duration {
		t := readCPU()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"project": "alpha"}})
		d := readCPU() - t
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", tool, res, err)
		}
		return d
	}
	for range 20 { // warm up both
		call("off")
		call("on")
	}
	cpu := make([]time.Duration, 2)
	n := 0
	for b.Loop() {
		for j := range tools {
			i := (j + n) % 2 // alternate who goes first
			cpu[i] += call(tools[i])
		}
		n++
	}
	b.ReportMetric(float64(cpu[0].Microseconds())/float64(n), "off-cpu-µs/op")
	b.ReportMetric(float64(cpu[1].Microseconds())/float64(n), "on-cpu-µs/op")
	b.ReportMetric(100*float64(cpu[1]-cpu[0])/float64(cpu[0]), "receipt-cpu-%")
	if h := log.Head(); h.Seq < uint64(n) {
		b.Fatalf("%d receipts for %d approvals", h.Seq, n)
	}
}
