package runtime

import (
	"reflect"
	"strconv"
)

// CheckAnswer checks content, the content of an accepted answer, against
// every rule of s with the engine that decodes generated forms (and so
// exactly as an MCP answer to the same schema is checked): required
// fields, JSON types, integers (exact, JSON-safe), bounds, lengths,
// formats, options, multi-select items, server-side patterns, and
// unknown keys. It returns nil or a *ValidationError naming each field.
// Rules only Go code states (a form type's CheckElicit, the range of a
// narrow Go integer type) are not known to a schema: the form's own
// decode checks them when the answer reaches the handler.
//
// It serves code that holds a schema but not the form's Go type, such as
// a hosted form page that may run on another instance than the handler.
func (s *Schema) CheckAnswer(content map[string]any) error {
	t, paths := answerType(s)
	e := newEngine(t, s, paths)
	if e.err != nil {
		return e.err
	}
	v := reflect.New(t)
	return e.decode(s, content, v.UnsafePointer())
}

// answerType returns a struct type with one field per property of s,
// typed by the property's kind, and the fields' paths. reflect.StructOf
// caches the types it builds, so schemas of the same shape share one.
func answerType(s *Schema) (reflect.Type, []string) {
	fields := make([]reflect.StructField, len(s.Properties))
	paths := make([]string, len(s.Properties))
	for i := range s.Properties {
		var t reflect.Type
		switch s.Properties[i].Kind {
		case KindInteger:
			t = reflect.TypeFor[int64]()
		case KindNumber:
			t = reflect.TypeFor[float64]()
		case KindBoolean:
			t = reflect.TypeFor[bool]()
		case KindMulti:
			t = reflect.TypeFor[[]string]()
		default:
			t = reflect.TypeFor[string]()
		}
		paths[i] = "F" + strconv.Itoa(i)
		fields[i] = reflect.StructField{Name: paths[i], Type: t}
	}
	return reflect.StructOf(fields), paths
}
