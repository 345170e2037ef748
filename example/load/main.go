// Command load measures what serving the deploy_to_production approval
// costs through elicitgen against the same tool written on go-sdk
// alone, over streamable HTTP on loopback, and prints a Markdown table.
//
// It starts a server process (itself, with -serve) holding the servers
// side by side: "raw" (go-sdk v1.8.0 alone: its input_required API on
// 2026-07-28, ServerSession.Elicit on 2025-11-25), "memory" (elicitgen
// through gosdk.NewHTTPHandler with the in-memory replay store) and,
// given a Redis, "redis" (runtime/redisstore on a go-redis client) and
// "redis-pipe" (the same store on go-redis's AutoPipeline, which sends
// concurrent claims in one write). Then, for each era and number of
// clients, it runs -rounds rounds in which every server serves one phase
// of -phase in turn (the order rotating), so the machine's noise falls
// on all of them alike. The server process's CPU time and allocations
// are read before and after each phase: "per core-second" is approvals
// per second of the server's CPU time, the throughput of one core.
//
//	go run ./example/load -clients 1,50,500 -phase 3s -rounds 3 -redis redis://127.0.0.1:6480/0
//
// With -url it drives one server that is already running (loopback
// only) and prints approvals per second and latencies only.
//
// Every run is bounded: -phase and -max-approvals bound a phase, and a
// plan whose phases add up to more than -max-time is refused.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/example/internal/servebench"
	"github.com/elicitgen/elicitgen/runtime"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		serve    = flag.Bool("serve", false, "be the server process (started by load itself)")
		era      = flag.String("era", "both", "protocol era: 2026-07-28, 2025-11-25 or both")
		clients  = flag.String("clients", "1,50,500", "numbers of concurrent clients, comma-separated (1 to 2000)")
		servers  = flag.String("servers", "", "servers to measure, comma-separated, the first the baseline (default raw,memory and, with -redis, redis,redis-pipe)")
		phase    = flag.Duration("phase", 3*time.Second, "one server's phase in a round")
		maxN     = flag.Int64("max-approvals", 1_000_000, "most approvals in one phase")
		rounds   = flag.Int("rounds", 3, "rounds per era and number of clients")
		warmup   = flag.Duration("warmup", time.Second, "each server's unmeasured phase before the rounds")
		maxTime  = flag.Duration("max-time", 10*time.Minute, "refuse a plan whose phases take longer")
		redisURL = flag.String("redis", os.Getenv("ELICITGEN_REDIS_URL"), "Redis for the replay store, e.g. redis://127.0.0.1:6480/0 (default $ELICITGEN_REDIS_URL; empty: no Redis servers)")
		url      = flag.String("url", "", "drive one running server at this loopback URL instead")
		cpuProf  = flag.String("cpuprofile", "", "write the server process's CPU profile of the run to this file")
		memProf  = flag.String("memprofile", "", "write the server process's allocation profile of the run to this file")
	)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *serve {
		return servebench.ServeMain(ctx, os.Stdout, servebench.ServeOptions{RedisURL: *redisURL, CPUProfile: *cpuProf, MemProfile: *memProf})
	}
	var versions []string
	switch *era {
	case "both":
		versions = []string{runtime.Version20260728, runtime.Version20251125}
	case runtime.Version20260728, runtime.Version20251125:
		versions = []string{*era}
	default:
		return fmt.Errorf("-era %q: want 2026-07-28, 2025-11-25 or both", *era)
	}
	var ns []int
	for _, f := range strings.Split(*clients, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 2000 {
			return fmt.Errorf("-clients: %q is not a number from 1 to 2000", f)
		}
		ns = append(ns, n)
	}
	if *phase <= 0 || *phase > time.Minute || *maxN < 1 || *rounds < 1 || *warmup < 0 {
		return errors.New("-phase must be within (0, 1m], -max-approvals and -rounds at least 1, -warmup not negative")
	}
	if *url != "" {
		if err := servebench.CheckLoopback(*url); err != nil {
			return err
		}
		if total := time.Duration(len(versions)*len(ns)**rounds) * *phase; total > *maxTime {
			return fmt.Errorf("the plan takes %v, over -max-time %v", total, *maxTime)
		}
		ctx, cancel := context.WithTimeout(ctx, *maxTime+time.Minute)
		defer cancel()
		fmt.Println("| era | clients | approvals/s | p50 | p99 | errors |")
		fmt.Println("| --- | --- | --- | --- | --- | --- |")
		for _, v := range versions {
			for _, n := range ns {
				r, err := servebench.Run(ctx, servebench.Load{URL: *url, Version: v, Clients: n, Duration: *phase * time.Duration(*rounds), Approvals: *maxN})
				if err != nil {
					return err
				}
				fmt.Printf("| %s | %d | %.0f | %v | %v | %d |\n", v, n, r.PerSecond(), r.Quantile(0.5), r.Quantile(0.99), r.Errors)
				if r.FirstErr != nil {
					fmt.Fprintln(os.Stderr, "first error:", r.FirstErr)
				}
			}
		}
		return nil
	}
	names := []string{servebench.Raw, servebench.Memory}
	if *redisURL != "" {
		names = append(names, servebench.Redis, servebench.RedisPipe)
	}
	if *servers != "" {
		names = strings.Split(*servers, ",")
	}
	total := time.Duration(len(versions)*len(ns)*len(names)) * (time.Duration(*rounds)**phase + *warmup)
	if total > *maxTime {
		return fmt.Errorf("the plan takes %v, over -max-time %v", total, *maxTime)
	}
	ctx, cancel := context.WithTimeout(ctx, *maxTime+time.Minute)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, self, "-serve", "-redis", *redisURL, "-cpuprofile", *cpuProf, "-memprofile", *memProf)
	rem, err := servebench.StartRemote(cmd)
	if err != nil {
		return err
	}
	defer rem.Close()
	for _, name := range names {
		if _, ok := rem.URLs[name]; !ok {
			return fmt.Errorf("no server %q (have %s; redis ones need -redis)", name, strings.Join(rem.Names, ", "))
		}
	}
	fmt.Fprintf(os.Stderr, "plan: %d phases, about %v\n", len(versions)*len(ns)*len(names)**rounds, total.Round(time.Second))
	var rows []*servebench.Row
	for _, v := range versions {
		r, err := servebench.Measure(ctx, rem, servebench.Plan{Version: v, Clients: ns, Servers: names, Rounds: *rounds,
			Phase: *phase, PhaseApprovals: *maxN, Warmup: *warmup}, os.Stderr)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	servebench.WriteTable(os.Stdout, rows, names[0])
	for _, r := range rows {
		if r.FirstErr != nil {
			fmt.Fprintf(os.Stderr, "%s clients=%d %s: first error: %v\n", r.Version, r.Clients, r.Server, r.FirstErr)
		}
	}
	return nil
}
