package runtime

// A 2025-06-18 client has no multi-select. A required multi-select is
// asked of it as one optional boolean per option (a checkbox each), named
// LegacyOptionKey(field, value), and the answer is mapped back to the
// list of the values checked, so the handler gets a []T as from any other
// client and the list is checked on the server: minItems, maxItems,
// options. AskChoices asks its quick question the same way. An optional
// multi-select is still left out of the form (its default applies).

// LegacyOptionKey is the property name under which a 2025-06-18 client is
// asked whether value is chosen in the required multi-select field:
// "field.value".
func LegacyOptionKey(field, value string) string { return field + "." + value }

// legacySchema returns s as it is asked of a 2025-06-18 client: each
// required multi-select replaced, in place, by one optional boolean per
// option (see LegacyOptionKey), titled with the option's title and
// described by the field's title, checked where the default chooses it.
// It returns s itself when s has no required multi-select.
func legacySchema(s *Schema) *Schema {
	if !hasRequiredMulti(s) {
		return s
	}
	out := &Schema{Name: s.Name, Properties: make([]Property, 0, len(s.Properties))}
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Kind != KindMulti || !p.Required {
			out.Properties = append(out.Properties, *p)
			continue
		}
		chosen, _ := p.Default.([]string)
		for _, o := range p.Options {
			def := false
			for _, c := range chosen {
				def = def || c == o.Value
			}
			desc := p.Title
			if desc == "" {
				desc = p.Name
			}
			out.Properties = append(out.Properties, Property{
				Name: LegacyOptionKey(p.Name, o.Value), Kind: KindBoolean, Title: o.title(), Description: desc, Default: def,
			})
		}
	}
	return out
}

func hasRequiredMulti(s *Schema) bool {
	for i := range s.Properties {
		if p := &s.Properties[i]; p.Kind == KindMulti && p.Required {
			return true
		}
	}
	return false
}

// foldLegacy maps content, an answer to legacySchema(s), back to the
// shape of s: each required multi-select gets the list of the values
// whose boolean is true, in option order (an empty list when none is).
// A boolean key that is not a boolean is kept, so that decoding reports
// it as a field of no form. It returns content itself when s has no
// required multi-select.
func foldLegacy(s *Schema, content map[string]any) map[string]any {
	if !hasRequiredMulti(s) || content == nil {
		return content
	}
	out := make(map[string]any, len(content))
	for k, v := range content {
		out[k] = v
	}
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Kind != KindMulti || !p.Required {
			continue
		}
		list := []any{}
		for _, o := range p.Options {
			k := LegacyOptionKey(p.Name, o.Value)
			v, ok := out[k]
			if !ok {
				continue
			}
			b, isBool := v.(bool)
			if !isBool {
				continue
			}
			delete(out, k)
			if b {
				list = append(list, o.Value)
			}
		}
		if _, answered := out[p.Name]; !answered {
			out[p.Name] = list
		}
	}
	return out
}

// askerLegacy reports whether a asks a 2025-06-18 client (as its
// ProtocolVersion method says).
func askerLegacy(a Asker) bool {
	pv, ok := findAs[protocolVersioner](a)
	return ok && EraOf(pv.ProtocolVersion()).LegacySchema()
}
