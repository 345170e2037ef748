package seal

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/elicitgen/elicitgen/runtime"
)

// State payload encoding (inside the AEAD): varint issue time, varint
// expiry, then a 4-byte little-endian count and (key, body) per answer,
// then uvarint count and (key, flow id) per flow, then uvarint count and
// the asked keys, then the uvarint replay-store epoch (absent from the
// states of earlier releases: zero). The state id (16 random bytes)
// follows the expiry. Strings are uvarint
// length and bytes; a body is a 4-byte little-endian length, the action
// and the content: uvarint count+1 (0: nil) and (name, value) pairs. A
// value is a tag byte and its data. Values of types JSON decoding does not
// produce are stored as JSON and come back as JSON decoding gives them.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagString
	tagFloat
	tagNumber
	tagList
	tagObject
	tagJSON
	tagInt // a float64 holding an integer, as a zigzag varint
)

// Actions are one byte: 1 accept, 2 decline, 3 cancel; 0 and the string
// for anything else.
func appendAction(dst []byte, a runtime.Action) []byte {
	switch a {
	case runtime.ActionAccept:
		return append(dst, 1)
	case runtime.ActionDecline:
		return append(dst, 2)
	case runtime.ActionCancel:
		return append(dst, 3)
	}
	return appendStr(append(dst, 0), string(a))
}

func (d *stateDecoder) action() runtime.Action {
	switch d.byte() {
	case 0:
		return runtime.Action(d.str())
	case 1:
		return runtime.ActionAccept
	case 2:
		return runtime.ActionDecline
	case 3:
		return runtime.ActionCancel
	}
	d.fail()
	return ""
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendState(dst []byte, st *State) ([]byte, error) {
	if st == nil {
		return append(dst, 0, 0, 0, 0, 0, 0, 0), nil
	}
	countAt, n := len(dst), 0
	dst = append(dst, 0, 0, 0, 0) // answer count, set below
	var err error
	for k, r := range st.Answers {
		if r == nil {
			continue
		}
		n++
		dst = appendStr(dst, k)
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = appendAction(dst, r.Action)
		if r.Content == nil {
			dst = append(dst, 0)
		} else {
			dst = binary.AppendUvarint(dst, uint64(len(r.Content))+1)
			for name, v := range r.Content {
				dst = appendStr(dst, name)
				if dst, err = appendStateValue(dst, v, 0); err != nil {
					return nil, fmt.Errorf("answer %q, field %q: %w", k, name, err)
				}
			}
		}
		size := len(dst) - at - 4
		if size > MaxStateSize {
			return nil, fmt.Errorf("answer %q exceeds the %d byte limit", k, MaxStateSize)
		}
		binary.LittleEndian.PutUint32(dst[at:], uint32(size))
	}
	for _, a := range st.sealed {
		if a.key != "" && st.Answers[a.key] == nil {
			n++
			dst = appendStr(dst, a.key)
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(a.body)))
			dst = append(dst, a.body...)
		}
	}
	binary.LittleEndian.PutUint32(dst[countAt:], uint32(n))
	flows := len(st.Flows)
	if _, ok := st.Flows[callFlowKey]; ok {
		flows--
	}
	if st.Call != nil && st.Call.ID != "" {
		flows++
	}
	dst = binary.AppendUvarint(dst, uint64(flows))
	for k, id := range st.Flows {
		if k == callFlowKey {
			continue // reserved; cannot be set by the runtime
		}
		dst = appendStr(dst, k)
		dst = appendStr(dst, id)
	}
	if st.Call != nil && st.Call.ID != "" {
		var scratch [160]byte
		b := appendCallInfo(scratch[:0], st.Call)
		dst = appendStr(dst, callFlowKey)
		dst = binary.AppendUvarint(dst, uint64(len(b)))
		dst = append(dst, b...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(st.Asked)))
	for _, k := range st.Asked {
		dst = appendStr(dst, k)
	}
	return binary.AppendUvarint(dst, st.Epoch), nil
}

