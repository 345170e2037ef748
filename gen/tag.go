package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/elicitgen/elicitgen/internal/editdist"
)

// tagOption is one `key` or `key=value` of an elicit tag, with its byte
// offset inside the tag value.
type tagOption struct {
	Key      string
	Value    string
	HasValue bool
	Offset   int
}

// knownKeys are the elicit tag options; the value says whether the key
// takes a value.
var knownKeys = map[string]bool{
	"title": true, "desc": true, "default": true,
	"min": true, "max": true,
	"minLength": true, "maxLength": true,
	"minItems": true, "maxItems": true,
	"format": true, "enum": true,
	"optional": false, "required": false,
	"legacyTitles": false, "options": false, "notSecret": false,
	"ask": false, "pattern": true, "patternMessage": true, "confirm": false,
}

// tagError is a problem in a tag, at a byte offset inside its value.
type tagError struct {
	Offset int
	Msg    string
}

func (e *tagError) Error() string { return e.Msg }

// parseTag splits an elicit tag value into options. Values may be
// single-quoted to hold ',' or '|'; inside quotes ” is a literal quote.
// It reports every problem it finds.
func parseTag(s string) ([]tagOption, []*tagError) {
	var (
		opts []tagOption
		errs []*tagError
	)
	seen := func(key string) bool {
		for _, o := range opts {
			if o.Key == key {
				return true
			}
		}
		return false
	}
	i := 0
	for i <= len(s) {
		start := i
		for i < len(s) && s[i] != ',' && s[i] != '=' {
			i++
		}
		key := strings.TrimSpace(s[start:i])
		opt := tagOption{Key: key, Offset: start}
		if i < len(s) && s[i] == '=' {
			opt.HasValue = true
			i++
			if i < len(s) && s[i] == '\'' {
				var sb strings.Builder
				i++
				closed := false
				for i < len(s) {
					if s[i] == '\'' {
						if i+1 < len(s) && s[i+1] == '\'' {
							sb.WriteByte('\'')
							i += 2
							continue
						}
						closed = true
						i++
						break
					}
					sb.WriteByte(s[i])
					i++
				}
				if !closed {
					errs = append(errs, &tagError{start, fmt.Sprintf("unterminated quote in value of %q", key)})
					return opts, errs
				}
				opt.Value = sb.String()
				if i < len(s) && s[i] != ',' {
					errs = append(errs, &tagError{i, fmt.Sprintf("unexpected text after quoted value of %q", key)})
					for i < len(s) && s[i] != ',' {
						i++
					}
				}
			} else {
				vs := i
				for i < len(s) && s[i] != ',' {
					i++
				}
				opt.Value = s[vs:i]
			}
		}
		i++ // skip ','
		switch {
		case key == "" && !opt.HasValue && start >= len(s) && len(opts) == 0 && len(s) == 0:
			// empty tag
		case key == "":
			errs = append(errs, &tagError{start, "empty option in elicit tag"})
		default:
			takes, ok := knownKeys[key]
			switch {
			case !ok:
				msg := fmt.Sprintf("unknown elicit option %q", key)
				if prev, ok := lastValue(opts); ok && !opt.HasValue {
					// title=Hello, world: the comma ended the value.
					msg += fmt.Sprintf(" (if the comma belongs to the value of %s, quote the value: %s='%s,%s')", prev.Key, prev.Key, prev.Value, s[start:i-1])
				} else if s := suggest(key); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				errs = append(errs, &tagError{start, msg})
			case takes && !opt.HasValue:
				errs = append(errs, &tagError{start, fmt.Sprintf("elicit option %q needs a value (%s=...)", key, key)})
			case !takes && opt.HasValue:
				errs = append(errs, &tagError{start, fmt.Sprintf("elicit option %q takes no value", key)})
			case seen(key):
				errs = append(errs, &tagError{start, fmt.Sprintf("elicit option %q given twice", key)})
			default:
				opts = append(opts, opt)
			}
		}
	}
	return opts, errs
}

// spacedOptions returns a warning for each option of the tag s (parsed
// into opts without errors) written after ", " right behind a free-text
// value: in title=Phone, optional the comma ends the title, and optional
// makes the field optional, which reads like text of the title. The
// warning is at the option's name and quotes both fixes.
func spacedOptions(s string, opts []tagOption) []*tagError {
	var out []*tagError
	for i := 1; i < len(opts); i++ {
		o := opts[i]
		prev, ok := lastValue(opts[:i])
		if !ok || o.Offset >= len(s) || (s[o.Offset] != ' ' && s[o.Offset] != '\t') {
			continue
		}
		at := o.Offset + len(s[o.Offset:]) - len(strings.TrimLeft(s[o.Offset:], " \t"))
		end := strings.IndexByte(s[at:], ',')
		if end < 0 {
			end = len(s)
		} else {
			end += at
		}
		text := s[at:end]
		out = append(out, &tagError{at, fmt.Sprintf(
			"elicit option %q follows \", \" after the value of %s, so the comma ends %s=%s: if the comma belongs to the %s, quote it: %s='%s, %s'; if %s is an option, drop the space: %s=%s,%s",
			o.Key, prev.Key, prev.Key, prev.Value, prev.Key, prev.Key, strings.ReplaceAll(prev.Value, "'", "''"), strings.ReplaceAll(text, "'", "''"), o.Key, prev.Key, prev.Value, text)})
	}
	return out
}

// lastValue returns the last option parsed when it holds free text, the
// kind of value a comma may have been meant to belong to.
func lastValue(opts []tagOption) (tagOption, bool) {
	if len(opts) == 0 {
		return tagOption{}, false
	}
	o := opts[len(opts)-1]
	switch o.Key {
	case "title", "desc", "default", "pattern", "patternMessage":
		return o, o.HasValue
	}
	return tagOption{}, false
}

// nearElicit reports whether a struct tag key looks like a misspelt
// "elicit" (elict, elicits, Elicit).
func nearElicit(key string) bool {
	if key == "elicit" || len(key) < 4 || len(key) > 8 {
		return false // more than 2 edits away
	}
	return strings.EqualFold(key, "elicit") || editdist.Distance(strings.ToLower(key), "elicit") <= 2
}

// suggest returns the known key closest to key, if any is close.
func suggest(key string) string {
	keys := make([]string, 0, len(knownKeys))
	for k := range knownKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if key == "description" {
		return "desc"
	}
	lk := strings.ToLower(key)
	for _, k := range keys {
		if strings.EqualFold(k, key) || (len(key) >= 3 && strings.HasPrefix(strings.ToLower(k), lk)) {
			return k
		}
	}
	return closest(key, keys)
}

// closest returns the first of names that equals name but for case, else
// the one nearest to name if it is close (an edit distance under
// min(3, len(name)/2+1)), else "".
func closest(name string, names []string) string {
	best, bestD := "", min(3, len(name)/2+1)
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
		if d := editdist.Distance(strings.ToLower(name), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// splitList splits an enum or multi-select default list on '|'.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
