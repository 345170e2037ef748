package schemadiff

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kinds of change. A Change's Breaking flag is a function of its Kind alone;
// see the package documentation for the rules.
const (
	// Breaking kinds.
	KindFormRemoved           = "form-removed"
	KindPropertyRemoved       = "property-removed"
	KindPropertyAddedRequired = "property-added-required"
	KindTypeChanged           = "type-changed"
	KindMadeRequired          = "made-required"
	KindEnumValueRemoved      = "enum-value-removed"
	KindEnumConstraintAdded   = "enum-constraint-added"
	KindBoundTightened        = "bound-tightened"
	KindLengthTightened       = "length-tightened"
	KindFormatAdded           = "format-added"
	KindFormatChanged         = "format-changed"
	KindMinItemsRaised        = "min-items-raised"
	KindMaxItemsLowered       = "max-items-lowered"
	KindOptionsSourceChanged  = "options-source-changed"

	// Compatible kinds.
	KindFormAdded             = "form-added"
	KindPropertyAddedOptional = "property-added-optional"
	KindPropertyMoved         = "property-moved"
	KindTypeWidened           = "type-widened"
	KindMadeOptional          = "made-optional"
	KindEnumValueAdded        = "enum-value-added"
	KindEnumConstraintRemoved = "enum-constraint-removed"
	KindEnumTitleChanged      = "enum-title-changed"
	KindEnumOrderChanged      = "enum-order-changed"
	KindEnumStyleChanged      = "enum-style-changed"
	KindBoundLoosened         = "bound-loosened"
	KindLengthLoosened        = "length-loosened"
	KindFormatRemoved         = "format-removed"
	KindMinItemsLowered       = "min-items-lowered"
	KindMaxItemsRaised        = "max-items-raised"
	KindTitleChanged          = "title-changed"
	KindDescriptionChanged    = "description-changed"
	KindDefaultChanged        = "default-changed"
	KindKeywordChanged        = "keyword-changed"
)

// IsBreakingKind reports whether a change of the given kind is breaking: some
// answer valid under the old schema is rejected, or no longer understood, by
// a server built on the new one. Unknown kinds are reported as breaking.
func IsBreakingKind(kind string) bool {
	switch kind {
	case KindFormAdded, KindPropertyAddedOptional, KindPropertyMoved,
		KindTypeWidened, KindMadeOptional, KindEnumValueAdded,
		KindEnumConstraintRemoved, KindEnumTitleChanged, KindEnumOrderChanged,
		KindEnumStyleChanged, KindBoundLoosened, KindLengthLoosened,
		KindFormatRemoved, KindMinItemsLowered, KindMaxItemsRaised,
		KindTitleChanged, KindDescriptionChanged, KindDefaultChanged,
		KindKeywordChanged:
		return false
	}
	return !compatibleRuleKind(kind)
}

// Change is one classified difference between two schema files.
type Change struct {
	Form     string `json:"form"`     // form name, a key of the schema file
	Property string `json:"property"` // property name, or "" for a form-level change
	Kind     string `json:"kind"`     // one of the Kind constants
	Breaking bool   `json:"breaking"` // IsBreakingKind(Kind)
	Detail   string `json:"detail"`   // what changed, e.g. `enum value "qa" removed`
	Reason   string `json:"reason"`   // why that is or is not breaking: what an answer valid before now gets
	// File and Line are where the change is, for annotations: the struct
	// field's (or form's) own line when the command could load the
	// package, else the property's line in the schema file; empty when
	// unknown.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Acknowledged says an allow file (Allow) lists this breaking change,
	// with Allowed as its reason: it is reported, and does not fail.
	Acknowledged bool   `json:"acknowledged,omitempty"`
	Allowed      string `json:"allowed,omitempty"`
}

// Report is the result of a comparison: every change, sorted by form name,
// then by property declaration order (new schema first, removed properties
// where they stood in the old one), then by kind.
type Report struct {
	Changes []Change `json:"changes"`
	// known lists the forms of both files and their properties, for
	// checking an allow file's entries.
	known map[string]map[string]bool
}

// Breaking reports whether any change is breaking and not acknowledged.
func (r *Report) Breaking() bool {
	for _, c := range r.Changes {
		if c.Breaking && !c.Acknowledged {
			return true
		}
	}
	return false
}

// Add appends the changes of o to r, each form name prefixed with prefix
// (an import path and a dot, when a report covers several packages).
func (r *Report) Add(o *Report, prefix string) {
	for _, c := range o.Changes {
		c.Form = prefix + c.Form
		r.Changes = append(r.Changes, c)
	}
	if r.known == nil {
		r.known = map[string]map[string]bool{}
	}
	for f, props := range o.known {
		r.known[prefix+f] = props
	}
}

