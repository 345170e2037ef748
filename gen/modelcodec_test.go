package gen

import (
	"errors"
	"go/token"
	"reflect"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestModelCodecRoundTrip stores models whose every field is set (and
// each kind of default, nil apart from empty, pointers to zero) and
// checks that they come back deep-equal, and that no prefix of the
// encoding decodes.
func TestModelCodecRoundTrip(t *testing.T) {
	var pkgs []*Package
	for _, def := range []any{nil, "v", true, int64(-3), uint64(3), 0.5, []string{"a"}, []string{}, 7} {
		p := fullModel()
		pos := token.Position{Filename: "/d/f.go", Offset: 9, Line: 2, Column: 3}
		p.Warnings = Diagnostics{{Pos: pos, Msg: "w"}}
		p.Forms[0].Pos, p.Forms[0].Fields[0].Pos = pos, pos
		p.Locales[0].Skip = []string{"G"}
		prop := &p.Forms[0].Fields[0].Prop
		prop.Default, prop.MinLength, prop.Options = def, ptrTo(0), []runtime.Option{}
		pkgs = append(pkgs, p)
	}
	pkgs = append(pkgs, &Package{Name: "empty"})
	b, err := encodeModels(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeModels(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, pkgs) {
		t.Fatal("models changed in the cache")
	}
	for n := range len(b) {
		if _, err := decodeModels(b[:n]); !errors.Is(err, errModelCodec) {
			t.Fatalf("a %d-byte prefix of %d: %v", n, len(b), err)
		}
	}
	p := fullModel()
	p.Forms[0].Fields[0].Prop.Default = int32(1)
	if _, err := encodeModels([]*Package{p}); !errors.Is(err, errModelCodec) {
		t.Fatalf("a default of an unknown type: %v", err)
	}
}
