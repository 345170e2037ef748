package exact

import "github.com/elicitgen/elicitgen/internal/jsonobj"

// The checks' fast path: one pass over the bytes of a message (or of a
// call's arguments), without decoding or allocating, that recognizes the
// plain JSON every SDK and client sends. It only ever says "certainly
// passes unchanged"; anything it is not sure of (an escape or a non-ASCII
// byte in a key, a number with an exponent, an object with many keys,
// deep nesting, a value of an unusual type where the checks look) takes
// the general path (checkEnvelope, exactAnswers, checkArgKeys), which
// decides. A fast path that said yes where the general path refuses or
// rewrites would weaken the checks: quick_test.go compares the two.

const (
	// quickMaxDepth bounds the nesting the fast path reads.
	quickMaxDepth = 64
	// quickMaxKeys bounds the keys of one object the fast path compares
	// pairwise (beyond it, the general path's maps).
	quickMaxKeys = 48
	// quickMaxNumber bounds the length of a number the fast path reads:
	// without an exponent, a number of at most this many bytes fits in a
	// float64 (whose largest is about 1.8e308).
	quickMaxNumber = 300
	// quickMaxFields bounds the keys of all the objects open at once.
	quickMaxFields = 128
)

// role is what the checks make of an object by where it is.
type role uint8

const (
	roleAny       role = iota // nothing beyond JSON and key folding
	roleEnvelope              // the message: envelopeKeys are exact
	roleParams                // its params: paramsKeys are exact
	roleResponses             // params.inputResponses: each value an answer
	roleAnswer                // an elicitation result (answerKeys)
)

// field is one member of an object being read: the key's bytes (without
// quotes) and the value's.
type field struct {
	ks, ke, vs, ve int32
	plain          bool // the value is a string without escapes
}

// quickScan reads JSON text for the fast path. The zero value with b set
// is ready; it is meant to live on the stack.
type quickScan struct {
	b []byte
	i int
	// fields[:n] are the members of the objects being read, innermost
	// last. (An array and a count, not a slice of it: a pointer into
	// itself would move the scanner to the heap.)
	fields [quickMaxFields]field
	n      int
}

