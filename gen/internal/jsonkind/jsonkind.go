// Package jsonkind names the kind of a JSON value for error messages.
package jsonkind

import "bytes"

// Of names the kind of the JSON value raw ("an object", "an array", "a
// string", "a boolean", "null", "a number"), by its first byte after any
// white space; "nothing" when raw is empty. It does not validate raw.
func Of(raw []byte) string {
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
