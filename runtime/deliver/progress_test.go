package deliver

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestKeepAlive(t *testing.T) {
	var sent atomic.Int32
	stop := KeepAlive(context.Background(), time.Millisecond, func(_ context.Context, n int) error {
		if int(sent.Add(1)) != n {
			t.Errorf("progress %d out of order", n)
		}
		return nil
	})
	for sent.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	stop()
	after := sent.Load()
	time.Sleep(5 * time.Millisecond)
	if sent.Load() != after {
		t.Error("progress sent after stop returned")
	}

	// A failing send ends the ticking; stop still returns.
	var calls atomic.Int32
	stop = KeepAlive(context.Background(), time.Millisecond, func(context.Context, int) error {
		calls.Add(1)
		return errors.New("gone")
	})
	for calls.Load() < 1 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond)
	stop()
	if calls.Load() != 1 {
		t.Errorf("%d sends after a failure, want 1", calls.Load())
	}

	if ProgressInterval(0) != DefaultProgressInterval || ProgressInterval(-1) != 0 || ProgressInterval(time.Second) != time.Second {
		t.Error("ProgressInterval")
	}
	KeepAlive(context.Background(), 0, nil)() // none: stop is a no-op
}
