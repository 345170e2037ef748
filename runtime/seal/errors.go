package seal

import (
	"errors"

	"github.com/elicitgen/elicitgen/runtime"
)

// The ways a requestState is refused. Each matches
// runtime.ErrInvalidState (JSON-RPC -32602); RefusalReason names it in an
// audit record.
var (
	// ErrStateTampered: the state is malformed, does not authenticate,
	// or names a key the ring does not hold.
	ErrStateTampered error = &stateError{RefusedTampered, "tampered or malformed"}
	// ErrStateExpired: the state is older than its TTL.
	ErrStateExpired error = &stateError{RefusedExpired, "expired"}
	// ErrStateForeign: the state was issued for another tool, other
	// arguments or another principal.
	ErrStateForeign error = &stateError{RefusedForeign, "issued for another call"}
	// ErrStateNotYetValid: the state's issue time lies further in the
	// future than the sealer allows (MaxClockSkew).
	ErrStateNotYetValid error = &stateError{RefusedNotYetValid, "issued in the future"}
	// ErrStateOutdated: the state was sealed by an earlier elicitgen
	// release in the signed, unencrypted format, which is no longer
	// accepted; the client must start the call again.
	ErrStateOutdated error = &stateError{RefusedOutdated, "is in the signed, unencrypted format of earlier elicitgen releases, no longer accepted: start the call again"}
	// ErrStateUsed: the state already carried answers into a tool
	// handler once and is spent (single use). The client must call the
	// tool again, without requestState, and be asked again.
	ErrStateUsed error = &stateError{RefusedSpent, "already used: its answers reached the tool once; call the tool again without requestState to be asked again"}
	// ErrStoreForgot: the state was issued under another epoch of the
	// replay store than the current one (see ReplayStore): the store
	// lost records since (a restart without persistence, a flush, an
	// eviction), or the state was sealed without an epoch (by an earlier
	// release), so it may have been spent; the person is asked again.
	ErrStoreForgot error = &stateError{RefusedSpent, "was issued under another epoch of the replay store, which lost its records since (a restart without persistence, a flush or an eviction), so it may have been used; call the tool again without requestState to be asked again"}
	// ErrClaimUnknown: the replay store's reply to the state's claim did
	// not arrive in time. The store may have applied it, so the state
	// counts as spent and the person is asked again, rather than a later
	// retry finding it used.
	ErrClaimUnknown error = &stateError{RefusedSpent, "the replay store did not answer in time, so the state counts as spent; call the tool again without requestState to be asked again"}
)

// ExpiredError is the error of Open for a state that authenticates, is
// bound to the call, and has expired (it matches ErrStateExpired and
// runtime.ErrInvalidState). State is what it carried: an adapter may
// decide its questions as expired (runtime.ExpiredDecline) instead of
// refusing the request; never use its answers.
type ExpiredError struct {
	State *State
	err   error
}

func (e *ExpiredError) Error() string { return e.err.Error() }

// Unwrap returns the error matching ErrStateExpired.
func (e *ExpiredError) Unwrap() error { return e.err }

// The reasons RefusalReason gives (runtime.Event.Reason of
// runtime.EventStateRefused).
const (
	// RefusedTampered: the state is malformed, does not authenticate or
	// was sealed under a key this server does not hold.
	RefusedTampered = "tampered"
	// RefusedExpired: the state outlived its TTL.
	RefusedExpired = "expired"
	// RefusedForeign: the state was issued for another tool, other
	// arguments or another principal.
	RefusedForeign = "foreign"
	// RefusedSpent: the state already carried its answers into a handler
	// (replay), or may have.
	RefusedSpent = "spent"
	// RefusedNotYetValid: the state was issued ahead of this server's
	// clock.
	RefusedNotYetValid = "not_yet_valid"
	// RefusedOutdated: the state is in the format of an earlier release.
	RefusedOutdated = "outdated"
)

// RefusalReason returns the Refused* reason of an error matching
// runtime.ErrInvalidState (an error with a RefusalReason() string method
// names its own), or "" for any other error.
func RefusalReason(err error) string {
	var r interface{ RefusalReason() string }
	switch {
	case !errors.Is(err, runtime.ErrInvalidState):
		return ""
	case errors.As(err, &r) && r.RefusalReason() != "":
		return r.RefusalReason()
	}
	return RefusedTampered
}

// stateError is a refused requestState.
type stateError struct{ reason, msg string }

// Error implements error.
func (e *stateError) Error() string { return "elicit: request state " + e.msg }

// Is reports whether target is runtime.ErrInvalidState.
func (e *stateError) Is(target error) bool { return target == runtime.ErrInvalidState }

// RefusalReason returns the error's Refused* reason.
func (e *stateError) RefusalReason() string { return e.reason }
