package redisstore_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// firstStore says every claim is the first: the round without the cost
// of a claim (the baseline; never use it in a server).
type firstStore struct{}

func (firstStore) Claim(context.Context, seal.Claim) (seal.Claimed, error) {
	return seal.Claimed{First: true, Epoch: 1}, nil
}

// BenchmarkClaimRound measures what claiming the requestState adds to a
// 2026-07-28 call: one tools/call of a tool asking the Deploy form (two
// rounds; the second, carrying the state and the answer, is the one that
// claims), through gosdk.Handle over go-sdk in-memory transports with a
// go-sdk client answering, interleaved on one connection for a store
// that claims nothing ("none"), the in-memory store and Redis
// (ELICITGEN_REDIS_URL). claim-<store>-ns/op is the difference to "none".
func BenchmarkClaimRound(b *testing.B) {
	ctx := context.Background()
	stores := map[string]seal.ReplayStore{"none": firstStore{}, "memory": seal.NewMemoryReplayStore(1 << 20)}
	names := []string{"none", "memory"}
	if u := os.Getenv("ELICITGEN_REDIS_URL"); u != "" {
		st, err := redisstore.Open(u)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		if err := st.Start(ctx); err != nil {
			b.Fatal(err)
		}
		stores["redis"] = st
		names = append(names, "redis")
	}
	keys := seal.NewRandomKeyRing()
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	for _, name := range names {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, gosdk.Handle(&gosdk.Config{Options: adapter.Options{Keys: keys, Replay: stores[name]}},
			func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				out, err := testforms.AskDeploy(ctx, ask, "Deploy which branch, where?")
				if err != nil {
					return nil, err
				}
				v, _ := out.Accepted()
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
	ss, err := s.Connect(ctx, gosdk.ExactAnswers(st), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"project": "alpha"}})
		d := time.Since(start)
		if err != nil || res.Content[0].(*mcp.TextContent).Text != "main prod 2" {
			b.Fatalf("%s: %v %v", tool, res, err)
		}
		return d
	}
	for range 20 {
		for _, n := range names {
			call(n)
		}
	}
	total := map[string]time.Duration{}
	n := 0
	for b.Loop() {
		for i := range names { // rotate the order
			name := names[(i+n)%len(names)]
			total[name] += call(name)
		}
		n++
	}
	for _, name := range names {
		b.ReportMetric(float64(total[name].Nanoseconds())/float64(n), name+"-ns/op")
		if name != "none" {
			b.ReportMetric(float64((total[name]-total["none"]).Nanoseconds())/float64(n), "claim-"+name+"-ns/op")
		}
	}
}

// BenchmarkClaim measures one claim alone, in memory and in Redis
// (ELICITGEN_REDIS_URL), each of a fresh id.
func BenchmarkClaim(b *testing.B) {
	ctx := context.Background()
	until := time.Now().Add(16 * time.Minute)
	b.Run("memory", func(b *testing.B) {
		// A store filled to its default limit is replaced, as ids
		// expiring would make room.
		var m *seal.MemoryReplayStore
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i%seal.DefaultReplayLimit == 0 {
				m = seal.NewMemoryReplayStore(0)
			}
			if c, err := m.Claim(ctx, seal.Claim{ID: fmt.Sprintf("%032x", i), Until: until, Epoch: m.Epoch()}); !c.First || err != nil {
				b.Fatal(c, err)
			}
			i++
		}
	})
	b.Run("redis", func(b *testing.B) {
		st, err := redisstore.Open(redisURL(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		if err := st.Start(ctx); err != nil {
			b.Fatal(err)
		}
		prefix := newID()
		p, err := st.Claim(ctx, seal.Claim{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if c, err := st.Claim(ctx, seal.Claim{ID: fmt.Sprintf("%s%08x", prefix, i), Until: until, Epoch: p.Epoch}); !c.First || err != nil {
				b.Fatal(c, err)
			}
			i++
		}
	})
}
