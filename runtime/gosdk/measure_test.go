package gosdk_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime/serve"
)

// The figures of BENCHMARKS.md ("Dropped clients and idle sessions").
// They run only with ELICIT_MEASURE=1 (Linux: RSS from /proc):
//
//	ELICIT_MEASURE=1 go test ./runtime/gosdk -run TestMeasure -v -count=1
func measuring(t *testing.T) {
	if os.Getenv("ELICIT_MEASURE") != "1" {
		t.Skip("set ELICIT_MEASURE=1 to measure")
	}
}

// rssMB returns this process's resident memory in MB.
func rssMB() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n >> 10
		}
	}
	return -1
}

type sample struct {
	goroutines int
	rss, heap  int64
}

func take() sample {
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return sample{goruntime.NumGoroutine(), rssMB(), int64(m.HeapInuse >> 20)}
}

func (s sample) String() string {
	return fmt.Sprintf("%d goroutines, RSS %d MB, heap in use %d MB", s.goroutines, s.rss, s.heap)
}

// TestMeasureDroppedAsks: 1,000 asks whose 2025-11-25 client drops the
// call while the form is open, each on its own session (closed by the
// 5 s session timeout) and all on one session.
func TestMeasureDroppedAsks(t *testing.T) {
	measuring(t)
	for _, shared := range []bool{false, true} {
		url, returned, _ := httpServer(t, &serve.Options{SessionTimeout: 5 * time.Second, MaxSessions: 2000})
		const drops = 1000
		sid := openSession(t, url)
		http.DefaultClient.CloseIdleConnections()
		before := take()
		peak := before
		for i := range drops {
			s := sid
			if !shared {
				s = openSession(t, url)
			}
			dropAsk(t, url, s, i+1)
			if i%50 == 0 {
				if n := take(); n.goroutines > peak.goroutines {
					peak = n
				}
			}
		}
		http.DefaultClient.CloseIdleConnections()
		time.Sleep(10 * time.Second)
		goruntime.GC()
		after := take()
		t.Logf("%d dropped asks, shared session %v: before %v; peak %v; 10 s after %v; %d handlers returned", drops, shared, before, peak, after, returned.Load())
	}
}

// TestMeasureIdleSessions: 10,000 initialize without DELETE, with the
// session timeout at 5 s and the cap raised to 10,000, then with the
// defaults (cap 1,000).
func TestMeasureIdleSessions(t *testing.T) {
	measuring(t)
	for _, opts := range []*serve.Options{{SessionTimeout: 5 * time.Second, MaxSessions: 10000}, nil} {
		url, _, _ := httpServer(t, opts)
		http.DefaultClient.CloseIdleConnections()
		goruntime.GC()
		before := take()
		refused := 0
		for range 10000 {
			req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusServiceUnavailable {
				refused++
			}
		}
		http.DefaultClient.CloseIdleConnections()
		peak := take()
		time.Sleep(10 * time.Second)
		goruntime.GC()
		after := take()
		t.Logf("10,000 initialize, options %+v: %d refused; before %v; peak %v; 10 s after %v", opts, refused, before, peak, after)
	}
}
