package adapter

import (
	"bytes"
	"errors"
	"io"
	"net/http"

	"github.com/elicitgen/elicitgen/runtime/internal/exact"
)

// The exact-key checks of what a client sends, whose rules live in
// runtime/internal/exact: one reading of the wire's keys for every SDK.

// Errors of the exact-key checks.
var (
	// ErrEnvelope is matched (errors.Is) by CheckEnvelope's errors.
	ErrEnvelope = exact.ErrEnvelope
	// ErrAnswerKeys is matched by CheckAnswerKeys's errors.
	ErrAnswerKeys = exact.ErrAnswerKeys
	// ErrAmbiguousArguments is matched by CheckArgKeys's errors.
	ErrAmbiguousArguments = exact.ErrAmbiguousArguments
)

// CheckEnvelope returns an error matching ErrEnvelope unless msg is one
// JSON-RPC message (an object, not a batch) whose keys, and the keys of
// its params object, are each given once and exactly as the wire spells
// them; every value is read to its end.
func CheckEnvelope(msg []byte) error { return exact.CheckEnvelope(msg) }

// CheckAnswerKeys returns an error matching ErrAnswerKeys unless raw, the
// JSON of an elicitation result (an inputResponses entry or the result of
// elicitation/create), is an object whose keys equal to "action" or
// "content" under encoding/json's case folding are exactly "action" and
// "content", each at most once.
func CheckAnswerKeys(raw []byte) error { return exact.CheckAnswerKeys(raw) }

// MalformedAction returns the reason an answer's action carries when
// ExactAnswers (or a wrapper built on it) replaced a malformed result, so
// that an adapter reports it as malformed (JSON-RPC -32602) and never
// reads it as an answer.
func MalformedAction(action string) (string, bool) { return exact.MalformedAction(action) }

// ExactAnswers returns msg with every elicitation result in it (the
// inputResponses entries of a 2026-07-28 request, or the result of an
// elicitation/create) whose keys are case variants of "action" and
// "content" replaced by a malformed answer, so that no SDK reads a
// case-variant key as the real one; msg itself when nothing needed
// replacing.
func ExactAnswers(msg []byte) []byte { return exact.ExactAnswers(msg) }

// ExactAnswersReader wraps the input of a newline-delimited JSON-RPC
// stream (stdio) so that every message passes through ExactAnswers.
func ExactAnswersReader(r io.Reader) io.Reader { return exact.ExactAnswersReader(r) }

// CheckArgKeys returns an error matching ErrAmbiguousArguments when two
// keys of one object of a tool call's arguments are equal under
// encoding/json's case folding, exact duplicates included, and when args
// cannot be read to the end as one JSON value. Empty and null arguments
// are nil.
func CheckArgKeys(args []byte) error { return exact.CheckArgKeys(args) }

// ExactAnswersHTTP wraps an MCP HTTP handler (go-sdk's
// StreamableHTTPHandler, mcp-go's StreamableHTTPServer) so that every
// POSTed JSON-RPC message passes through CheckEnvelope and ExactAnswers
// before the SDK decodes it. A body CheckEnvelope refuses (a batch, a
// case-variant or repeated envelope key) is answered 400 with a JSON-RPC
// -32600 error, or, when it is the client's response to the server's
// request, handed to the SDK as an error response with its id. Bodies over maxBody bytes (zero: 4 MiB) are refused with
// 413.
func ExactAnswersHTTP(h http.Handler, maxBody int64) http.Handler {
	if maxBody <= 0 {
		maxBody = 4 << 20
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		b, err := readBody(r.Body, r.ContentLength, maxBody)
		r.Body.Close()
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			http.Error(w, "reading body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if int64(len(b)) > maxBody {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if exact.Plain(b) {
			// Already exact: passed on as read.
			r.Body = io.NopCloser(bytes.NewReader(b))
			r.ContentLength = int64(len(b))
			h.ServeHTTP(w, r)
			return
		}
		if eerr := exact.CheckEnvelope(b); eerr != nil {
			if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
				toSDK, toClient := batchErrors(t, eerr)
				if len(toSDK) > 0 {
					// The client's answers, batched: the first fails its
					// pending request (the others wait for their timeout).
					b = toSDK[0]
					r.Body = io.NopCloser(bytes.NewReader(b))
					r.ContentLength = int64(len(b))
					h.ServeHTTP(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write(append([]byte("["), append(bytes.Join(toClient, []byte(",")), ']')...))
				return
			}
			if id := lineID(b); id != nil && lineIsResponse(b) {
				// The client's answer to the server's request: the SDK
				// reads an error response in its place, so the server's
				// pending request fails with the reason.
				b = ErrorResponse(id, CodeInvalidRequest, eerr)
			} else {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write(ErrorResponse(lineID(b), CodeInvalidRequest, eerr))
				return
			}
		}
		b = exact.ExactAnswers(b)
		r.Body = io.NopCloser(bytes.NewReader(b))
		r.ContentLength = int64(len(b))
		h.ServeHTTP(w, r)
	})
}

// readBodyPresize bounds the buffer readBody sizes by a stated length
// before the bytes arrive: a client stating a large body and sending it
// slowly holds no more than this until it does.
const readBodyPresize = 64 << 10

// readBody reads body to its end, at most limit+1 bytes, into one
// buffer of the stated size when it has one (a POST's Content-Length, up
// to readBodyPresize) instead of growing one.
func readBody(body io.Reader, size, limit int64) ([]byte, error) {
	lr := io.LimitReader(body, limit+1)
	if size < 0 || size > limit || size > readBodyPresize {
		return io.ReadAll(lr)
	}
	b := make([]byte, 0, size+1) // room to see the end without growing
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) { // longer than stated
			rest, err := io.ReadAll(lr)
			return append(b, rest...), err
		}
	}
}
