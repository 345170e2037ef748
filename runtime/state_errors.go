package runtime

import "errors"

// ErrInvalidState is matched (errors.Is) by every refusal of a
// requestState: tampered, expired, foreign, spent (the seal package's
// ErrState* errors name each way; seal.RefusalReason names it for an
// audit record). Such a state must not be trusted; adapters answer it
// with JSON-RPC -32602.
var ErrInvalidState = errors.New("elicit: invalid request state")
