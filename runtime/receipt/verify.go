package receipt

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	jose "github.com/go-jose/go-jose/v4"
)

// What Verify finds wrong with a log; a *LineError matches one of them,
// and ErrInvalid, with errors.Is.
var (
	// ErrInvalid matches every problem Verify reports.
	ErrInvalid = errors.New("receipt log does not verify")
	// ErrMalformed: a line is not a receipt (not the flattened JWS JSON
	// this package writes, a payload it cannot read, an unknown version).
	ErrMalformed = errors.New("not a receipt")
	// ErrUnknownKey: a receipt's key id is none of the keys given.
	ErrUnknownKey = errors.New("unknown key")
	// ErrSignature: a receipt's signature does not hold: a byte of it was
	// changed.
	ErrSignature = errors.New("bad signature")
	// ErrChain: a receipt is not the one due after the line before it: a
	// line was removed, inserted or moved.
	ErrChain = errors.New("broken chain")
	// ErrTruncated: the log ends early: a cut last line, no receipt at
	// all, or fewer receipts than the expected head.
	ErrTruncated = errors.New("truncated")
)

// LineError is the first bad line of a log.
type LineError struct {
	// Line is the 1-based line number.
	Line int
	// Kind is ErrMalformed, ErrUnknownKey, ErrSignature, ErrChain or
	// ErrTruncated.
	Kind error
	// Detail says what was found.
	Detail string
}

// Error implements error.
func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Kind, e.Detail)
}

// Is reports whether target is e.Kind or ErrInvalid.
func (e *LineError) Is(target error) bool { return target == e.Kind || target == ErrInvalid }

// VerifyOptions tune Verify.
type VerifyOptions struct {
	// Head, when not empty, is the digest the log's last receipt must
	// have, as recorded elsewhere (Log.Head, the Redis sink's head, an
	// earlier verify): without it, receipts removed from the end of a
	// log go unnoticed, since what is left is a valid shorter log.
	Head string
	// Each, when not nil, is called with every receipt that verified, in
	// order.
	Each func(line int, r *Receipt)
}

// Report is what Verify found in a log that verified.
type Report struct {
	// Receipts is the number of receipts (lines).
	Receipts int
	// Head is the last receipt's.
	Head Head
	// KeyIDs counts the receipts of each key id.
	KeyIDs map[string]int
}

// maxLine bounds one log line; a receipt is a few kilobytes.
const maxLine = 1 << 20

// Verify reads a JSONL receipt log from r and checks every line: that it
// is a receipt, signed by one of keys under its key id, and chained to
// the line before it (the first receipt has sequence number 1 and no
// previous digest). It returns the first bad line as a *LineError, or
// the read error of r.
func Verify(r io.Reader, keys *Keys, opts VerifyOptions) (*Report, error) {
	if keys == nil || keys.Len() == 0 {
		return nil, fmt.Errorf("%w: no public key given", ErrKey)
	}
	br := bufio.NewReader(r)
	rep := &Report{KeyIDs: map[string]int{}}
	var head Head
	n := 0
	for {
		ln, err := readLine(br)
		if err == io.EOF {
			break
		}
		n++
		if err != nil {
			var le *LineError
			if errors.As(err, &le) {
				le.Line = n
			}
			return nil, err
		}
		rec, lerr := verifyLine(ln, keys)
		if lerr == nil {
			lerr = chainCheck(head, &rec.Payload)
		}
		if lerr != nil {
			lerr.Line = n
			return nil, lerr
		}
		head = rec.Head()
		rep.KeyIDs[rec.KeyID]++
		if opts.Each != nil {
			opts.Each(n, rec)
		}
	}
	if n == 0 {
		return nil, &LineError{Line: 1, Kind: ErrTruncated, Detail: "the log holds no receipt"}
	}
	if opts.Head != "" && head.Digest != opts.Head {
		return nil, &LineError{Line: n + 1, Kind: ErrTruncated, Detail: fmt.Sprintf("the log ends at receipt %d (%s), not at the expected head %s: receipts are missing from its end", head.Seq, head.Digest, opts.Head)}
	}
	rep.Receipts, rep.Head = n, head
	return rep, nil
}

