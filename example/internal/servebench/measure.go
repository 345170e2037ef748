package servebench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Plan is a measurement of several servers of one Remote side by side:
// for each number of clients, Rounds rounds in which every server in
// turn serves one phase (the order rotating from round to round), so
// that the machine's noise falls on all of them alike.
type Plan struct {
	Version string
	Clients []int
	// Servers names the servers to measure (of Remote.Names), the first
	// being the baseline of the ratios.
	Servers []string
	Rounds  int
	// Phase bounds one server's phase by time, PhaseApprovals by count
	// (at least one must be set).
	Phase          time.Duration
	PhaseApprovals int64
	// Warmup is each server's unmeasured phase before the rounds, per
	// number of clients (zero: none).
	Warmup time.Duration
}

// Row is what one server did at one number of clients, over all rounds.
type Row struct {
	Version   string
	Clients   int
	Server    string
	Approvals int64
	Errors    int64
	FirstErr  error
	Elapsed   time.Duration // wall time of the measured phases
	Spent     Stats         // the server process's spending in them
	Latencies []time.Duration
}

// PerSecond is approvals per second of wall time.
func (r *Row) PerSecond() float64 { return per(r.Approvals, r.Elapsed) }

// PerCoreSecond is approvals per second of the server's CPU time.
func (r *Row) PerCoreSecond() float64 { return per(r.Approvals, r.Spent.CPU) }

// Quantile returns the latency below which the fraction q of approvals
// fell.
func (r *Row) Quantile(q float64) time.Duration {
	x := Result{Latencies: r.Latencies}
	return x.Quantile(q)
}

// PerApproval divides v by the approvals.
func (r *Row) PerApproval(v uint64) float64 {
	if r.Approvals == 0 {
		return 0
	}
	return float64(v) / float64(r.Approvals)
}

func per(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Measure runs p against rem and returns one row per number of clients
// and server, in p's order. progress, when set, gets a line per phase.
func Measure(ctx context.Context, rem *Remote, p Plan, progress io.Writer) ([]*Row, error) {
	if p.Rounds < 1 {
		p.Rounds = 1
	}
	var rows []*Row
	for _, n := range p.Clients {
		pools := map[string]*Pool{}
		for _, name := range p.Servers {
			url, ok := rem.URLs[name]
			if !ok {
				return nil, fmt.Errorf("servebench: no server %q", name)
			}
			pool, err := OpenPool(ctx, nil, url, p.Version, n)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			defer pool.Close(ctx)
			pools[name] = pool
			if p.Warmup > 0 {
				pool.Run(ctx, p.Warmup, 0)
			}
		}
		byName := map[string]*Row{}
		for _, name := range p.Servers {
			r := &Row{Version: p.Version, Clients: n, Server: name}
			byName[name] = r
			rows = append(rows, r)
		}
		order := slices.Clone(p.Servers)
		for round := range p.Rounds {
			for _, name := range order {
				before, err := rem.Stats(ctx)
				if err != nil {
					return nil, err
				}
				res := pools[name].Run(ctx, p.Phase, p.PhaseApprovals)
				after, err := rem.Stats(ctx)
				if err != nil {
					return nil, err
				}
				row := byName[name]
				spent := after.Sub(before)
				row.Spent.CPU += spent.CPU
				row.Spent.Mallocs += spent.Mallocs
				row.Spent.Bytes += spent.Bytes
				row.Spent.Deploys += spent.Deploys
				row.Spent.Claims += spent.Claims
				row.Spent.ClaimTime += spent.ClaimTime
				row.Spent.RedisCommands += spent.RedisCommands
				row.Approvals += res.Approvals
				row.Errors += res.Errors
				if row.FirstErr == nil {
					row.FirstErr = res.FirstErr
				}
				row.Elapsed += res.Elapsed
				row.Latencies = append(row.Latencies, res.Latencies...)
				if progress != nil {
					fmt.Fprintf(progress, "%s clients=%d round %d %s: %d approvals in %v (%.0f/s), server CPU %v, %d errors\n",
						p.Version, n, round+1, name, res.Approvals, res.Elapsed.Round(time.Millisecond), res.PerSecond(), spent.CPU.Round(time.Millisecond), res.Errors)
				}
			}
			order = append(order[1:], order[0])
		}
		for _, name := range p.Servers {
			slices.Sort(byName[name].Latencies)
		}
	}
	return rows, nil
}

// WriteTable writes rows as a Markdown table; each ratio is to the row
// of the same era and clients whose server is base.
func WriteTable(w io.Writer, rows []*Row, base string) {
	fmt.Fprintln(w, "| era | clients | server | approvals/s | per core-second | vs "+base+" | p50 | p99 | allocs/approval | B/approval | claim wait | Redis commands/approval | errors |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rows {
		ratio := "1"
		for _, b := range rows {
			if b.Version == r.Version && b.Clients == r.Clients && b.Server == base && b != r && b.PerCoreSecond() > 0 {
				ratio = fmt.Sprintf("%.2fx", r.PerCoreSecond()/b.PerCoreSecond())
			}
		}
		claim, cmds := "-", "-"
		if r.Spent.Claims > 0 {
			claim = dur(r.Spent.ClaimTime / time.Duration(r.Spent.Claims))
		}
		if strings.HasPrefix(r.Server, Redis) {
			cmds = fmt.Sprintf("%.2f", float64(r.Spent.RedisCommands)/float64(max(r.Approvals+r.Errors, 1)))
		}
		fmt.Fprintf(w, "| %s | %d | %s | %.0f | %.0f | %s | %s | %s | %.0f | %.0f | %s | %s | %d |\n",
			r.Version, r.Clients, r.Server, r.PerSecond(), r.PerCoreSecond(), ratio,
			dur(r.Quantile(0.5)), dur(r.Quantile(0.99)), r.PerApproval(r.Spent.Mallocs), r.PerApproval(r.Spent.Bytes), claim, cmds, r.Errors)
	}
}

// dur formats d in µs or ms, three significant digits.
func dur(d time.Duration) string {
	if d < 10*time.Microsecond {
		return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
	}
	if d < time.Millisecond {
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	}
	return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
}
