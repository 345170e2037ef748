package core

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Decoder decodes a client's accepted content into a form value, one
// property at a time, recording every problem. Generated code creates one
// with NewDecoder, calls a Decode function per field (by property index),
// then Finish.
type Decoder struct {
	schema  *Schema
	content map[string]any
	used    int
	errs    Errors
}

// NewDecoder returns a decoder of content against s.
func NewDecoder(s *Schema, content map[string]any) Decoder {
	return Decoder{schema: s, content: content}
}

// Errors returns the decoder's error list, so callers can add checks.
func (d *Decoder) Errors() *Errors { return &d.errs }

// Finish rejects keys that are not properties of the schema and returns
// every recorded problem as a *ValidationError, or nil.
func (d *Decoder) Finish() error {
	if d.used != len(d.content) {
		for _, k := range sortedKeys(d.content) {
			if d.schema.Property(k) == nil {
				d.errs.Add(k, "is not a field of this form")
			}
		}
	}
	return d.errs.Err(d.schema.Name)
}

// lookup returns property i, its value and whether a value is present. A
// missing required field is recorded; JSON null counts as missing.
func (d *Decoder) lookup(i int) (*Property, any, bool) {
	p := &d.schema.Properties[i]
	v, ok := d.content[p.Name]
	if ok {
		d.used++
	}
	if !ok || v == nil {
		if p.Required {
			d.errs.Add(p.Name, "is required")
		}
		return p, nil, false
	}
	return p, v, true
}

func (d *Decoder) typeErr(p *Property, want string, v any) {
	d.errs.Add(p.Name, "must be "+want+", got "+jsonType(v))
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

// DecodeString decodes property i into dst. An omitted optional field
// gets the schema default, if any.
func DecodeString[S ~string](d *Decoder, i int, dst *S) {
	if s, ok := decodeString(d, i); ok {
		*dst = S(s)
	}
}

// DecodeStringPtr decodes optional property i into *dst (nil when omitted
// and without default).
func DecodeStringPtr[S ~string](d *Decoder, i int, dst **S) {
	if s, ok := decodeString(d, i); ok {
		v := S(s)
		*dst = &v
	}
}

func decodeString(d *Decoder, i int) (string, bool) {
	p, v, ok := d.lookup(i)
	if !ok {
		s, ok := p.Default.(string)
		return s, ok
	}
	s, ok := v.(string)
	if !ok {
		d.typeErr(p, "a string", v)
		return "", false
	}
	CheckString(&d.errs, p, s)
	return s, true
}

// DecodeBool decodes property i into dst.
func DecodeBool[B ~bool](d *Decoder, i int, dst *B) {
	if b, ok := decodeBool(d, i); ok {
		*dst = B(b)
	}
}

// DecodeBoolPtr decodes optional property i into *dst.
func DecodeBoolPtr[B ~bool](d *Decoder, i int, dst **B) {
	if b, ok := decodeBool(d, i); ok {
		v := B(b)
		*dst = &v
	}
}

func decodeBool(d *Decoder, i int) (bool, bool) {
	p, v, ok := d.lookup(i)
	if !ok {
		b, ok := p.Default.(bool)
		return b, ok
	}
	b, ok := v.(bool)
	if !ok {
		d.typeErr(p, "a boolean", v)
	}
	return b, ok
}

// Integer is every Go integer type.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// DecodeInt decodes property i into dst, rejecting fractions and values
// outside the range of I.
func DecodeInt[I Integer](d *Decoder, i int, dst *I) {
	if n, ok := decodeInt[I](d, i); ok {
		*dst = n
	}
}

// DecodeIntPtr decodes optional property i into *dst.
func DecodeIntPtr[I Integer](d *Decoder, i int, dst **I) {
	if n, ok := decodeInt[I](d, i); ok {
		*dst = &n
	}
}

func decodeInt[I Integer](d *Decoder, i int) (I, bool) {
	p, v, ok := d.lookup(i)
	if !ok {
		if p.Default == nil {
			return 0, false
		}
		v = p.Default
	}
	n, msg := toInt[I](v)
	if msg != "" {
		d.errs.Add(p.Name, msg)
		return 0, false
	}
	if ok {
		CheckNumber(&d.errs, p, float64(n))
	}
	return n, true
}

const two63 = 1 << 63

// toInt converts a JSON number to I exactly, or explains why it cannot.
func toInt[I Integer](v any) (I, string) {
	var (
		s    int64
		u    uint64
		big  bool // value is u, above MaxInt64
		zero I
	)
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) {
			return 0, "must be an integer, got " + strconv.FormatFloat(v, 'g', -1, 64)
		}
		switch {
		case v >= -two63 && v < two63:
			s = int64(v)
		case v >= two63 && v < 2*two63:
			u, big = uint64(v), true
		default:
			return 0, fmt.Sprintf("%s is out of range for %T", strconv.FormatFloat(v, 'g', -1, 64), zero)
		}
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			s = n
		} else if n, err := strconv.ParseUint(string(v), 10, 64); err == nil {
			u, big = n, true
		} else if f, err := v.Float64(); err == nil {
			return toInt[I](f)
		} else {
			return 0, "must be an integer, got " + string(v)
		}
	case int:
		s = int64(v)
	case int64:
		s = v
	case uint64:
		u, big = v, v >= two63
		s = int64(v)
	default:
		return 0, "must be an integer, got " + jsonType(v)
	}
	if big {
		n := I(u)
		if n < 0 || uint64(n) != u {
			return 0, fmt.Sprintf("%d is out of range for %T", u, zero)
		}
		return n, ""
	}
	n := I(s)
	if int64(n) != s || (n < 0) != (s < 0) {
		return 0, fmt.Sprintf("%d is out of range for %T", s, zero)
	}
	return n, ""
}

