// Package receipt writes and verifies signed receipts of decided
// questions: for every question a tool asked a person and that was
// decided (accepted, declined, cancelled, expired, refused by policy),
// one JWS (RFC 7515, EdDSA over Ed25519, with a key id) whose payload
// records who decided what, about which call, on which form, and the
// digest of the receipt before it in the same log (a hash chain).
//
// A Log signs receipts with a Signer and writes each one to a Sink (a
// JSONL file, FileSink, or Redis, RedisSink) before Append returns: a
// caller that runs an approved action only after Append succeeded never
// runs it unrecorded. Receipts appended while a batch is being written
// go out together as the next batch (group commit). A failed write returns an error matching ErrSink,
// and the Log goes on only once the sink takes receipts again.
//
// Refusals is the hosted pages' page.Config.Refused hook that signs a
// receipt of every post a page refuses by policy (action "refused"),
// in the same chain; such a receipt never reads as an approval.
//
// Verify reads a JSONL log and checks every signature, key id and chain
// link, naming the first bad line; elicitgen verify is its command line.
// A log line is the flattened JWS JSON serialization (RFC 7515 section
// 7.2.2), so any JOSE library verifies it; docs/receipts.md says what a
// receipt proves and how to check it without this package.
package receipt
