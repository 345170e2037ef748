package runtime

import "errors"

// ErrInvalidState is matched (errors.Is) by every error of opening a requestState (seal.Sealer.Open):
// the requestState is tampered, expired or foreign and must not be
// trusted.
var ErrInvalidState = errors.New("elicit: invalid request state")

// The ways a requestState can fail. Each matches ErrInvalidState.
var (
	// ErrStateTampered: the state is malformed, does not authenticate,
	// or names a key the ring does not hold.
	ErrStateTampered error = &stateError{"tampered or malformed"}
	// ErrStateExpired: the state is older than its TTL.
	ErrStateExpired error = &stateError{"expired"}
	// ErrStateForeign: the state was issued for another tool, other
	// arguments or another principal.
	ErrStateForeign error = &stateError{"issued for another call"}
	// ErrStateNotYetValid: the state's issue time lies further in the
	// future than the sealer allows (seal.MaxClockSkew).
	ErrStateNotYetValid error = &stateError{"issued in the future"}
	// ErrStateOutdated: the state was sealed by an earlier elicitgen
	// release in the signed, unencrypted format, which is no longer
	// accepted; the client must start the call again.
	ErrStateOutdated error = &stateError{"is in the signed, unencrypted format of earlier elicitgen releases, no longer accepted: start the call again"}
)

type stateError struct{ msg string }

// Error implements error.
func (e *stateError) Error() string { return "elicit: request state " + e.msg }

// Is reports whether target is ErrInvalidState.
func (e *stateError) Is(target error) bool { return target == ErrInvalidState }
