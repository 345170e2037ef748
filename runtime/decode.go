package runtime

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
)

// Bounds of what a question and its answer may hold.
const (
	// MaxSafeInteger is the largest integer magnitude an answer may carry:
	// 2^53-1, the range I-JSON recommends and every JavaScript client can
	// represent exactly. Integers beyond it are refused, never rounded.
	MaxSafeInteger = 1<<53 - 1
	// MaxKeyLen is the maximum length of a key given to WithKey.
	MaxKeyLen = wire.MaxKeyLen
	// MaxErrors is the most problems one ValidationError lists; further ones
	// are summarized in a last entry.
	MaxErrors = 20
)

func typeErr(errs *errList, p *Property, want string, v any) {
	errs.AddID(p, MsgType, "must be "+want+", got "+jsonType(v), want, jsonType(v))
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, json.Number, int, int64, int32, uint64:
		return "a number"
	case []any, []string:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// toInt converts a JSON number to an integer exactly, or explains why it
// cannot: a fraction, or a magnitude beyond MaxSafeInteger. A json.Number
// is read from its text, so no rounding hides either.
func toInt(v any) (int64, string) {
	switch v := v.(type) {
	case float64:
		if v >= -MaxSafeInteger && v <= MaxSafeInteger && v == math.Trunc(v) {
			return int64(v), "" // the common case: no formatting
		}
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) {
			return 0, "must be an integer, got " + clip(s)
		}
		return 0, clip(s) + " is outside the JSON-safe integer range (±(2^53-1))"
	case json.Number:
		return numberToInt(string(v))
	case int:
		return safeInt(int64(v))
	case int64:
		return safeInt(v)
	case uint64:
		if v > MaxSafeInteger {
			return 0, strconv.FormatUint(v, 10) + " is outside the JSON-safe integer range (±(2^53-1))"
		}
		return int64(v), ""
	}
	return 0, "must be an integer, got " + jsonType(v)
}

func safeInt(n int64) (int64, string) {
	if n > MaxSafeInteger || n < -MaxSafeInteger {
		return 0, strconv.FormatInt(n, 10) + " is outside the JSON-safe integer range (±(2^53-1))"
	}
	return n, ""
}

// numberToInt reads a JSON number's text exactly: "10" and "10.0" are 10,
// "10.0000000000000001" is not an integer.
func numberToInt(s string) (int64, string) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return safeInt(n)
	}
	if len(s) > 400 {
		return 0, "must be an integer, got " + clip(s)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, "must be an integer, got " + clip(s)
	}
	if !r.IsInt() {
		return 0, "must be an integer, got " + clip(s)
	}
	if !r.Num().IsInt64() || r.Num().Int64() > MaxSafeInteger || r.Num().Int64() < -MaxSafeInteger {
		return 0, clip(s) + " is outside the JSON-safe integer range (±(2^53-1))"
	}
	return r.Num().Int64(), ""
}

func toFloat(errs *errList, p *Property, v any) (float64, bool) {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			errs.AddID(p, MsgType, "must be a number, got "+clip(string(v)), "a number", clip(string(v)))
			return 0, false
		}
		f = x
	case int64:
		f = float64(v)
	case uint64:
		f = float64(v)
	case int:
		f = float64(v)
	default:
		typeErr(errs, p, "a number", v)
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		errs.AddID(p, MsgNotFinite, "must be a finite number")
		return 0, false
	}
	return f, true
}

func isInf32(f float32) bool { return math.IsInf(float64(f), 0) }

// decodeStrings converts a multi-select answer to []string. It checks
// maxItems before it looks at any item, so an oversized answer costs
// nothing more than its length.
func decodeStrings(errs *errList, p *Property, v any) ([]string, bool) {
	switch v := v.(type) {
	case []any:
		if !checkCount(errs, p, len(v)) {
			return nil, false
		}
		out := make([]string, len(v))
		for j, e := range v {
			s, ok := e.(string)
			if !ok {
				errs.AddID(p, MsgType, "items must be strings, got "+jsonType(e), "strings", jsonType(e))
				return nil, false
			}
			out[j] = s
		}
		return out, true
	case []string:
		if !checkCount(errs, p, len(v)) {
			return nil, false
		}
		return append([]string{}, v...), true
	}
	typeErr(errs, p, "an array of strings", v)
	return nil, false
}

// parseTime parses s as a "date" (YYYY-MM-DD, UTC) or, for any other
// format, an RFC 3339 date-time, accepting exactly what validFormat does.
func parseTime(format, s string) (time.Time, error) {
	return parseFormatTime(format, s)
}

// formatTime writes t as a "date" or an RFC 3339 date-time.
func formatTime(format string, t time.Time) string {
	if format == "date" {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}

// maxQuoted bounds how much of a client's value an error message repeats.
const maxQuoted = 64

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// quote quotes a client's value for an error message, clipped.
func quote(s string) string {
	return strconv.Quote(clip(s))
}
