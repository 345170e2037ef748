package receipt_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// gatedFile writes to the real file; its first write waits for release,
// and its second fails after writing half its bytes when failSecond.
type gatedFile struct {
	f          *os.File
	started    chan struct{}
	release    chan struct{}
	failSecond bool

	mu     sync.Mutex
	writes []int // bytes asked of each write
	syncs  int
}

func (g *gatedFile) Write(b []byte) (int, error) {
	g.mu.Lock()
	g.writes = append(g.writes, len(b))
	n := len(g.writes)
	g.mu.Unlock()
	if n == 1 {
		close(g.started)
		<-g.release
	}
	if n == 2 && g.failSecond {
		w, _ := g.f.Write(b[:len(b)/2])
		return w, errors.New("EIO")
	}
	return g.f.Write(b)
}

func (g *gatedFile) Sync() error {
	g.mu.Lock()
	g.syncs++
	g.mu.Unlock()
	return g.f.Sync()
}

func (g *gatedFile) Truncate(n int64) error { return g.f.Truncate(n) }

// The appends made while a batch is being written wait and go out
// together as the next batch: one write and one sync for all of them.
// When that write fails (half of it written), every append of the batch
// fails, none is in the file, and the appends written before stand: a
// batch never fails some of its receipts silently.
func TestBatch(t *testing.T) {
	for _, fail := range []bool{false, true} {
		s := signer(t, 1)
		path, _ := writeLog(t, s, 1)
		sink, err := receipt.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		g := &gatedFile{f: f, started: make(chan struct{}), release: make(chan struct{}), failSecond: fail}
		receipt.SetFile(sink, g)
		log, _ := receipt.NewLog(context.Background(), s, sink)
		ctx := context.Background()

		type result struct {
			r   *receipt.Receipt
			err error
		}
		first := make(chan result, 1)
		go func() {
			r, err := log.Append(ctx, fields(1))
			first <- result{r, err}
		}()
		<-g.started // the first append writes alone, held
		const n = 10
		results := make(chan result, n)
		for i := range n {
			go func() {
				r, err := log.Append(ctx, fields(2+i))
				results <- result{r, err}
			}()
		}
		for receipt.QueueLen(log) < n {
			runtime.Gosched()
		}
		close(g.release)

		if res := <-first; res.err != nil {
			t.Fatalf("the first append: %v", res.err)
		}
		var ok []*receipt.Receipt
		failed := 0
		for range n {
			switch res := <-results; {
			case res.err == nil && res.r != nil:
				ok = append(ok, res.r)
			case errors.Is(res.err, receipt.ErrSink) && res.r == nil:
				failed++
			default:
				t.Errorf("append: %v %v", res.r, res.err)
			}
		}
		log.Close()
		f.Close()
		inFile := map[string]bool{}
		rep, err := verifyFile(t, path, s.Keys(), receipt.VerifyOptions{Each: func(_ int, r *receipt.Receipt) { inFile[r.Digest] = true }})
		if err != nil {
			t.Fatalf("fail=%t: the log does not verify after the batch: %v", fail, err)
		}
		for _, r := range ok {
			if !inFile[r.Digest] {
				t.Errorf("fail=%t: receipt %d returned as stored is not in the file", fail, r.Payload.Seq)
			}
		}
		if len(g.writes) != 2 {
			t.Errorf("fail=%t: %d writes for 1 + %d appends, want 2: the %d queued ones in one", fail, len(g.writes), n, n)
		}
		switch {
		case !fail && (len(ok) != n || rep.Receipts != 2+n || g.syncs != 2):
			t.Errorf("%d of %d stored, %d in the file, %d syncs; want all, %d, 2", len(ok), n, rep.Receipts, g.syncs, 2+n)
		case fail && (failed != n || rep.Receipts != 2):
			t.Errorf("write failing: %d of %d failed, %d in the file; want all failed, 2 (the earlier ones)", failed, n, rep.Receipts)
		}
	}
}