// Compare parses two schema files (elicit_gen.json contents) and classifies
// every change from old to new. An error wraps ErrInvalidSchema and names
// "old" or "new".
func Compare(oldJSON, newJSON []byte) (*Report, error) {
	return CompareFiles("old", oldJSON, "new", newJSON)
}

// CompareFiles is Compare with the file names used in error messages.
func CompareFiles(oldName string, oldJSON []byte, newName string, newJSON []byte) (*Report, error) {
	of, err := parseFile(oldName, oldJSON)
	if err != nil {
		return nil, err
	}
	nf, err := parseFile(newName, newJSON)
	if err != nil {
		return nil, err
	}
	c := collector{rules: of.version >= 2 && nf.version >= 2}
	c.files(of, nf)
	r := c.report()
	r.known = map[string]map[string]bool{}
	for _, sf := range []*schemaFile{of, nf} {
		for _, f := range sf.forms {
			if r.known[f.name] == nil {
				r.known[f.name] = map[string]bool{}
			}
			for _, p := range f.props {
				r.known[f.name][p.name] = true
			}
		}
	}
	return r, nil
}

// entry is a change with its sort keys.
type entry struct {
	c    Change
	rank int // property position in the merged order; -1 for form level
	seq  int // emission order, the last tie-breaker
}

// collector accumulates changes for one comparison.
type collector struct {
	entries []entry
	form    string
	// rules is false when a file predates the server-side rules
	// (format 1): they are not compared then, since it does not record
	// them.
	rules bool
}

func (c *collector) add(property string, rank int, kind, detail, reason string) {
	c.entries = append(c.entries, entry{
		c: Change{
			Form: c.form, Property: property, Kind: kind,
			Breaking: IsBreakingKind(kind), Detail: detail, Reason: reason,
		},
		rank: rank,
		seq:  len(c.entries),
	})
}

func (c *collector) report() *Report {
	slices.SortFunc(c.entries, func(a, b entry) int {
		return cmp.Or(
			strings.Compare(a.c.Form, b.c.Form),
			cmp.Compare(a.rank, b.rank),
			strings.Compare(a.c.Kind, b.c.Kind),
			cmp.Compare(a.seq, b.seq),
		)
	})
	r := &Report{Changes: make([]Change, 0, len(c.entries))}
	for _, e := range c.entries {
		r.Changes = append(r.Changes, e.c)
	}
	return r
}

