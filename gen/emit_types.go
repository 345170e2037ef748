package gen

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// The pieces of Go the emitter writes that are not constructs of their
// own: type expressions, struct tags, the header's source line and the
// grouping of its imports.

func rt(name string) *jen.Statement { return jen.Qual(RuntimePath, name) }

// impl qualifies a name of the generated-code support package.
func impl(name string) *jen.Statement { return jen.Qual(ImplPath, name) }

func kv(key string, v jen.Code) jen.Code { return jen.Id(key).Op(":").Add(v) }

func oneLineType(r *TypeRef) bool {
	if r == nil {
		return true
	}
	switch r.Kind {
	case "struct":
		return false
	case "func":
		for _, p := range append(append([]*TypeRef{}, r.Params...), r.Results...) {
			if !oneLineType(p) {
				return false
			}
		}
		return true
	}
	for _, a := range r.Args {
		if !oneLineType(a) {
			return false
		}
	}
	return oneLineType(r.Elem) && oneLineType(r.Key)
}

// typeKey identifies a type expression.
func typeKey(r *TypeRef) string {
	return string(appendTypeKey(nil, r))
}

func appendTypeKey(b []byte, r *TypeRef) []byte {
	if r == nil {
		return append(b, "()"...)
	}
	b = append(append(b, '('), r.Kind...)
	b = strconv.AppendQuote(append(b, ' '), r.PkgPath)
	b = strconv.AppendQuote(append(b, ' '), r.Name)
	b = strconv.AppendInt(append(b, ' '), r.Len, 10)
	b = strconv.AppendInt(append(b, ' '), int64(r.Dir), 10)
	b = strconv.AppendBool(append(b, ' '), r.Variadic)
	for _, l := range [][]*TypeRef{r.Args, {r.Elem}, {r.Key}, r.Params, r.Results} {
		b = append(b, '[')
		for _, a := range l {
			b = appendTypeKey(b, a)
		}
		b = append(b, ']')
	}
	for _, f := range r.Fields {
		b = strconv.AppendQuote(b, f.Name)
		b = strconv.AppendQuote(b, f.Tag)
		b = appendTypeKey(b, f.Type)
	}
	return append(b, ')')
}

// groupImports splits jennifer's single import block into the standard
// library and the rest, as goimports does. The input is gofmt-formatted,
// and the split keeps it so.
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start
	var std, other []string
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		path := strings.Trim(line[strings.LastIndexByte(line, ' ')+1:], "\"\t")
		if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	block := strings.Join(std, "\n") + "\n\n" + strings.Join(other, "\n")
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:start]...)
	out = append(out, block...)
	return append(out, src[end:]...)
}

func sourceFiles(pkg *Package) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range pkg.Forms {
		if !seen[f.SourceFile] {
			seen[f.SourceFile] = true
			out = append(out, f.SourceFile)
		}
	}
	sort.Strings(out)
	return out
}

// sourceLine lists the source files for the header's "// source:" line.
// A name that would not read as itself there (a control or bidirectional
// formatting character, a quote, a comma) is written quoted, escaped as a
// Go string: a file name can neither end the comment nor reorder what a
// reader sees.
func sourceLine(files []string) string {
	out := make([]string, len(files))
	for i, name := range files {
		out[i] = name
		if !plainText(name) || strings.ContainsAny(name, `,"`) {
			out[i] = strconv.Quote(name)
		}
	}
	return strings.Join(out, ", ")
}

// plainText reports whether s is valid UTF-8 of printable characters only
// (strconv.IsPrint: no control, format or bidirectional characters; the
// ASCII space is printable).
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return false
		}
	}
	return true
}

func numbered(src []byte) string {
	var sb strings.Builder
	for i, line := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&sb, "%5d  %s\n", i+1, line)
	}
	return sb.String()
}

func structType(fields []StructField) *jen.Statement {
	return jen.StructFunc(func(g *jen.Group) {
		for _, sf := range fields {
			var s *jen.Statement
			if sf.Name == "" {
				s = g.Add(typeCode(sf.Type))
			} else {
				s = g.Id(sf.Name).Add(typeCode(sf.Type))
			}
			if sf.Tag != "" {
				s.Op(tagLiteral(sf.Tag))
			}
		}
	})
}

// tagLiteral writes a struct tag exactly: as a raw string when it holds
// only printable characters and no backquote, else quoted, so that a
// control or bidirectional-formatting character in a tag is escaped in the
// generated file rather than written as is.
func tagLiteral(tag string) string {
	if !strings.Contains(tag, "`") && plainText(tag) {
		return "`" + tag + "`"
	}
	return strconv.Quote(tag)
}

// typeCode writes a TypeRef as Go code.
func typeCode(r *TypeRef) *jen.Statement {
	switch r.Kind {
	case "name":
		var s *jen.Statement
		if r.PkgPath == "" {
			s = jen.Id(r.Name)
		} else {
			s = jen.Qual(r.PkgPath, r.Name)
		}
		if len(r.Args) > 0 {
			args := make([]jen.Code, len(r.Args))
			for i, a := range r.Args {
				args[i] = typeCode(a)
			}
			s = s.Types(args...)
		}
		return s
	case "pointer":
		return jen.Op("*").Add(typeCode(r.Elem))
	case "slice":
		return jen.Index().Add(typeCode(r.Elem))
	case "array":
		return jen.Index(jen.Lit(int(r.Len))).Add(typeCode(r.Elem))
	case "map":
		return jen.Map(typeCode(r.Key)).Add(typeCode(r.Elem))
	case "chan":
		switch r.Dir {
		case 1:
			return jen.Chan().Op("<-").Add(typeCode(r.Elem))
		case 2:
			return jen.Op("<-").Chan().Add(typeCode(r.Elem))
		}
		return jen.Chan().Add(typeCode(r.Elem))
	case "func":
		params := make([]jen.Code, len(r.Params))
		for i, p := range r.Params {
			if r.Variadic && i == len(r.Params)-1 {
				params[i] = jen.Op("...").Add(typeCode(p.Elem))
			} else {
				params[i] = typeCode(p)
			}
		}
		results := make([]jen.Code, len(r.Results))
		for i, p := range r.Results {
			results[i] = typeCode(p)
		}
		return jen.Func().Params(params...).Params(results...)
	case "struct":
		return structType(r.Fields)
	}
	return jen.Interface()
}
