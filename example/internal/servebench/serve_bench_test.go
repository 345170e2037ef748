package servebench

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime"
)

// serveEnv makes the test binary the server process of BenchmarkServe.
const serveEnv = "SERVEBENCH_SERVE_REDIS"

func TestMain(m *testing.M) {
	if redisURL, ok := os.LookupEnv(serveEnv); ok {
		if err := ServeMain(context.Background(), os.Stdout, ServeOptions{RedisURL: redisURL}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkServe measures the deploy approval over streamable HTTP on
// loopback, served by a process of its own (this test binary) holding
// the raw go-sdk server and elicitgen's with the in-memory and the Redis
// replay stores (Redis: $ELICITGEN_REDIS_URL, or a redis-server of its
// own when one is on PATH; without either the Redis servers are left out,
// or the benchmark fails when ELICITGEN_REQUIRE_REDIS=1). For each era
// and 1, 50 and 500 clients, b.N approvals per server in three rounds,
// the servers alternating. Run it with a fixed count, for example
//
//	go test -run '^$' -bench Serve -benchtime 1500x ./example/internal/servebench
//
// Per server s: s-per-core is approvals per second of the server
// process's CPU time, s-ratio that over raw's, s-rps approvals per
// second of wall time, s-p50-µs and s-p99-µs latencies, s-allocs and
// s-B the server's allocations per approval, s-claim-µs the mean time a
// claim of the replay store took, s-redis-cmds Redis's commands per
// approval (its round trips). ns/op covers all servers.
func BenchmarkServe(b *testing.B) {
	redisURL := benchRedis(b)
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), serveEnv+"="+redisURL)
	rem, err := StartRemote(cmd)
	if err != nil {
		b.Fatal(err)
	}
	defer rem.Close()
	servers := []string{Raw, Memory}
	if redisURL != "" {
		servers = append(servers, Redis, RedisPipe)
	}
	for _, version := range []string{runtime.Version20260728, runtime.Version20251125} {
		for _, n := range []int{1, 50, 500} {
			b.Run(fmt.Sprintf("%s/clients=%d", version, n), func(b *testing.B) {
				rounds := min(3, b.N)
				rows, err := Measure(context.Background(), rem, Plan{Version: version, Clients: []int{n}, Servers: servers,
					Rounds: rounds, PhaseApprovals: int64((b.N + rounds - 1) / rounds), Warmup: 200 * time.Millisecond}, nil)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rows {
					if r.Errors > 0 {
						b.Fatalf("%s: %d failed approvals, the first: %v", r.Server, r.Errors, r.FirstErr)
					}
					b.ReportMetric(r.PerCoreSecond(), r.Server+"-per-core")
					b.ReportMetric(r.PerCoreSecond()/rows[0].PerCoreSecond(), r.Server+"-ratio")
					b.ReportMetric(r.PerSecond(), r.Server+"-rps")
					b.ReportMetric(float64(r.Quantile(0.5).Microseconds()), r.Server+"-p50-µs")
					b.ReportMetric(float64(r.Quantile(0.99).Microseconds()), r.Server+"-p99-µs")
					b.ReportMetric(r.PerApproval(r.Spent.Mallocs), r.Server+"-allocs")
					b.ReportMetric(r.PerApproval(r.Spent.Bytes), r.Server+"-B")
					if r.Spent.Claims > 0 {
						b.ReportMetric(float64(r.Spent.ClaimTime.Nanoseconds())/float64(r.Spent.Claims)/1e3, r.Server+"-claim-µs")
					}
					if r.Server == Redis || r.Server == RedisPipe {
						b.ReportMetric(r.PerApproval(uint64(r.Spent.RedisCommands)), r.Server+"-redis-cmds")
					}
				}
			})
		}
	}
}

// benchRedis returns the Redis of BenchmarkServe: $ELICITGEN_REDIS_URL,
// or a redis-server of its own on a free loopback port, or "" (none).
func benchRedis(b *testing.B) string {
	if u := os.Getenv("ELICITGEN_REDIS_URL"); u != "" {
		return u
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("ELICITGEN_REQUIRE_REDIS") == "1" {
			b.Fatal("ELICITGEN_REQUIRE_REDIS=1 and no redis-server on PATH nor ELICITGEN_REDIS_URL")
		}
		b.Log("no redis-server on PATH nor ELICITGEN_REDIS_URL: the Redis servers are left out")
		return ""
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	opt, _ := redis.ParseURL(url)
	c := redis.NewClient(opt)
	defer c.Close()
	for i := 0; c.Ping(context.Background()).Err() != nil; i++ {
		if i == 100 {
			b.Fatal("redis-server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return url
}
