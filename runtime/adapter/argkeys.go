package adapter

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
// issued.
var ErrAmbiguousArguments = errors.New("elicit: ambiguous tool arguments")

// CheckArgKeys returns an error matching ErrAmbiguousArguments when the
// JSON arguments args hold two keys of one object, at any depth, that are
// equal under encoding/json's case folding (bytes.EqualFold on the
// decoded key: Unicode simple folding, so "K" (Kelvin) is "k" and "ſ" is
// "s"), exact duplicates included. Arguments that are not valid JSON are
// not its business: it returns nil for them.
func CheckArgKeys(args []byte) error {
	if bytes.IndexByte(args, '{') < 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(args))
	type frame struct {
		object bool
		path   string
		keys   map[string]string // folded -> as sent
		key    bool              // the next token is a key
		last   string            // the last key read
	}
	var stack []*frame
	path := func() string {
		if len(stack) == 0 {
			return "$"
		}
		return stack[len(stack)-1].path
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, ok := tok.(string); ok && top != nil && top.object && top.key {
			f := string(foldKey(nil, k))
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
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: child, keys: map[string]string{}, key: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: child})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].key = true
			}
		}
	}
}

// foldKey appends the fold of s as encoding/json computes it: ASCII
// letters upper-cased, any other rune replaced by the smallest rune of
// its simple fold orbit.
func foldKey(dst []byte, s string) []byte {
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
