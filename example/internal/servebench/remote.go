package servebench

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/receipt"
	"github.com/elicitgen/elicitgen/runtime/redisstore"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// The measured servers, by the name a Remote serves them under.
const (
	Raw       = "raw"        // go-sdk alone
	Memory    = "memory"     // elicitgen, in-memory replay store
	Redis     = "redis"      // elicitgen, Redis replay store (one SET NX PX per claim)
	RedisPipe = "redis-pipe" // elicitgen, Redis replay store on go-redis's AutoPipeline
	// ReceiptsFile is Memory with a signed receipt of every decision
	// (receipt.Recorder) written to a JSONL file and synced before the
	// handler sees it; ReceiptsRedis the same written to a Redis list.
	ReceiptsFile  = "receipts-file"
	ReceiptsRedis = "receipts-redis"
)

// receiptsRedisKey is the list ReceiptsRedis appends to, emptied when
// the server process starts and ends.
const receiptsRedisKey = "{elicitgen-load:receipts}"

// MemoryReplayLimit is the in-memory store's limit in the measurements:
// every 2026-07-28 approval holds its state id for the state's lifetime
// (16 minutes), so a load of a few thousand approvals a second outgrows
// seal.DefaultReplayLimit in under a minute.
const MemoryReplayLimit = 1 << 22

// Stats is what a server process has spent since it started.
type Stats struct {
	CPU     time.Duration // user + system
	Mallocs uint64        // heap objects allocated
	Bytes   uint64        // heap bytes allocated
	Deploys int64         // deploys made, all servers together
	// Claims counts the replay stores' claims, ClaimTime the time the
	// requests waited on them.
	Claims    int64
	ClaimTime time.Duration
	// RedisCommands counts the commands Redis ran (INFO commandstats,
	// without INFO itself): the Redis servers' round trips.
	RedisCommands int64
}

// Sub returns s - t.
func (s Stats) Sub(t Stats) Stats {
	return Stats{CPU: s.CPU - t.CPU, Mallocs: s.Mallocs - t.Mallocs, Bytes: s.Bytes - t.Bytes, Deploys: s.Deploys - t.Deploys,
		Claims: s.Claims - t.Claims, ClaimTime: s.ClaimTime - t.ClaimTime, RedisCommands: s.RedisCommands - t.RedisCommands}
}

// ServeOptions configure ServeMain.
type ServeOptions struct {
	// RedisURL is the Redis of the Redis servers; empty means none.
	RedisURL string
	// CPUProfile and MemProfile, when set, are files to write a CPU
	// profile of the whole run, and a heap profile at its end, to.
	CPUProfile, MemProfile string
}

