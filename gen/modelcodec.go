package gen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// The raw-input cache (rawcache.go) returns a Result without analysing
// anything, so it stores the models beside the files. encodeModels writes
// every exported field of the model, by reflection, keeping nil apart
// from empty (a nil *int from a pointer to 0, a nil slice from an empty
// one); decodeModels rebuilds equal values. Unexported fields are not
// kept: the model has one, PropLocale.hint, which only LoadLocales and
// LocaleTemplate read (the warnings it produces are in Package.Warnings).
// TestModelCodecRoundTrip checks that every golden model comes back
// deep-equal.

// errModelCodec reports a model value the codec cannot write or a stored
// model it cannot read; the cache treats either as a miss.
var errModelCodec = errors.New("model codec")

// anyTypes are the dynamic types an interface field of the model may hold
// (runtime.Property.Default), by tag (index + 1).
func anyTypes() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[string](), reflect.TypeFor[bool](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint64](), reflect.TypeFor[float64](), reflect.TypeFor[[]string](),
		reflect.TypeFor[int](),
	}
}

// exportedFields returns the indices of t's exported fields, remembered
// in seen: looking them up is most of the cost of a struct otherwise.
func exportedFields(seen map[reflect.Type][]int, t reflect.Type) []int {
	if idx, ok := seen[t]; ok {
		return idx
	}
	idx := []int{}
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			idx = append(idx, i)
		}
	}
	seen[t] = idx
	return idx
}

func encodeModels(pkgs []*Package) ([]byte, error) {
	e := &modelEncoder{any: anyTypes(), fields: map[reflect.Type][]int{}}
	if err := e.value(reflect.ValueOf(pkgs)); err != nil {
		return nil, err
	}
	return e.buf, nil
}

func decodeModels(b []byte) ([]*Package, error) {
	d := &modelDecoder{buf: string(b), any: anyTypes(), fields: map[reflect.Type][]int{}}
	var pkgs []*Package
	if err := d.value(reflect.ValueOf(&pkgs).Elem()); err != nil {
		return nil, err
	}
	if len(d.buf) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", errModelCodec, len(d.buf))
	}
	return pkgs, nil
}

type modelEncoder struct {
	buf    []byte
	any    []reflect.Type
	fields map[reflect.Type][]int
}

func (e *modelEncoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Bool:
		e.buf = append(e.buf, boolByte(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = binary.AppendUvarint(e.buf, v.Uint())
	case reflect.Float32, reflect.Float64:
		e.buf = binary.BigEndian.AppendUint64(e.buf, math.Float64bits(v.Float()))
	case reflect.String:
		e.buf = binary.AppendUvarint(e.buf, uint64(v.Len()))
		e.buf = append(e.buf, v.String()...)
	case reflect.Pointer:
		e.buf = append(e.buf, boolByte(!v.IsNil()))
		if !v.IsNil() {
			return e.value(v.Elem())
		}
	case reflect.Slice:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		e.buf = binary.AppendUvarint(e.buf, uint64(v.Len())+1)
		for i := range v.Len() {
			if err := e.value(v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for _, i := range exportedFields(e.fields, v.Type()) {
			if err := e.value(v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, 0)
			return nil
		}
		tag := -1
		for i, t := range e.any {
			if v.Elem().Type() == t {
				tag = i
			}
		}
		if tag < 0 {
			return fmt.Errorf("%w: cannot store a %s in %s", errModelCodec, v.Elem().Type(), v.Type())
		}
		e.buf = binary.AppendUvarint(e.buf, uint64(tag)+1)
		return e.value(v.Elem())
	default:
		return fmt.Errorf("%w: cannot store a %s", errModelCodec, v.Type())
	}
	return nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// modelDecoder reads from a string, so that the strings it decodes share
// its memory instead of being allocated one by one.
type modelDecoder struct {
	buf    string
	any    []reflect.Type
	fields map[reflect.Type][]int
}

var errShortModel = fmt.Errorf("%w: truncated", errModelCodec)

func (d *modelDecoder) uvarint() (uint64, error) {
	var n uint64
	for shift := 0; shift < 64; shift += 7 {
		if len(d.buf) == 0 {
			return 0, errShortModel
		}
		c := d.buf[0]
		d.buf = d.buf[1:]
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return n, nil
		}
	}
	return 0, errShortModel
}

func (d *modelDecoder) flag() (bool, error) {
	if len(d.buf) == 0 || d.buf[0] > 1 {
		return false, errShortModel
	}
	b := d.buf[0] == 1
	d.buf = d.buf[1:]
	return b, nil
}

// value decodes into v, which is settable and holds its zero value.
func (d *modelDecoder) value(v reflect.Value) error {
	switch v.Kind() {
	case reflect.Bool:
		b, err := d.flag()
		v.SetBool(b)
		return err
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		u, err := d.uvarint()
		n := int64(u >> 1) // zigzag, as binary.AppendVarint writes it
		if u&1 != 0 {
			n = ^n
		}
		if err != nil || v.OverflowInt(n) {
			return errShortModel
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := d.uvarint()
		if err != nil || v.OverflowUint(n) {
			return errShortModel
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		if len(d.buf) < 8 {
			return errShortModel
		}
		v.SetFloat(math.Float64frombits(binary.BigEndian.Uint64([]byte(d.buf[:8]))))
		d.buf = d.buf[8:]
	case reflect.String:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.buf)) {
			return errShortModel
		}
		v.SetString(d.buf[:n])
		d.buf = d.buf[n:]
	case reflect.Pointer:
		set, err := d.flag()
		if err != nil || !set {
			return err
		}
		v.Set(reflect.New(v.Type().Elem()))
		return d.value(v.Elem())
	case reflect.Slice:
		n, err := d.uvarint()
		if err != nil || n > uint64(len(d.buf))+1 { // every element takes a byte at least
			return errShortModel
		}
		if n == 0 {
			return nil
		}
		s := reflect.MakeSlice(v.Type(), int(n-1), int(n-1))
		for i := range s.Len() {
			if err := d.value(s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Struct:
		for _, i := range exportedFields(d.fields, v.Type()) {
			if err := d.value(v.Field(i)); err != nil {
				return err
			}
		}
	case reflect.Interface:
		tag, err := d.uvarint()
		if err != nil || tag > uint64(len(d.any)) {
			return errShortModel
		}
		if tag == 0 {
			return nil
		}
		elem := reflect.New(d.any[tag-1]).Elem()
		if err := d.value(elem); err != nil {
			return err
		}
		v.Set(elem)
	default:
		return fmt.Errorf("%w: cannot read a %s", errModelCodec, v.Type())
	}
	return nil
}
