package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalTagKey is key as a reader sees it: NFKC-normalised (full-width
// ｅｌｉｃｉｔ is elicit) with format characters (U+200B, U+200D, U+FEFF,
// bidi controls) removed.
func normalTagKey(key string) string {
	if isPlainASCII(key) {
		return key
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, norm.NFKC.String(key))
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// looksElicit reports whether a struct tag key that is not "elicit" reads
// as elicit or a misspelling of it once normalised (normalTagKey), so
// that its rules would be dropped without a word.
func looksElicit(key string) bool {
	if key == "elicit" {
		return false
	}
	n := normalTagKey(key)
	return n == "elicit" || nearElicit(n) || nearElicit(key)
}

// Struct tag syntax. reflect.StructTag reads a tag as space-separated
// key:"value" pairs and stops, without a word, at the first part that is
// not one: `elicit: "min=1"` (a space after the colon), `elicit:'min=1'`,
// an unterminated quote or a line break leave a field without its rules,
// and a struct whose only elicit tag is malformed is no form at all. So
// every tag that mentions elicit, and every tag of a form's field, is read
// here with reflect's rules, and the first part reflect would stop at is
// an error that spells out the tag as it should be written.

// tagPair is one key:"value" pair of a struct tag; Offset is the byte
// offset of the key in the tag.
type tagPair struct {
	Key, Value string
	Offset     int
}

// tagSyntaxError is the first part of a struct tag that reflect cannot
// read, at a byte offset of the tag.
type tagSyntaxError struct {
	Offset int
	Msg    string
}

// parseStructTag reads tag as reflect.StructTag does and returns its
// pairs, up to the first malformed part, which is described (with the
// fix) by the error.
func parseStructTag(tag string) ([]tagPair, *tagSyntaxError) {
	var pairs []tagPair
	i := 0
	for {
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		if i >= len(tag) {
			return pairs, nil
		}
		start := i
		if c := tag[i]; c < ' ' || c == 0x7f {
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag has %s where a key should start, so reflect ignores the tag from there: separate key:\"value\" pairs with single spaces, on one line: write `%s`", describeByte(c), spaceSeparated(tag))}
		}
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
			i++
		}
		key := tag[start:i]
		if key == "" {
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag has %q where a key should start: write key:\"value\" pairs such as elicit:\"min=1\"", tag[i:i+1])}
		}
		// fixKey is the key a fix writes: "elicit" for a misspelt one.
		// Only an error needs it, so it is worked out then.
		fixKey := func() string {
			if looksElicit(key) {
				return "elicit"
			}
			return key
		}
		if i >= len(tag) {
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag key %s has no value: write %s:\"...\"", key, fixKey())}
		}
		if tag[i] != ':' {
			// elicit="min=1", elicit "min=1": no colon.
			if k, _, ok := strings.Cut(key, "="); ok && k != "" {
				key = k
			}
			j := i
			for j < len(tag) && (tag[j] == ' ' || tag[j] == '=') {
				j++
			}
			val, _ := quotedValue(tag, j)
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag key %s is not followed by a colon, so reflect ignores the tag from there: write %s", key, fixPair(fixKey(), val))}
		}
		i++ // ':'
		switch {
		case i < len(tag) && tag[i] == '"':
			end := i + 1
			for end < len(tag) && tag[end] != '"' {
				if tag[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(tag) {
				return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag value of %s has no closing quote, so reflect ignores it: write %s", key, fixPair(fixKey(), tag[i+1:]))}
			}
			raw := tag[i : end+1]
			if strings.ContainsAny(raw, "\n\r") {
				return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag value of %s spans more than one line, so reflect ignores it: a struct tag is one line; write %s", key, fixPair(fixKey(), joinLines(raw[1:len(raw)-1])))}
			}
			val, err := strconv.Unquote(raw)
			if err != nil {
				return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag value of %s is not a valid Go string (%s), so reflect ignores it: remove or double the backslash", key, raw)}
			}
			pairs = append(pairs, tagPair{Key: key, Value: val, Offset: start})
			i = end + 1
		case i < len(tag) && (tag[i] == ' ' || tag[i] == '\t'):
			j := i
			for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t') {
				j++
			}
			val, _ := quotedValue(tag, j)
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag key %s has a space after its colon, so reflect ignores the tag from there: write %s", key, fixPair(fixKey(), val))}
		case i < len(tag) && (tag[i] == '\'' || tag[i] == '`'):
			val, _ := quotedValue(tag, i)
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag value of %s is in %s quotes, so reflect ignores it: struct tags take double quotes: write %s", key, quoteName(tag[i]), fixPair(fixKey(), val))}
		default:
			val, _ := quotedValue(tag, i)
			return pairs, &tagSyntaxError{start, fmt.Sprintf("struct tag value of %s is not in double quotes, so reflect ignores it: write %s", key, fixPair(fixKey(), val))}
		}
	}
}