// ServeMain is the server process: it serves the raw server and the
// elicitgen servers (Raw, Memory, and, with a Redis, Redis and
// RedisPipe), each at http://127.0.0.1:<port>/mcp on a listener of its
// own, plus GET /stats (Stats as JSON) on the first; writes one line
// "<name> <url>" per server to out, then "ready"; and serves until ctx
// ends or stdin closes (the parent went away).
func ServeMain(ctx context.Context, out io.Writer, opts ServeOptions) (err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	redisURL := opts.RedisURL
	if opts.CPUProfile != "" {
		f, err := os.Create(opts.CPUProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			err = errors.Join(err, f.Close())
		}()
	}
	if opts.MemProfile != "" {
		defer func() {
			f, ferr := os.Create(opts.MemProfile)
			if ferr == nil {
				ferr = errors.Join(pprof.Lookup("allocs").WriteTo(f, 0), f.Close())
			}
			err = errors.Join(err, ferr)
		}()
	}
	go func() { // the parent holds our stdin; EOF means it is gone
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	keys := seal.NewRandomKeyRing()
	var deploys Counter
	var claims claimClock
	var rc *redis.Client
	type server struct {
		name string
		h    http.Handler
	}
	servers := []server{
		{Raw, NewRawHandler(NewRawServer(&deploys))},
		{Memory, NewHandler(NewServer(keys, claims.timed(seal.NewMemoryReplayStore(MemoryReplayLimit)), &deploys))},
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	signer, err := receipt.NewSigner(priv)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "elicitgen-load-receipts")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fileSink, err := receipt.OpenFile(filepath.Join(dir, "receipts.jsonl"))
	if err != nil {
		return err
	}
	fileLog, err := receipt.NewLog(ctx, signer, fileSink)
	if err != nil {
		return err
	}
	defer fileLog.Close()
	session := func(adapter.Decided) string { return receipt.VerifiedSession }
	servers = append(servers, server{ReceiptsFile, NewHandler(NewRecordingServer(keys,
		claims.timed(seal.NewMemoryReplayStore(MemoryReplayLimit)), &deploys, receipt.Recorder(fileLog, "load", session)))})
	if redisURL != "" {
		opt, err := redis.ParseURL(redisURL)
		if err != nil {
			return err
		}
		c := redis.NewClient(opt)
		defer c.Close()
		rc = c
		if err := c.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("redis %s: %w", redisURL, err)
		}
		ap, err := c.AutoPipeline()
		if err != nil {
			return err
		}
		servers = append(servers,
			server{Redis, NewHandler(NewServer(keys, claims.timed(redisstore.New(c)), &deploys))},
			server{RedisPipe, NewHandler(NewServer(keys, claims.timed(redisstore.New(ap)), &deploys))})
		// Receipts to Redis on a client of their own, as OpenRedis
		// makes it (no retries), its list emptied before and after.
		c.Del(ctx, receiptsRedisKey, receiptsRedisKey+":head")
		defer c.Del(context.WithoutCancel(ctx), receiptsRedisKey, receiptsRedisKey+":head")
		rs, err := receipt.OpenRedis(redisURL, receiptsRedisKey)
		if err != nil {
			return err
		}
		redisLog, err := receipt.NewLog(ctx, signer, rs)
		if err != nil {
			return err
		}
		defer redisLog.Close()
		servers = append(servers, server{ReceiptsRedis, NewHandler(NewRecordingServer(keys,
			claims.timed(seal.NewMemoryReplayStore(MemoryReplayLimit)), &deploys, receipt.Recorder(redisLog, "load", session)))})
	}
	stats := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := ReadStats()
		s.Deploys = deploys.Load()
		s.Claims, s.ClaimTime = claims.n.Load(), time.Duration(claims.d.Load())
		if rc != nil {
			n, err := redisCommands(r.Context(), rc)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			s.RedisCommands = n
		}
		_ = json.NewEncoder(w).Encode(s)
	})
	// One load generator on one host stands for every client: the
	// per-host connection budget would close its idle keep-alive
	// connections early, as it would a proxy's (see serve.Options).
	o := (&serve.Options{MaxConnsPerClient: -1}).Resolved()
	errc := make(chan error, len(servers))
	for i, s := range servers {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.Handle("/mcp", s.h)
		if i == 0 {
			mux.Handle("/stats", stats)
		}
		go func() { errc <- serve.Serve(ctx, gosdk.NewHTTPServer(mux, &o), ln, o) }()
		fmt.Fprintf(out, "%s http://%s/mcp\n", s.name, ln.Addr())
	}
	fmt.Fprintln(out, "ready")
	for range servers {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// claimClock counts the claims of the stores it wraps and the time they
// took (claims of a state id; the reads of the epoch, claims of no id,
// show in the rounds' times only).
type claimClock struct{ n, d atomic.Int64 }

func (c *claimClock) timed(s seal.ReplayStore) seal.ReplayStore {
	return timedStore{s, c}
}

type timedStore struct {
	seal.ReplayStore
	c *claimClock
}

func (t timedStore) Claim(ctx context.Context, c seal.Claim) (seal.Claimed, error) {
	if c.ID == "" {
		return t.ReplayStore.Claim(ctx, c)
	}
	start := time.Now()
	r, err := t.ReplayStore.Claim(ctx, c)
	t.c.d.Add(int64(time.Since(start)))
	t.c.n.Add(1)
	return r, err
}

// redisCommands returns the number of commands Redis has run, INFO
// itself left out.
func redisCommands(ctx context.Context, c *redis.Client) (int64, error) {
	info, err := c.Info(ctx, "commandstats").Result()
	if err != nil {
		return 0, err
	}
	var n int64
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") || name == "cmdstat_info" {
			continue
		}
		calls, _, _ := strings.Cut(strings.TrimPrefix(rest, "calls="), ",")
		v, err := strconv.ParseInt(calls, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("INFO commandstats: %q", line)
		}
		n += v
	}
	return n, nil
}

// ReadStats returns what this process has spent so far (without Deploys).
func ReadStats() Stats {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return Stats{CPU: ReadCPU(), Mallocs: m.Mallocs, Bytes: m.TotalAlloc}
}

// ReadCPU returns the CPU time (user and system) this process has spent.
func ReadCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Remote is a server process started by StartRemote.
type Remote struct {
	// URLs holds each server's MCP endpoint, by name.
	URLs  map[string]string
	Names []string // the servers, in the order they were listed
	cmd   *exec.Cmd
	stdin io.WriteCloser
	stats string
	hc    *http.Client
}

// StartRemote starts cmd, a process that runs ServeMain, and waits until
// it serves.
func StartRemote(cmd *exec.Cmd) (*Remote, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := &Remote{URLs: map[string]string{}, cmd: cmd, stdin: stdin, hc: &http.Client{Timeout: 10 * time.Second}}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if line == "ready" {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return r, nil
		}
		name, url, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if r.stats == "" {
			r.stats = strings.TrimSuffix(url, "/mcp") + "/stats"
		}
		r.URLs[name] = url
		r.Names = append(r.Names, name)
	}
	_ = r.Close()
	return nil, errors.New("servebench: the server process exited before serving")
}

// Stats returns what the server process has spent so far.
func (r *Remote) Stats(ctx context.Context) (Stats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.stats, nil)
	if err != nil {
		return Stats{}, err
	}
	res, err := r.hc.Do(req)
	if err != nil {
		return Stats{}, err
	}
	defer res.Body.Close()
	var s Stats
	return s, json.NewDecoder(res.Body).Decode(&s)
}

// Close stops the server process.
func (r *Remote) Close() error {
	_ = r.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = r.cmd.Process.Kill()
		<-done
	}
	return nil
}
