package gen

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"strconv"

	"github.com/elicitgen/elicitgen/runtime"
)

// digest writes everything the generated files depend on, field by field,
// without reflection: the output cache's key. Positions and the package
// directory are left out (the output does not depend on them).
// TestDigestCoversModel changes each model field in turn and checks that
// the digest changes, so a field added to the model cannot be forgotten
// here.
type digest struct {
	h   hash.Hash
	buf []byte
}

func newDigest() *digest { return &digest{h: sha256.New()} }

func (d *digest) flush() {
	d.h.Write(d.buf)
	d.buf = d.buf[:0]
}

func (d *digest) str(s string) {
	d.buf = binary.AppendUvarint(d.buf, uint64(len(s)))
	d.buf = append(d.buf, s...)
	if len(d.buf) > 4096 {
		d.flush()
	}
}

func (d *digest) num(n uint64) { d.buf = binary.AppendUvarint(d.buf, n) }

func (d *digest) boolean(b bool) {
	if b {
		d.num(1)
	} else {
		d.num(0)
	}
}

func (d *digest) strs(list []string) {
	d.num(uint64(len(list)))
	for _, s := range list {
		d.str(s)
	}
}

func (d *digest) intPtr(p *int) {
	if p == nil {
		d.num(0)
		return
	}
	d.num(1)
	d.num(uint64(int64(*p)))
}

func (d *digest) floatPtr(p *float64) {
	if p == nil {
		d.num(0)
		return
	}
	d.num(1)
	d.num(math.Float64bits(*p))
}

func (d *digest) sum() string {
	d.flush()
	return string(d.h.Sum(nil))
}

func (d *digest) pkg(p *Package) {
	d.str(p.Name)
	d.str(p.PkgPath)
	d.str(p.BuildConstraint)
	d.num(uint64(len(p.Forms)))
	for _, f := range p.Forms {
		d.form(f)
	}
	d.locales(p.Lang, p.Locales) // locale.go
}

func (d *digest) form(f *Form) {
	d.str(f.Name)
	d.str(f.Doc)
	d.str(f.SourceFile)
	d.num(uint64(len(f.Fields)))
	for _, fld := range f.Fields {
		d.strs(fld.Access)
		d.num(uint64(fld.GoKind))
		d.boolean(fld.Pointer)
		d.prop(&fld.Prop)
	}
	d.structure(f.Guard)
	d.num(uint64(len(f.Embedded)))
	for _, s := range f.Embedded {
		d.structure(s)
	}
	d.num(uint64(len(f.Enums)))
	for _, e := range f.Enums {
		d.str(e.PkgPath)
		d.str(e.Name)
		d.strs(e.Consts)
		d.strs(e.Values)
	}
	d.boolean(f.Args)
	d.boolean(f.Checked)
}

func (d *digest) prop(p *runtime.Property) {
	d.str(p.Name)
	d.num(uint64(p.Kind))
	d.str(p.Title)
	d.str(p.Description)
	d.boolean(p.Required)
	d.intPtr(p.MinLength)
	d.intPtr(p.MaxLength)
	d.str(p.Format)
	d.floatPtr(p.Minimum)
	d.floatPtr(p.Maximum)
	d.num(uint64(len(p.Options)))
	for _, o := range p.Options {
		d.str(o.Value)
		d.str(o.Title)
	}
	d.num(uint64(p.Style))
	d.boolean(p.Dynamic)
	d.intPtr(p.MinItems)
	d.intPtr(p.MaxItems)
	switch v := p.Default.(type) {
	case nil:
		d.str("nil")
	case string:
		d.str("string")
		d.str(v)
	case bool:
		d.str("bool")
		d.boolean(v)
	case int64:
		d.str("int64")
		d.str(strconv.FormatInt(v, 10))
	case uint64:
		d.str("uint64")
		d.num(v)
	case float64:
		d.str("float64")
		d.num(math.Float64bits(v))
	case []string:
		d.str("[]string")
		d.strs(v)
	default:
		d.str("unknown") // Analyze never builds other defaults
	}
	d.str(p.Pattern)
	d.str(p.PatternMessage)
	d.boolean(p.Confirm)
}

func (d *digest) structure(s *Struct) {
	if s == nil {
		d.num(0)
		return
	}
	d.num(1)
	d.str(s.Name)
	d.str(s.PkgPath)
	d.fields(s.Fields)
}

func (d *digest) fields(fs []StructField) {
	d.num(uint64(len(fs)))
	for _, f := range fs {
		d.str(f.Name)
		d.typeRef(f.Type)
		d.str(f.Tag)
	}
}

func (d *digest) typeRef(r *TypeRef) {
	if r == nil {
		d.num(0)
		return
	}
	d.num(1)
	d.str(r.Kind)
	d.str(r.PkgPath)
	d.str(r.Name)
	d.typeRefs(r.Args)
	d.typeRef(r.Elem)
	d.typeRef(r.Key)
	d.num(uint64(r.Len))
	d.num(uint64(r.Dir))
	d.typeRefs(r.Params)
	d.typeRefs(r.Results)
	d.boolean(r.Variadic)
	d.fields(r.Fields)
}

func (d *digest) typeRefs(list []*TypeRef) {
	d.num(uint64(len(list)))
	for _, r := range list {
		d.typeRef(r)
	}
}