// readLine returns the next line of br without its line break, io.EOF
// at the end, or a *LineError (without its line number) for a cut or
// overlong line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var ln []byte
	for {
		frag, err := br.ReadSlice('\n')
		ln = append(ln, frag...)
		if len(ln) > maxLine {
			return nil, &LineError{Kind: ErrMalformed, Detail: fmt.Sprintf("longer than %d bytes", maxLine)}
		}
		switch {
		case err == nil:
			return ln[:len(ln)-1], nil
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(ln) == 0:
			return nil, io.EOF
		case err == io.EOF:
			return nil, &LineError{Kind: ErrTruncated, Detail: fmt.Sprintf("the last line is cut short (%d bytes without a line break)", len(ln))}
		default:
			return nil, err
		}
	}
}

// header is a receipt's protected header.
type header struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	Typ string `json:"typ"`
}

// verifyLine checks one line's form and signature and returns its
// receipt.
func verifyLine(ln []byte, keys *Keys) (*Receipt, *LineError) {
	bad := func(kind error, format string, args ...any) (*Receipt, *LineError) {
		return nil, &LineError{Kind: kind, Detail: fmt.Sprintf(format, args...)}
	}
	var fl flattened
	dec := json.NewDecoder(bytes.NewReader(ln))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fl); err != nil {
		return bad(ErrMalformed, "not a flattened JWS: %v", err)
	}
	// The line must be exactly as written: no byte outside the JWS's
	// three parts may change either.
	if canon, err := json.Marshal(fl); err != nil || !bytes.Equal(canon, ln) {
		return bad(ErrMalformed, "not a receipt line as written (changed outside its JWS parts)")
	}
	hb, err := base64.RawURLEncoding.DecodeString(fl.Protected)
	if err != nil {
		return bad(ErrMalformed, "protected header: %v", err)
	}
	var h header
	if err := json.Unmarshal(hb, &h); err != nil {
		return bad(ErrMalformed, "protected header: %v", err)
	}
	if h.Typ != Type {
		return bad(ErrMalformed, "typ %q, not %q", h.Typ, Type)
	}
	if h.Alg != string(jose.EdDSA) {
		return bad(ErrMalformed, "alg %q, not EdDSA", h.Alg)
	}
	pub, ok := keys.key(h.Kid)
	if !ok {
		return bad(ErrUnknownKey, "key id %q is none of the %d keys given", h.Kid, keys.Len())
	}
	compact := fl.Protected + "." + fl.Payload + "." + fl.Signature
	jws, err := jose.ParseSignedCompact(compact, []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		// The header read well: a payload or signature that is not even
		// base64url was changed after signing.
		return bad(ErrSignature, "the signature of key %q does not hold: %v", h.Kid, err)
	}
	body, err := jws.Verify(pub)
	if err != nil {
		return bad(ErrSignature, "the signature of key %q does not hold", h.Kid)
	}
	p, err := decodePayloadJSON(body)
	if err != nil {
		return bad(ErrMalformed, "%v", err)
	}
	return &Receipt{Payload: *p, KeyID: h.Kid, JWS: compact, Digest: Digest([]byte(compact)), Line: ln}, nil
}

// chainCheck reports whether p is the receipt due after head.
func chainCheck(head Head, p *Payload) *LineError {
	switch {
	case p.Seq != head.Seq+1 && head.Seq == 0:
		return &LineError{Kind: ErrChain, Detail: fmt.Sprintf("the log starts at receipt %d, not 1: receipts are missing before it", p.Seq)}
	case p.Seq != head.Seq+1:
		return &LineError{Kind: ErrChain, Detail: fmt.Sprintf("receipt %d follows receipt %d: a line is missing, added or out of order", p.Seq, head.Seq)}
	case p.Prev != head.Digest:
		return &LineError{Kind: ErrChain, Detail: fmt.Sprintf("receipt %d names %q as the receipt before it, but the line before is %q", p.Seq, p.Prev, head.Digest)}
	}
	return nil
}

// decodePayload decodes a base64url payload.
func decodePayload(b64 string) (*Payload, error) {
	b, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return decodePayloadJSON(b)
}

// decodePayloadJSON decodes a payload of this package's version.
func decodePayloadJSON(b []byte) (*Payload, error) {
	var p Payload
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	if p.V != Version {
		return nil, fmt.Errorf("payload version %d, not %d", p.V, Version)
	}
	if p.Seq == 0 {
		return nil, errors.New("payload without a sequence number")
	}
	if !p.Action.valid() {
		return nil, fmt.Errorf("action %q is not one of accept, decline, cancel, expired, refused", p.Action)
	}
	if msg := p.refusalShape(); msg != "" {
		return nil, errors.New(msg)
	}
	return &p, nil
}