// DecodeFloat decodes property i into dst.
func DecodeFloat[F ~float32 | ~float64](d *Decoder, i int, dst *F) {
	if f, ok := decodeFloat[F](d, i); ok {
		*dst = f
	}
}

// DecodeFloatPtr decodes optional property i into *dst.
func DecodeFloatPtr[F ~float32 | ~float64](d *Decoder, i int, dst **F) {
	if f, ok := decodeFloat[F](d, i); ok {
		*dst = &f
	}
}

func decodeFloat[F ~float32 | ~float64](d *Decoder, i int) (F, bool) {
	p, v, ok := d.lookup(i)
	if !ok {
		if p.Default == nil {
			return 0, false
		}
		v = p.Default
	}
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		x, err := v.Float64()
		if err != nil {
			d.errs.Add(p.Name, "must be a number, got "+string(v))
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
		d.typeErr(p, "a number", v)
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		d.errs.Add(p.Name, "must be a finite number")
		return 0, false
	}
	r := F(f)
	if math.IsInf(float64(r), 0) {
		d.errs.Add(p.Name, fmt.Sprintf("%s is out of range for %T", formatNumber(f), r))
		return 0, false
	}
	if ok {
		CheckNumber(&d.errs, p, f)
	}
	return r, true
}

// DecodeTime decodes property i (format date-time or date) into dst.
func DecodeTime(d *Decoder, i int, dst *time.Time) {
	if t, ok := decodeTime(d, i); ok {
		*dst = t
	}
}

// DecodeTimePtr decodes optional property i into *dst.
func DecodeTimePtr(d *Decoder, i int, dst **time.Time) {
	if t, ok := decodeTime(d, i); ok {
		*dst = &t
	}
}

func decodeTime(d *Decoder, i int) (time.Time, bool) {
	p := &d.schema.Properties[i]
	s, ok := decodeString(d, i)
	if !ok {
		return time.Time{}, false
	}
	t, err := ParseTime(p.Format, s)
	if err != nil {
		if p.Format == "" { // CheckString has not reported it
			d.errs.Add(p.Name, strconv.Quote(s)+" is not a date-time (RFC 3339)")
		}
		return time.Time{}, false
	}
	return t, true
}

// ParseTime parses s as a "date" (YYYY-MM-DD, UTC) or, for any other
// format, an RFC 3339 date-time, accepting exactly what CheckFormat does.
func ParseTime(format, s string) (time.Time, error) {
	return parseFormatTime(format, s)
}

// FormatTime writes t as a "date" or an RFC 3339 date-time.
func FormatTime(format string, t time.Time) string {
	if format == "date" {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339Nano)
}

// DecodeMulti decodes multi-select property i into dst.
func DecodeMulti[S ~string](d *Decoder, i int, dst *[]S) {
	p, v, ok := d.lookup(i)
	if !ok {
		if def, ok := p.Default.([]string); ok {
			out := make([]S, len(def))
			for j, s := range def {
				out[j] = S(s)
			}
			*dst = out
		}
		return
	}
	var out []S
	switch v := v.(type) {
	case []any:
		out = make([]S, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				d.errs.Add(p.Name, "items must be strings, got "+jsonType(e))
				return
			}
			out = append(out, S(s))
		}
	case []string:
		out = make([]S, len(v))
		for j, s := range v {
			out[j] = S(s)
		}
	default:
		d.typeErr(p, "an array of strings", v)
		return
	}
	CheckMulti(&d.errs, p, out)
	*dst = out
}

// Strings converts a multi-select value to []string for encoding.
func Strings[S ~string](v []S) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return out
}
