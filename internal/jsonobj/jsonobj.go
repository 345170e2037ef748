// Package jsonobj reads JSON objects in document order, with duplicate
// keys reported: the one reader behind the runtime's requestedSchema
// reader, the translation catalogs and the schema file of `elicitgen
// diff`. It uses only the standard library, so the runtime may import it.
package jsonobj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Member is one key of a JSON object and its value, in document order.
type Member struct {
	Key string
	// Value is the member's raw JSON value.
	Value json.RawMessage
	// KeyOffset and ValueOffset are the byte offsets of the key's opening
	// quote and of the value in the text given to Parse or Scan.
	KeyOffset, ValueOffset int
}

// DuplicateKeyError is a key that appears twice in one object, at the
// byte offset of its second occurrence.
type DuplicateKeyError struct {
	Key    string
	Offset int
}

// Error implements error.
func (e *DuplicateKeyError) Error() string { return fmt.Sprintf("duplicate key %q", e.Key) }

// Parse returns the members of the JSON object raw in document order. ok
// is false when raw (after white space) is not an object. A key given
// twice is a *DuplicateKeyError; malformed JSON an error that says
// "invalid JSON".
func Parse(raw []byte) (ms []Member, ok bool, err error) {
	var dup *DuplicateKeyError
	ms, ok, err = Scan(raw, func(d *DuplicateKeyError) {
		if dup == nil {
			dup = d
		}
	})
	if err == nil && dup != nil {
		return nil, false, dup
	}
	return ms, ok, err
}

// Scan is Parse that reads on past duplicate keys: each one is passed to
// dup (in document order) and left out, the first occurrence kept.
func Scan(raw []byte, dup func(*DuplicateKeyError)) (ms []Member, ok bool, err error) {
	start := skip(raw, 0)
	if start >= len(raw) || raw[start] != '{' {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, false, fmt.Errorf("invalid JSON: %v", err)
	}
	seen := make(map[string]bool)
	for dec.More() {
		koff := skip(raw, int(dec.InputOffset()))
		t, err := dec.Token()
		if err != nil {
			return nil, false, fmt.Errorf("invalid JSON: %v", err)
		}
		key, _ := t.(string)
		voff := skip(raw, int(dec.InputOffset()))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false, fmt.Errorf("invalid JSON: %v", err)
		}
		if seen[key] {
			dup(&DuplicateKeyError{Key: key, Offset: koff})
			continue
		}
		seen[key] = true
		ms = append(ms, Member{Key: key, Value: v, KeyOffset: koff, ValueOffset: voff})
	}
	if _, err := dec.Token(); err != nil {
		return nil, false, fmt.Errorf("invalid JSON: %v", err)
	}
	return ms, true, nil
}

// skip skips white space, ':' and ',' from raw[i].
func skip(raw []byte, i int) int {
	for i < len(raw) && strings.IndexByte(" \t\r\n:,", raw[i]) >= 0 {
		i++
	}
	return i
}

// Append appends ms to dst as a compact JSON object, in order.
func Append(dst []byte, ms []Member) []byte {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		k, _ := json.Marshal(m.Key) // strings always marshal
		dst = append(dst, k...)
		dst = append(dst, ':')
		dst = append(dst, m.Value...)
	}
	return append(dst, '}')
}

// Kind names the kind of the JSON value raw for messages ("an object",
// "an array", "a string", "a boolean", "null", "a number"), by its first
// byte after any white space; "nothing" when raw is empty. It does not
// validate raw.
func Kind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// Position returns the 1-based line and column (in bytes) of offset off
// of data.
func Position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	return line, off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
}

// Compact returns raw without insignificant white space (raw itself when
// it does not parse), for messages.
func Compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// Invalid returns nil when data is valid JSON, else the error that says
// where it is not (a *json.SyntaxError with the offset, when json gives
// one).
func Invalid(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return errors.New("not valid JSON")
}

// NumberEnd returns the index just past the JSON number (RFC 8259
// section 6) that starts at b[i], or -1 when none does there; exp reports
// whether it has an exponent.
func NumberEnd(b []byte, i int) (end int, exp bool) {
	digits := func() bool {
		start := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		digits()
	default:
		return -1, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return -1, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return -1, false
		}
		exp = true
	}
	return i, exp
}

// StringEnd returns the index just past the JSON string (RFC 8259
// section 7) that starts at b[i] (a '"'), or -1 when none does there;
// plain reports whether it has no escapes. Bytes from 0x80 up are not
// checked as UTF-8.
func StringEnd(b []byte, i int) (end int, plain bool) {
	if i >= len(b) || b[i] != '"' {
		return -1, false
	}
	plain = true
	for i++; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			return i + 1, plain
		case c < 0x20:
			return -1, false
		case c == '\\':
			plain = false
			if i+1 >= len(b) {
				return -1, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return -1, false
				}
				for _, h := range b[i+2 : i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1, false
					}
				}
				i += 6
			default:
				return -1, false
			}
		default:
			i++
		}
	}
	return -1, false
}

// ASCII reports whether b is all ASCII: encoding/json's case folding of
// a key is then its ASCII upper case (no Kelvin sign or long s can hide
// in it).
func ASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// ASCIIEqualFold reports whether the ASCII strings a and b are equal with
// ASCII letters compared case-insensitively.
func ASCIIEqualFold(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
