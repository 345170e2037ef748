// Package seal seals and opens the request state of protocol 2026-07-28
// calls, under a key ring.
//
// On a 2026-07-28 request a tool that asks two or more forms in sequence
// returns input_required once per form; the answers of earlier rounds ride
// back and forth in the result's requestState. The client controls that
// string, so the runtime seals it with AES-256-GCM (an AEAD: encrypted and
// authenticated) under a key derived from the server's KeyRing, with an
// issue time, an expiry, and a binding to the tool name, a digest of its
// arguments and (when known) the principal; the binding is the AEAD's
// additional data. A state that fails any check is rejected; adapters
// answer it with JSON-RPC -32602.
//
// The state is confidential: a client, proxy or gateway that logs it
// learns the key id, the state's length and nothing else; the answers are
// readable only by a server holding the key ring. Every state has a random
// 96-bit nonce: rotate a key long before it has sealed 2^32 states.
//
// A stateless deployment (several instances behind a load balancer, any
// of which may receive the retry) must give every instance the same
// KeyRing, for example from one secret: ParseKeyRing(os.Getenv(...)).
//
// A refused state fails with one of the ErrState* errors, each matching
// runtime.ErrInvalidState; RefusalReason names it for an audit record.
//
// A state whose answers reached a tool handler is spent: the adapters
// Claim its id in a ReplayStore before the handler runs, so that however
// often (and however concurrently) a client sends it, its answers count
// once. MemoryReplayStore serves one process; instances behind a load
// balancer share one store (runtime/redisstore). Each state carries,
// sealed, the epoch of the replay store that the issuing instance saw,
// so that a store that lost its records refuses exactly the states
// issued before the loss (see ReplayStore).
package seal
