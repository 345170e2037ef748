package adapter_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// TestConfigsEmbedOptions: the SDK adapters' Configs share their
// SDK-independent settings as one embedded adapter.Options, documented
// there once: besides it, each Config holds only what takes its SDK's
// types (how to read the principal and the language of its requests).
func TestConfigsEmbedOptions(t *testing.T) {
	opts := reflect.TypeFor[adapter.Options]()
	for _, cfg := range []reflect.Type{reflect.TypeFor[gosdk.Config](), reflect.TypeFor[mcpgo.Config]()} {
		embedded := false
		for i := range cfg.NumField() {
			f := cfg.Field(i)
			switch {
			case !f.IsExported():
			case f.Anonymous && f.Type == opts:
				embedded = true
			case f.Type.Kind() != reflect.Func || !mentions(f.Type, cfg.PkgPath(), "mcp"):
				t.Errorf("%s.%s (%s) takes no SDK type: it belongs in adapter.Options", cfg, f.Name, f.Type)
			}
			if _, dup := opts.FieldByName(f.Name); dup && !f.Anonymous {
				t.Errorf("%s.%s repeats adapter.Options.%s", cfg, f.Name, f.Name)
			}
		}
		if !embedded {
			t.Errorf("%s does not embed adapter.Options", cfg)
		}
	}
}

// mentions reports whether the func type fn takes a parameter from a
// package whose path ends in /sdkPkg (the SDK's), not from own.
func mentions(fn reflect.Type, own, sdkPkg string) bool {
	for i := range fn.NumIn() {
		in := fn.In(i)
		for in.Kind() == reflect.Pointer {
			in = in.Elem()
		}
		if p := in.PkgPath(); p != own && strings.HasSuffix(p, "/"+sdkPkg) {
			return true
		}
	}
	return false
}