// quotedValue returns the value that starts at tag[i]: the text inside
// quotes of any kind (to the closing quote or the end), else the text up
// to the next space.
func quotedValue(tag string, i int) (string, int) {
	if i >= len(tag) {
		return "", i
	}
	if q := tag[i]; q == '"' || q == '\'' || q == '`' {
		end := strings.IndexByte(tag[i+1:], q)
		if end < 0 {
			return joinLines(tag[i+1:]), len(tag)
		}
		return joinLines(tag[i+1 : i+1+end]), i + end + 2
	}
	end := strings.IndexByte(tag[i:], ' ')
	if end < 0 {
		return tag[i:], len(tag)
	}
	return tag[i : i+end], i + end
}

// joinLines puts a value broken over lines back on one line.
func joinLines(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r", ""), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "")
}

// spaceSeparated returns tag with each run of tabs and line breaks
// between pairs turned into one space.
func spaceSeparated(tag string) string {
	var sb strings.Builder
	inQuote, sep := false, false
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		switch {
		case inQuote:
			if c == '\\' && i+1 < len(tag) {
				sb.WriteByte(c)
				i++
				c = tag[i]
			} else if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case c == ' ' || c < ' ' || c == 0x7f:
			sep = true
			continue
		}
		if sep && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sep = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// fixPair is the pair as it should be written.
func fixPair(key, value string) string {
	return key + ":" + strconv.Quote(value)
}

func quoteName(q byte) string {
	if q == '`' {
		return "back"
	}
	return "single"
}

func describeByte(c byte) string {
	switch c {
	case '\t':
		return "a tab"
	case '\n', '\r':
		return "a line break"
	}
	return fmt.Sprintf("the control character %q", c)
}

// checkStructTags checks the tags of a package-level struct's fields:
// reflect must be able to read every tag that mentions elicit (and every
// tag of a form's field), an elicit key must be spelt elicit and given
// once, and a form field's json tag must be one encoding/json reads as
// meant.
func (b *builder) checkStructTags(st *ast.StructType, form bool) {
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		tag, err := strconv.Unquote(f.Tag.Value)
		if err != nil {
			continue
		}
		// Offsets of a raw string tag map onto the source byte for byte;
		// those of an interpreted one do not, so they point at the tag.
		at := func(off int) token.Position {
			if strings.HasPrefix(f.Tag.Value, "`") && !strings.Contains(f.Tag.Value, "\r") {
				return b.pos(f.Tag.Pos() + token.Pos(1+off))
			}
			return b.pos(f.Tag.Pos())
		}
		pairs, serr := parseStructTag(tag)
		if serr != nil && (form || strings.Contains(strings.ToLower(normalTagKey(tag)), "elicit")) {
			b.sink.errorf(at(serr.Offset), "%s", serr.Msg)
		}
		seen := map[string]bool{}
		for _, p := range pairs {
			switch {
			case looksElicit(p.Key):
				b.sink.errorf(at(p.Offset), "struct tag key %s: did you mean elicit? (elicitgen reads only `elicit:\"...\"`)", strconv.QuoteToASCII(p.Key))
			case seen[p.Key] && (p.Key == "elicit" || form && p.Key == "json"):
				b.sink.errorf(at(p.Offset), "struct tag has %s twice: reflect reads only the first; merge them into one %s:\"...\"", p.Key, p.Key)
			case p.Key == "json" && form:
				if off, msg := checkJSONTag(p.Value); msg != "" {
					b.sink.errorf(at(p.Offset+len(`json:"`)+off), "%s", msg)
				}
			}
			seen[p.Key] = true
		}
	}
}

// jsonOptions are the options of a json tag that encoding/json (v1 and
// v2) knows.
var jsonOptions = []string{"omitempty", "omitzero", "string", "inline", "unknown", "nocase", "strictcase"}

// checkJSONTag checks a json tag value as encoding/json reads it; it
// returns the offset in the value and the problem, or "" when it is fine.
func checkJSONTag(v string) (int, string) {
	name, opts, hasOpts := strings.Cut(v, ",")
	if name != "" && name != "-" && !validJSONName(name) {
		return 0, fmt.Sprintf("json name %q is not one encoding/json accepts, so it would use the Go field name: use letters, digits and punctuation other than quotes, backslashes and commas", name)
	}
	if name != strings.TrimSpace(name) {
		return 0, fmt.Sprintf("json name %q has spaces around it, which become part of the property name: write json:%q", name, strings.TrimSpace(name)+strings.TrimPrefix(v, name))
	}
	if !hasOpts {
		return 0, ""
	}
	off := len(name) + 1
	for _, o := range strings.Split(opts, ",") {
		switch {
		case contains(jsonOptions, o), strings.HasPrefix(o, "case:"), strings.HasPrefix(o, "format:"):
		case contains(jsonOptions, strings.TrimSpace(o)):
			return off, fmt.Sprintf("json option %q has a space, so encoding/json ignores it: write json:%q", o, strings.ReplaceAll(v, o, strings.TrimSpace(o)))
		case o == "":
		default:
			msg := fmt.Sprintf("unknown json option %q: encoding/json knows omitempty, omitzero and string", o)
			if s := closest(o, jsonOptions); s != "" {
				msg += fmt.Sprintf(" (did you mean %s? write json:%q)", s, strings.Replace(v, o, s, 1))
			}
			return off, msg
		}
		off += len(o) + 1
	}
	return 0, ""
}

// validJSONName is encoding/json's rule for a tag name.
func validJSONName(s string) bool {
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
