package exact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ErrAmbiguousArguments is matched (errors.Is) by the error of tool
// arguments holding, in one object at any depth, two keys that are equal
// under the case folding encoding/json applies when it decodes into a
// struct ("service", "SERVICE", "ſervice"). Such arguments mean one thing
// to the argument digest a sealed state is bound to and another to a
// handler that decodes them into a struct (the last spelling wins there),
// so they are refused (JSON-RPC -32602) before any state is opened or
// issued. Arguments the check cannot read to their end (a number out of
// float64's range such as 1e400, a malformed token) match it too: what
// the check cannot read is never passed on.
var ErrAmbiguousArguments = errors.New("elicit: ambiguous tool arguments")

// CheckArgKeys returns an error matching ErrAmbiguousArguments when the
// JSON arguments args hold two keys of one object, at any depth, that are
// equal under encoding/json's case folding (bytes.EqualFold on the
// decoded key: Unicode simple folding, so "K" (Kelvin) is "k" and "ſ" is
// "s"), exact duplicates included, and when args cannot be read to the
// end as one JSON value (a malformed token, data after the value, a
// number float64 cannot hold): the key check, the argument digest and
// the handler's decoding then all read the same object. Empty and null
// arguments are nil.
func CheckArgKeys(args []byte) error {
	if quickArgs(args) {
		return nil
	}
	return checkArgKeys(args)
}

// checkArgKeys is CheckArgKeys's general path.
func checkArgKeys(args []byte) error {
	if t := bytes.TrimSpace(args); len(t) == 0 || string(t) == "null" {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	type frame struct {
		object bool
		path   string
		keys   map[string]string // folded -> as sent
		key    bool              // the next token is a key
		last   string            // the last key read
	}
	var stack []*frame
	seenTop := false
	path := func() string {
		if len(stack) == 0 {
			return "$"
		}
		return stack[len(stack)-1].path
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if len(stack) > 0 {
				return fmt.Errorf("%w: the arguments end inside a value", ErrAmbiguousArguments)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: the arguments are not readable JSON: %v", ErrAmbiguousArguments, err)
		}
		if n, ok := tok.(json.Number); ok {
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				at := path()
				if len(stack) > 0 && stack[len(stack)-1].object {
					top := stack[len(stack)-1]
					at += "." + top.last
				}
				return fmt.Errorf("%w: number %.40s at %s is out of range", ErrAmbiguousArguments, n, at)
			}
		}
		if len(stack) == 0 && seenTop {
			return fmt.Errorf("%w: data after the arguments' value", ErrAmbiguousArguments)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, ok := tok.(string); ok && top != nil && top.object && top.key {
			f := string(FoldKey(nil, k))
			if prev, dup := top.keys[f]; dup {
				return fmt.Errorf("%w: keys %s and %s at %s are the same name to encoding/json's case-insensitive decoding; send each key once, spelled exactly",
					ErrAmbiguousArguments, strconv.Quote(prev), strconv.Quote(k), top.path)
			}
			top.keys[f] = k
			top.last, top.key = k, false
			continue
		}
		child := path()
		if top != nil && top.object {
			child += "." + top.last
			top.key = true
		} else if top != nil {
			child += "[]"
		}
		if len(stack) == 0 {
			seenTop = tok != json.Delim('{') && tok != json.Delim('[')
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: child, keys: map[string]string{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: child})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			seenTop = len(stack) == 0
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].key = true
			}
		}
	}
}

// FoldKey appends the fold of s as encoding/json computes it: ASCII
// letters upper-cased, any other rune replaced by the smallest rune of
// its simple fold orbit.
func FoldKey(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}
