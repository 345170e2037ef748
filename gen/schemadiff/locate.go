package schemadiff

import (
	"strings"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
)

// Locator says where a form, or one of its properties (property ""
// for the form), is declared: a file and a 1-based line; ok is false when
// it does not know.
type Locator func(form, property string) (file string, line int, ok bool)

// Locate sets File and Line of every change that has none, asking each
// locator in turn. A removed property is looked up, failing that, as its
// form.
func (r *Report) Locate(locators ...Locator) {
	for i := range r.Changes {
		c := &r.Changes[i]
		if c.File != "" {
			continue
		}
		for _, loc := range locators {
			if f, l, ok := loc(c.Form, c.Property); ok {
				c.File, c.Line = f, l
				break
			}
			if c.Property != "" {
				if f, l, ok := loc(c.Form, ""); ok {
					c.File, c.Line = f, l
					break
				}
			}
		}
	}
}

// InSchemaFile is a Locator that finds each form and property in the
// schema file data (named file in annotations), at the line of its key;
// forms under a prefix (an import path and a dot) are found without it.
func InSchemaFile(file string, data []byte, prefix string) Locator {
	lines := map[[2]string]int{}
	top, _, _ := jsonobj.Parse(data)
	for _, f := range top {
		lines[[2]string{f.Key, ""}], _ = jsonobj.Position(data, f.KeyOffset)
		fms, _, _ := jsonobj.Parse(f.Value)
		for _, fm := range fms {
			props := fm.Value
			base := f.ValueOffset + fm.ValueOffset
			if fm.Key == AskTimeKey {
				sub, _, _ := jsonobj.Parse(fm.Value)
				props = nil
				for _, sm := range sub {
					if sm.Key == "properties" {
						props, base = sm.Value, base+sm.ValueOffset
					}
				}
			} else if fm.Key != "properties" {
				continue
			}
			pms, _, _ := jsonobj.Parse(props)
			for _, pm := range pms {
				lines[[2]string{f.Key, pm.Key}], _ = jsonobj.Position(data, base+pm.KeyOffset)
			}
		}
	}
	return func(form, property string) (string, int, bool) {
		if !strings.HasPrefix(form, prefix) {
			return "", 0, false
		}
		l, ok := lines[[2]string{strings.TrimPrefix(form, prefix), property}]
		return file, l, ok
	}
}