func appendStateValue(dst []byte, v any, depth int) ([]byte, error) {
	if depth > maxStateDepth {
		return nil, errors.New("value nested too deeply")
	}
	switch v := v.(type) {
	case nil:
		return append(dst, tagNull), nil
	case bool:
		if v {
			return append(dst, tagTrue), nil
		}
		return append(dst, tagFalse), nil
	case string:
		return appendStr(append(dst, tagString), v), nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 && (v != 0 || !math.Signbit(v)) {
			return binary.AppendVarint(append(dst, tagInt), int64(v)), nil
		}
		return binary.LittleEndian.AppendUint64(append(dst, tagFloat), math.Float64bits(v)), nil
	case json.Number:
		return appendStr(append(dst, tagNumber), string(v)), nil
	case []any:
		dst = binary.AppendUvarint(append(dst, tagList), uint64(len(v)))
		var err error
		for _, e := range v {
			if dst, err = appendStateValue(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	case []string:
		dst = binary.AppendUvarint(append(dst, tagList), uint64(len(v)))
		for _, e := range v {
			dst = appendStr(append(dst, tagString), e)
		}
		return dst, nil
	case map[string]any:
		dst = binary.AppendUvarint(append(dst, tagObject), uint64(len(v)))
		var err error
		for k, e := range v {
			dst = appendStr(dst, k)
			if dst, err = appendStateValue(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
		return dst, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return appendStr(append(dst, tagJSON), string(b)), nil
}

// stateDecoder reads the payload of an authenticated state. Its input was
// sealed by this runtime, but it still checks every bound: err is set
// instead of panicking on anything short or malformed.
type stateDecoder struct {
	s   string
	err bool
}

func (d *stateDecoder) fail() { d.err, d.s = true, "" }

func (d *stateDecoder) uvarint() uint64 {
	v, n := uvarintString(d.s)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.s = d.s[n:]
	return v
}

func (d *stateDecoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a count of items each taking at least min bytes, failing if
// the rest of the payload cannot hold them.
func (d *stateDecoder) count(min int) int {
	n := d.uvarint()
	if n > uint64(len(d.s)/min) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *stateDecoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

// bytes reads n bytes.
func (d *stateDecoder) bytes(n int) string {
	if len(d.s) < n {
		d.fail()
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

func (d *stateDecoder) byte() byte {
	if len(d.s) == 0 {
		d.fail()
		return 0
	}
	c := d.s[0]
	d.s = d.s[1:]
	return c
}

func uvarintString(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// index reads the answers' keys and bodies and the flows, leaving the
// bodies encoded.
func (d *stateDecoder) index() *State {
	if len(d.s) < 4 {
		d.fail()
		return nil
	}
	n := int(binary.LittleEndian.Uint32([]byte(d.s[:4])))
	d.s = d.s[4:]
	if n > len(d.s)/6 {
		d.fail()
		return nil
	}
	st := &State{Answers: map[string]*runtime.Response{}, sealed: make([]sealedAnswer, n)}
	for i := range st.sealed {
		k := d.str()
		if len(d.s) < 4 {
			d.fail()
			return nil
		}
		size := uint64(binary.LittleEndian.Uint32([]byte(d.s[:4])))
		if size > uint64(len(d.s)-4) {
			d.fail()
			return nil
		}
		body := d.s[4 : 4+size]
		d.s = d.s[4+size:]
		st.sealed[i] = sealedAnswer{key: k, body: body}
	}
	n = d.count(2)
	st.Flows = make(map[string]string, n)
	for range n {
		k := d.str()
		v := d.str()
		if k == callFlowKey {
			st.Call = parseCallInfo(v)
			continue
		}
		st.Flows[k] = v
	}
	if n = d.count(1); n > 0 {
		st.Asked = make([]string, n)
		for i := range st.Asked {
			st.Asked[i] = d.str()
		}
	}
	if len(d.s) != 0 { // absent from the states of earlier releases
		st.Epoch = d.uvarint()
	}
	if len(d.s) != 0 {
		d.fail()
	}
	if d.err {
		return nil
	}
	return st
}

// answer decodes an answer body. Bodies are decoded only when read: the
// AEAD has authenticated them as this runtime's own encoding, and the
// decoder checks every bound anyway (a body that fails sets d.err and
// reads as no answer).
func (d *stateDecoder) answer() *runtime.Response {
	r := &runtime.Response{Action: d.action()}
	if c := d.uvarint(); c > 0 {
		if c-1 > uint64(len(d.s)/2) {
			d.fail()
			return nil
		}
		r.Content = make(map[string]any, c-1)
		for range c - 1 {
			name := d.str()
			r.Content[name] = d.value(0)
		}
	}
	return r
}

func (d *stateDecoder) value(depth int) any {
	if depth > maxStateDepth {
		d.fail()
		return nil
	}
	switch d.byte() {
	case tagNull:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagString:
		return d.str()
	case tagFloat:
		if len(d.s) < 8 {
			d.fail()
			return nil
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[:8])))
		d.s = d.s[8:]
		return v
	case tagNumber:
		return json.Number(d.str())
	case tagInt:
		return float64(d.varint())
	case tagList:
		n := d.count(1)
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	case tagObject:
		n := d.count(2)
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value(depth + 1)
		}
		return m
	case tagJSON:
		var v any
		if err := json.Unmarshal([]byte(d.str()), &v); err != nil {
			d.fail()
		}
		return v
	}
	d.fail()
	return nil
}