// files compares every form; forms are visited in name order.
func (c *collector) files(of, nf *schemaFile) {
	var names []string
	for _, f := range of.forms {
		names = append(names, f.name)
	}
	for _, f := range nf.forms {
		if of.byName[f.name] == nil {
			names = append(names, f.name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		c.form = name
		o, n := of.byName[name], nf.byName[name]
		switch {
		case o == nil:
			c.add("", -1, KindFormAdded, "form added", "no existing answer is affected")
		case n == nil:
			c.add("", -1, KindFormRemoved, "form removed",
				"clients, tests and pending requests built on the old schema may still answer it, and the new server no longer accepts those answers")
		default:
			c.formDiff(o, n)
		}
	}
}

// formDiff compares two versions of one form.
func (c *collector) formDiff(o, n *form) {
	c.keywords("", -1, o.extra, n.extra)
	if c.rules {
		c.check(o, n) // rulediff.go
	}
	order := mergedOrder(o, n)
	rank := make(map[string]int, len(order))
	for i, name := range order {
		rank[name] = i
	}
	for _, name := range order {
		op, np := o.byName[name], n.byName[name]
		r := rank[name]
		switch {
		case op == nil && n.required[name]:
			c.add(name, r, KindPropertyAddedRequired, "required property added",
				fmt.Sprintf("an answer valid under the old schema has no %q, which the new server requires", name))
		case op == nil:
			c.add(name, r, KindPropertyAddedOptional, "optional property added",
				"answers that leave it out are still valid")
		case np == nil:
			c.add(name, r, KindPropertyRemoved, "property removed",
				fmt.Sprintf("a client may still send %q, which the new server rejects as an unknown property", name))
		default:
			c.required(name, r, o.required[name], n.required[name])
			c.prop(r, op, np)
		}
	}
	c.moved(o, n, rank)
}

// mergedOrder lists the properties of n in order, with each property only in
// o placed after the nearest property that precedes it in o and is kept.
func mergedOrder(o, n *form) []string {
	after := make(map[string][]string)
	anchor := ""
	for _, p := range o.props {
		if n.byName[p.name] != nil {
			anchor = p.name
		} else {
			after[anchor] = append(after[anchor], p.name)
		}
	}
	order := slices.Clone(after[""])
	for _, p := range n.props {
		order = append(order, p.name)
		order = append(order, after[p.name]...)
	}
	return order
}

// moved reports kept properties that changed place: those outside a longest
// common subsequence of the old and new order.
func (c *collector) moved(o, n *form, rank map[string]int) {
	var a, b []string
	for _, p := range o.props {
		if n.byName[p.name] != nil {
			a = append(a, p.name)
		}
	}
	for _, p := range n.props {
		if o.byName[p.name] != nil {
			b = append(b, p.name)
		}
	}
	stay := lcs(a, b)
	for i, name := range b {
		if stay[name] {
			continue
		}
		where := "now first"
		if i > 0 {
			where = fmt.Sprintf("now after %q", b[i-1])
		}
		c.add(name, rank[name], KindPropertyMoved, "moved ("+where+")",
			"order only changes how clients lay out the form; answers are keyed by name")
	}
}

// lcs returns the names in a longest common subsequence of a and b.
func lcs(a, b []string) map[string]bool {
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	in := make(map[string]bool)
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			in[a[i]] = true
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return in
}

func (c *collector) required(name string, r int, was, is bool) {
	switch {
	case !was && is:
		c.add(name, r, KindMadeRequired, "made required",
			fmt.Sprintf("a client may still leave %q out, which the new server rejects", name))
	case was && !is:
		c.add(name, r, KindMadeOptional, "made optional", "answers that include it are still valid")
	}
}

// prop compares two versions of one property.
func (c *collector) prop(r int, o, n *prop) {
	name := o.name
	c.text(name, r, KindTitleChanged, "title", o.title, n.title, "titles are display labels; answers are unaffected", true)
	c.text(name, r, KindDescriptionChanged, "description", o.desc, n.desc, "descriptions are help text; answers are unaffected", false)
	if o.typ != n.typ {
		if o.typ == "integer" && n.typ == "number" {
			c.add(name, r, KindTypeWidened, "type widened from integer to number",
				"every integer the old schema allowed is still a valid number")
		} else {
			c.add(name, r, KindTypeChanged, fmt.Sprintf("type changed from %s to %s", o.typ, n.typ),
				fmt.Sprintf("a client may still send %s, which the new server rejects (it now expects %s)", typePhrase(o), typePhrase(n)))
			return
		}
	}
	if o.askTime != n.askTime {
		from, to := "fixed in the schema", "supplied when asking"
		if o.askTime {
			from, to = to, from
		}
		c.add(name, r, KindOptionsSourceChanged, fmt.Sprintf("choices now %s (were %s)", to, from),
			"nothing ties the old choices to the new ones: a client may still send a value the new server no longer offers")
	}
	c.format(name, r, o.format, n.format)
	c.lower(name, r, o.minLength, n.minLength, "minLength", KindLengthTightened, KindLengthLoosened,
		func(v string) string { return "a string of " + plural(v, "character") },
		func(v string) string { return "a string shorter than " + plural(v, "character") })
	c.upper(name, r, o.maxLength, n.maxLength, "maxLength", KindLengthTightened, KindLengthLoosened,
		func(v string) string { return "a string of " + plural(v, "character") },
		func(v string) string { return "a string longer than " + plural(v, "character") })
	c.lower(name, r, o.minimum, n.minimum, "minimum", KindBoundTightened, KindBoundLoosened,
		func(v string) string { return v },
		func(v string) string { return "a value below " + v })
	c.upper(name, r, o.maximum, n.maximum, "maximum", KindBoundTightened, KindBoundLoosened,
		func(v string) string { return v },
		func(v string) string { return "a value above " + v })
	if o.askTime == n.askTime {
		c.enum(name, r, o.enum, n.enum, n.typ == "array")
	}
	c.lower(name, r, o.minItems, n.minItems, "minItems", KindMinItemsRaised, KindMinItemsLowered,
		func(v string) string { return "select " + plural(v, "choice") },
		func(v string) string { return "select fewer than " + plural(v, "choice") })
	c.upper(name, r, o.maxItems, n.maxItems, "maxItems", KindMaxItemsLowered, KindMaxItemsRaised,
		func(v string) string { return "select " + plural(v, "choice") },
		func(v string) string { return "select more than " + plural(v, "choice") })
	c.defaults(name, r, o.def, n.def)
	if c.rules {
		c.ruleDiff(name, r, o.rules, n.rules) // rulediff.go
	}
	c.keywords(name, r, o.extra, n.extra)
}

func typePhrase(p *prop) string {
	switch p.typ {
	case "string":
		if p.enum != nil {
			return "one of the strings it offered"
		}
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "a boolean"
	default:
		return "a list of choices"
	}
}

// text compares an optional title or description.
func (c *collector) text(name string, r int, kind, what string, o, n *string, reason string, show bool) {
	switch {
	case o == nil && n == nil, o != nil && n != nil && *o == *n:
		return
	case o == nil:
		if show {
			c.add(name, r, kind, fmt.Sprintf("%s %s added", what, quote(*n)), reason)
		} else {
			c.add(name, r, kind, what+" added", reason)
		}
	case n == nil:
		if show {
			c.add(name, r, kind, fmt.Sprintf("%s %s removed", what, quote(*o)), reason)
		} else {
			c.add(name, r, kind, what+" removed", reason)
		}
	default:
		if show {
			c.add(name, r, kind, fmt.Sprintf("%s changed from %s to %s", what, quote(*o), quote(*n)), reason)
		} else {
			c.add(name, r, kind, what+" changed", reason)
		}
	}
}

func (c *collector) format(name string, r int, o, n string) {
	switch {
	case o == n:
	case o == "":
		c.add(name, r, KindFormatAdded, fmt.Sprintf("format %s added", n),
			fmt.Sprintf("a client may still send a string that is not a valid %s, which the new server rejects", n))
	case n == "":
		c.add(name, r, KindFormatRemoved, fmt.Sprintf("format %s removed", o),
			"every string the old schema allowed is still allowed")
	default:
		c.add(name, r, KindFormatChanged, fmt.Sprintf("format changed from %s to %s", o, n),
			fmt.Sprintf("a client may still send a valid %s that is not a valid %s, which the new server rejects", o, n))
	}
}

// lower compares a lower bound (minimum, minLength, minItems). example(v)
// names an answer at the old bound v; below(v) names answers under v.
func (c *collector) lower(name string, r int, o, n *number, what, tight, loose string, example, below func(string) string) {
	const still = "every answer the old schema allowed is still allowed"
	switch {
	case o == nil && n == nil:
	case o == nil:
		c.add(name, r, tight, fmt.Sprintf("%s %s added", what, n.text),
			fmt.Sprintf("a client may still %s, which the new server rejects", sendOr(below(n.text))))
	case n == nil:
		c.add(name, r, loose, fmt.Sprintf("%s %s removed", what, o.text), still)
	case n.v > o.v:
		c.add(name, r, tight, fmt.Sprintf("%s raised from %s to %s", what, o.text, n.text),
			fmt.Sprintf("a client may still %s, which the new server rejects", sendOr(example(o.text))))
	case n.v < o.v:
		c.add(name, r, loose, fmt.Sprintf("%s lowered from %s to %s", what, o.text, n.text), still)
	}
}

// upper compares an upper bound (maximum, maxLength, maxItems).
func (c *collector) upper(name string, r int, o, n *number, what, tight, loose string, example, above func(string) string) {
	const still = "every answer the old schema allowed is still allowed"
	switch {
	case o == nil && n == nil:
	case o == nil:
		c.add(name, r, tight, fmt.Sprintf("%s %s added", what, n.text),
			fmt.Sprintf("a client may still %s, which the new server rejects", sendOr(above(n.text))))
	case n == nil:
		c.add(name, r, loose, fmt.Sprintf("%s %s removed", what, o.text), still)
	case n.v < o.v:
		c.add(name, r, tight, fmt.Sprintf("%s lowered from %s to %s", what, o.text, n.text),
			fmt.Sprintf("a client may still %s, which the new server rejects", sendOr(example(o.text))))
	case n.v > o.v:
		c.add(name, r, loose, fmt.Sprintf("%s raised from %s to %s", what, o.text, n.text), still)
	}
}

// sendOr prefixes an answer phrase with "send" unless it is already a verb
// phrase ("select ...").
func sendOr(s string) string {
	if strings.HasPrefix(s, "select ") {
		return s
	}
	return "send " + s
}

func plural(n, unit string) string {
	if n == "1" {
		return n + " " + unit
	}
	return n + " " + unit + "s"
}

// enum compares the choices of a single- or multi-select property.
func (c *collector) enum(name string, r int, o, n *enumSet, multi bool) {
	verb := "send"
	if multi {
		verb = "select"
	}
	switch {
	case o == nil && n == nil:
		return
	case o == nil:
		c.add(name, r, KindEnumConstraintAdded, "restricted to the values "+quoteList(n.values),
			"a client may still send any other string, which the new server rejects")
		return
	case n == nil:
		c.add(name, r, KindEnumConstraintRemoved, "enum restriction removed",
			"every value the old schema allowed is still a valid string")
		return
	}
	if o.style != n.style {
		c.add(name, r, KindEnumStyleChanged, fmt.Sprintf("enum style changed from %s to %s", o.style, n.style),
			"only the schema shape changes; the values sent are the same")
	}
	for _, v := range o.values {
		if n.index(v) < 0 {
			c.add(name, r, KindEnumValueRemoved, fmt.Sprintf("enum value %s removed", quote(v)),
				fmt.Sprintf("a client may still %s %s, which the new server rejects", verb, quote(v)))
		}
	}
	var ko, kn []string // kept values, in old and new order
	for i, v := range n.values {
		j := o.index(v)
		if j < 0 {
			c.add(name, r, KindEnumValueAdded, fmt.Sprintf("enum value %s added", quote(v)),
				"every value the old schema allowed is still allowed")
			continue
		}
		kn = append(kn, v)
		ot, nt := o.titles[j], n.titles[i]
		const why = "titles are display labels; the value sent is unchanged"
		switch {
		case ot == nt:
		case ot == "":
			c.add(name, r, KindEnumTitleChanged, fmt.Sprintf("enum value %s title %s added", quote(v), quote(nt)), why)
		case nt == "":
			c.add(name, r, KindEnumTitleChanged, fmt.Sprintf("enum value %s title %s removed", quote(v), quote(ot)), why)
		default:
			c.add(name, r, KindEnumTitleChanged, fmt.Sprintf("enum value %s title changed from %s to %s", quote(v), quote(ot), quote(nt)), why)
		}
	}
	for _, v := range o.values {
		if n.index(v) >= 0 {
			ko = append(ko, v)
		}
	}
	if !slices.Equal(ko, kn) {
		c.add(name, r, KindEnumOrderChanged, "enum values reordered",
			"order only changes how choices are displayed; the values sent are the same")
	}
}

func (c *collector) defaults(name string, r int, o, n *value) {
	const why = "every answer the old schema allowed is still valid; only the pre-filled value, and what an omitted optional answer decodes to, change"
	switch {
	case o.equal(n):
	case o == nil:
		c.add(name, r, KindDefaultChanged, "default "+short(n.text)+" added", why)
	case n == nil:
		c.add(name, r, KindDefaultChanged, "default "+short(o.text)+" removed", why)
	default:
		c.add(name, r, KindDefaultChanged, fmt.Sprintf("default changed from %s to %s", short(o.text), short(n.text)), why)
	}
}

// keywords compares keywords outside the subset (and "$schema"): removed and
// changed in old order, then added in new order.
func (c *collector) keywords(name string, r int, o, n []keyword) {
	find := func(ks []keyword, k string) *keyword {
		for i := range ks {
			if ks[i].name == k {
				return &ks[i]
			}
		}
		return nil
	}
	label := func(k string) (string, string) {
		if name == "" && k == "$schema" {
			return `keyword "$schema"`, "the dialect declaration does not change which answers are valid"
		}
		return fmt.Sprintf("unknown keyword %q", k), "it is not part of the requestedSchema subset; clients and the generated validator ignore it"
	}
	for _, k := range o {
		what, why := label(k.name)
		switch nk := find(n, k.name); {
		case nk == nil:
			c.add(name, r, KindKeywordChanged, what+" removed", why)
		case nk.value != k.value:
			c.add(name, r, KindKeywordChanged, fmt.Sprintf("%s changed from %s to %s", what, short(k.value), short(nk.value)), why)
		}
	}
	for _, k := range n {
		if find(o, k.name) == nil {
			what, why := label(k.name)
			c.add(name, r, KindKeywordChanged, fmt.Sprintf("%s added with value %s", what, short(k.value)), why)
		}
	}
}

// quote quotes s for a message, shortened when long.
func quote(s string) string {
	return short(strconv.Quote(s))
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = quote(v)
	}
	return strings.Join(q, ", ")
}

// short cuts s to 60 runes.
func short(s string) string {
	const limit = 60
	rs := []rune(s)
	if len(rs) <= limit {
		return s
	}
	return string(rs[:limit-3]) + "..."
}

// subject names a form or a property for messages: Form or Form.property,
// with the property quoted when it is not a plain identifier.
func subject(form, property string) string {
	if property == "" {
		return form
	}
	plain := property != ""
	for _, r := range property {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
			break
		}
	}
	if !plain {
		property = strconv.Quote(property)
	}
	return form + "." + property
}
