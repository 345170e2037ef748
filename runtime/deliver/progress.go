package deliver

import (
	"context"
	"time"
)

// DefaultProgressInterval is how often a 2025-era call that carries a
// progressToken is sent notifications/progress while it waits for a
// person to answer, unless the adapter's Config says otherwise. Clients
// that reset their request timeout on progress (the TypeScript SDK with
// resetTimeoutOnProgress) then keep the form open for as long as the
// person takes, instead of their tool timeout (often 60 s).
const DefaultProgressInterval = 15 * time.Second

// ProgressMessage is the text of the progress notifications sent while a
// person answers.
const ProgressMessage = "Waiting for the person to answer"

// KeepAlive calls send(ctx, n) with n = 1, 2, 3... every interval until
// the returned stop is called or ctx ends, from one goroutine; stop
// waits for it to end. A send that fails ends the ticking (the client
// is gone or does not want progress). A zero or negative interval sends
// nothing.
func KeepAlive(ctx context.Context, interval time.Duration, send func(ctx context.Context, n int) error) (stop func()) {
	if interval <= 0 || send == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if send(ctx, n) != nil {
					return
				}
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// ProgressInterval returns the interval a Config's ProgressInterval
// field means: DefaultProgressInterval for zero, none (0) for a negative
// value.
func ProgressInterval(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultProgressInterval
	case d < 0:
		return 0
	}
	return d
}