// quickMessage reports whether msg certainly passes CheckEnvelope and is
// left unchanged by ExactAnswers: one JSON object with plain keys, known
// envelope and params keys spelled exactly, and every elicitation result
// (the result, the inputResponses entries) well-formed. False means only
// that the general checks must decide.
func quickMessage(msg []byte) bool {
	if len(msg) > 1<<30 {
		return false
	}
	s := quickScan{b: msg}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '{' || !s.object(0, roleEnvelope) {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}

// quickArgs reports whether CheckArgKeys(args) is certainly nil: empty,
// or one JSON value whose objects hold plain keys no two of which fold
// alike and whose numbers are short and without exponent.
func quickArgs(args []byte) bool {
	if len(args) > 1<<30 {
		return false
	}
	s := quickScan{b: args}
	s.ws()
	if s.i == len(s.b) {
		return true
	}
	if !s.value(0, roleAny) {
		return false
	}
	s.ws()
	return s.i == len(s.b)
}

// ws skips JSON's insignificant space.
func (s *quickScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value reads one value; an object or array at depth+1. A role other
// than roleAny requires an object.
func (s *quickScan) value(depth int, r role) bool {
	if s.i >= len(s.b) {
		return false
	}
	c := s.b[s.i]
	if r != roleAny && c != '{' {
		return false
	}
	switch c {
	case '{':
		mark := s.n
		ok := s.object(depth+1, r)
		s.n = mark
		return ok
	case '[':
		return s.array(depth + 1)
	case '"':
		ok, _ := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	return s.num()
}

// object reads an object starting at s.i, leaving its members in
// s.fields[mark:s.n] (the caller drops them).
func (s *quickScan) object(depth int, r role) bool {
	if depth > quickMaxDepth {
		return false
	}
	mark := s.n
	s.i++ // '{'
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return r != roleAnswer || s.answer(mark)
	}
	for {
		if s.i >= len(s.b) || s.b[s.i] != '"' || s.n-mark >= quickMaxKeys || s.n == quickMaxFields {
			return false
		}
		ks := s.i + 1
		ok, plain := s.str()
		if !ok || !plain {
			return false
		}
		ke := s.i - 1
		key := s.b[ks:ke]
		if !jsonobj.ASCII(key) {
			return false
		}
		for _, f := range s.fields[mark:s.n] {
			if jsonobj.ASCIIEqualFold(s.b[f.ks:f.ke], key) {
				return false // a repeated or case-variant key: the general path says which
			}
		}
		child := roleAny
		switch r {
		case roleEnvelope:
			if !exactKnown(key, envelopeKeys) {
				return false
			}
			switch string(key) {
			case "params":
				child = roleParams
			case "result":
				child = roleAnswer
			}
		case roleParams:
			if !exactKnown(key, paramsKeys) {
				return false
			}
			if string(key) == "inputResponses" {
				child = roleResponses
			}
		case roleResponses:
			child = roleAnswer
		}
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		vs := s.i
		vplain := false
		if s.i < len(s.b) && s.b[s.i] == '"' {
			ok, vplain = s.str()
		} else {
			ok = s.value(depth, child)
		}
		if !ok || (child != roleAny && s.b[vs] != '{') {
			return false
		}
		s.fields[s.n] = field{ks: int32(ks), ke: int32(ke), vs: int32(vs), ve: int32(s.i), plain: vplain}
		s.n++
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case '}':
			s.i++
			return r != roleAnswer || s.answer(mark)
		default:
			return false
		}
	}
}

// answer reports whether the members s.fields[mark:s.n] of an object leave
// it unchanged by ExactAnswers: no key folding to "action" (not an
// elicitation result), or "action" and "content" exactly, once each (the
// pass already refused repeats), the action a plain string, and an
// accept's content, when present, an object.
func (s *quickScan) answer(mark int) bool {
	var action, content *field
	for i := mark; i < s.n; i++ {
		f := &s.fields[i]
		key := s.b[f.ks:f.ke]
		switch {
		case jsonobj.ASCIIEqualFold(key, []byte("action")):
			if string(key) != "action" {
				return false
			}
			action = f
		case jsonobj.ASCIIEqualFold(key, []byte("content")):
			if string(key) != "content" {
				return false
			}
			content = f
		}
	}
	if action == nil {
		return true
	}
	if !action.plain {
		return false
	}
	if string(s.b[action.vs:action.ve]) == `"accept"` && content != nil && s.b[content.vs] != '{' {
		return false
	}
	return true
}

func (s *quickScan) array(depth int) bool {
	if depth > quickMaxDepth {
		return false
	}
	s.i++ // '['
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for {
		if !s.value(depth, roleAny) {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.ws()
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string at s.i (a '"'), reporting whether it is valid JSON
// and whether it is plain: no escapes.
func (s *quickScan) str() (ok, plain bool) {
	end, plain := jsonobj.StringEnd(s.b, s.i)
	if end < 0 {
		return false, false
	}
	s.i = end
	return true, plain
}

func (s *quickScan) lit(word string) bool {
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// num reads a number without exponent of at most quickMaxNumber bytes
// (RFC 8259's grammar otherwise).
func (s *quickScan) num() bool {
	end, exp := jsonobj.NumberEnd(s.b, s.i)
	if end < 0 || exp || end-s.i > quickMaxNumber {
		return false
	}
	s.i = end
	return true
}

// exactKnown reports whether the ASCII key is not a case variant of one
// of known (folded name -> name): it is either spelled as known spells
// it or folds to none of them.
func exactKnown(key []byte, known map[string]string) bool {
	var up [24]byte
	if len(key) > len(up) {
		return true // longer than every known name
	}
	for i, c := range key {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up[i] = c
	}
	want, ok := known[string(up[:len(key)])]
	return !ok || want == string(key)
}
