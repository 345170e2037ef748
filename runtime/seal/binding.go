package seal

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"unicode/utf8"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
)

// Binding ties a sealed state to the call that produced it.
type Binding struct {
	// Tool is the tool name (or prompt name, resource URI).
	Tool string
	// ArgsDigest is DigestArgs of the call's arguments.
	ArgsDigest [32]byte
	// Principal identifies the authenticated user, when the transport
	// knows one ("" otherwise).
	Principal string
}

// BindCall returns the binding of a call to tool with raw JSON arguments
// args, made by principal.
func BindCall(tool string, args []byte, principal string) Binding {
	return Binding{Tool: tool, ArgsDigest: DigestArgs(args), Principal: principal}
}

// DigestArgs returns the SHA-256 of the canonical form of the JSON
// arguments args: object keys sorted, insignificant space removed,
// numbers kept as written. Absent, null and {} arguments are equal.
// Arguments that are not valid JSON are digested as given.
func DigestArgs(args []byte) [32]byte {
	canon := canonicalJSON(args)
	return sha256.Sum256(canon)
}

func canonicalJSON(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return []byte("{}")
	}
	if c := (canonChecker{b: b}); c.value(0) && c.i == len(b) {
		return b // already canonical: what the SDKs' encoders send
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil || d.More() {
		return b
	}
	out, err := json.Marshal(v) // map keys sorted; json.Number kept verbatim
	if err != nil {
		return b
	}
	return out
}

// canonChecker reports whether JSON text is already in the canonical
// form canonicalJSON produces (what json.Marshal writes for it decoded
// with UseNumber): no insignificant space, object keys strictly
// ascending, strings free of escapes, HTML characters, control
// characters, U+2028, U+2029 and invalid UTF-8. It answers false for
// anything else, which then takes the slow path, so it may be strict.
type canonChecker struct {
	b []byte
	i int
}

func (c *canonChecker) value(depth int) bool {
	if c.i >= len(c.b) || depth > 64 {
		return false
	}
	switch ch := c.b[c.i]; {
	case ch == '{':
		c.i++
		if c.next('}') {
			return true
		}
		var prev []byte
		for n := 0; ; n++ {
			start := c.i
			if !c.str() {
				return false
			}
			// Compare the keys without their quotes: json.Marshal sorts
			// the decoded strings, and a quote sorts after a space.
			key := c.b[start+1 : c.i-1]
			if n > 0 && bytes.Compare(prev, key) >= 0 {
				return false
			}
			prev = key
			if !c.next(':') || !c.value(depth+1) {
				return false
			}
			if !c.next(',') {
				return c.next('}')
			}
		}
	case ch == '[':
		c.i++
		if c.next(']') {
			return true
		}
		for {
			if !c.value(depth + 1) {
				return false
			}
			if !c.next(',') {
				return c.next(']')
			}
		}
	case ch == '"':
		return c.str()
	case ch == 't':
		return c.lit("true")
	case ch == 'f':
		return c.lit("false")
	case ch == 'n':
		return c.lit("null")
	}
	return c.num()
}

// next consumes b if it is the next byte.
func (c *canonChecker) next(b byte) bool {
	if c.i < len(c.b) && c.b[c.i] == b {
		c.i++
		return true
	}
	return false
}

func (c *canonChecker) lit(s string) bool {
	if !bytes.HasPrefix(c.b[c.i:], []byte(s)) {
		return false
	}
	c.i += len(s)
	return true
}

// str accepts a string of printable ASCII other than `"`, `\`, `<`, `>`
// and `&`, and valid UTF-8 other than U+2028 and U+2029.
func (c *canonChecker) str() bool {
	if c.i >= len(c.b) || c.b[c.i] != '"' {
		return false
	}
	for c.i++; c.i < len(c.b); {
		ch := c.b[c.i]
		switch {
		case ch == '"':
			c.i++
			return true
		case ch < 0x20 || ch == '\\' || ch == '<' || ch == '>' || ch == '&':
			return false
		case ch < utf8.RuneSelf:
			c.i++
		default:
			r, n := utf8.DecodeRune(c.b[c.i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return false
			}
			c.i += n
		}
	}
	return false
}

// num accepts a JSON number (RFC 8259 section 6).
func (c *canonChecker) num() bool {
	end, _ := jsonobj.NumberEnd(c.b, c.i)
	if end < 0 {
		return false
	}
	c.i = end
	return true
}
