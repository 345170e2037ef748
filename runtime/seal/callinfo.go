package seal

import (
	"strconv"
	"strings"
	"time"
)

// CallInfo correlates the rounds of one 2026-07-28 call, for observers
// (runtime.Observer): it rides in the sealed state.
//
// It is encoded as one entry of the flows section under a reserved key
// (callFlowKey), so that a state carrying it opens under releases that
// predate it (which keep it as a flow and seal it again unchanged), and
// states sealed by them open here without one (State.Call nil).
type CallInfo struct {
	// ID is the call's random correlation id.
	ID string
	// Round is the number of rounds sealed so far (1 after the first).
	Round int
	// Started is when the call's first round started.
	Started time.Time
	// Sealed is when this state was sealed.
	Sealed time.Time
}

// callFlowKey is the reserved flows key of CallInfo. Flows keys are
// otherwise inputRequests keys or the runtime's "!retries:" counters.
const callFlowKey = "!call"

// callInfoVersion prefixes the encoding of CallInfo.
const callInfoVersion = "c1"

// appendCallInfo appends the text form of c:
// "c1 ID ROUND STARTED_MS SEALED_MS". (The keys the sealing round asked
// are State.Asked.)
func appendCallInfo(dst []byte, c *CallInfo) []byte {
	dst = append(dst, callInfoVersion...)
	dst = append(dst, ' ')
	dst = append(dst, c.ID...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c.Round), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, unixMilli(c.Started), 10)
	dst = append(dst, ' ')
	return strconv.AppendInt(dst, unixMilli(c.Sealed), 10)
}

func unixMilli(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMilli(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// parseCallInfo reads the text form; anything it does not understand
// reads as nil (the state authenticated: this only guards against a
// future encoding).
func parseCallInfo(s string) *CallInfo {
	f := strings.Fields(s)
	if len(f) < 5 || f[0] != callInfoVersion {
		return nil
	}
	round, err1 := strconv.Atoi(f[2])
	started, err2 := strconv.ParseInt(f[3], 10, 64)
	sealed, err3 := strconv.ParseInt(f[4], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	return &CallInfo{ID: f[1], Round: round, Started: fromMilli(started), Sealed: fromMilli(sealed)}
}
