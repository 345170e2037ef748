package schemadiff

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Kinds of change of the server-side rules the schema file records.
const (
	// Breaking kinds.
	KindPatternAdded   = "pattern-added"
	KindPatternChanged = "pattern-changed"
	KindConfirmAdded   = "confirm-added"
	KindAskAdded       = "ask-added"
	KindCheckAdded     = "check-added"

	// Compatible kinds.
	KindPatternRemoved        = "pattern-removed"
	KindPatternMessageChanged = "pattern-message-changed"
	KindConfirmRemoved        = "confirm-removed"
	KindAskRemoved            = "ask-removed"
	KindCheckRemoved          = "check-removed"
)

// compatibleRuleKind reports whether kind is one of the compatible rule
// kinds.
func compatibleRuleKind(kind string) bool {
	switch kind {
	case KindPatternRemoved, KindPatternMessageChanged, KindConfirmRemoved, KindAskRemoved, KindCheckRemoved:
		return true
	}
	return false
}

// ruleDiff compares the server-side rules of one property.
func (c *collector) ruleDiff(name string, r int, o, n rules) {
	switch {
	case o.pattern == n.pattern:
	case o.pattern == "":
		c.add(name, r, KindPatternAdded, "pattern "+quote(n.pattern)+" added", patternEffect("", n.pattern, "any string"))
	case n.pattern == "":
		c.add(name, r, KindPatternRemoved, "pattern "+quote(o.pattern)+" removed",
			"every string the old pattern allowed is still allowed")
	default:
		c.add(name, r, KindPatternChanged, fmt.Sprintf("pattern changed from %s to %s", quote(o.pattern), quote(n.pattern)),
			patternEffect(o.pattern, n.pattern, "a string the old pattern allowed"))
	}
	if o.patternMessage != n.patternMessage {
		detail := fmt.Sprintf("pattern message changed from %s to %s", quote(o.patternMessage), quote(n.patternMessage))
		switch {
		case o.patternMessage == "":
			detail = "pattern message " + quote(n.patternMessage) + " added"
		case n.patternMessage == "":
			detail = "pattern message " + quote(o.patternMessage) + " removed"
		}
		c.add(name, r, KindPatternMessageChanged, detail,
			"the words a person reads on a refused answer change; which answers are accepted does not")
	}
	switch {
	case !o.confirm && n.confirm:
		c.add(name, r, KindConfirmAdded, "confirm added: the box now approves",
			fmt.Sprintf("an accept with %q unticked, which went ahead before, now reaches the handler as a decline", name))
	case o.confirm && !n.confirm:
		c.add(name, r, KindConfirmRemoved, "confirm removed",
			fmt.Sprintf("every accept the old server took is still taken; an accept with %q unticked is no longer a decline, so check that the handler reads the box", name))
	}
	switch {
	case !o.ask && n.ask:
		c.add(name, r, KindAskAdded, "now asked of the person when the model leaves it out (ask)",
			"a call that left it out and went ahead before now stops to ask a person first")
	case o.ask && !n.ask:
		c.add(name, r, KindAskRemoved, "no longer asked when the model leaves it out (ask removed)",
			"no answer the old server took is refused")
	}
}

// check compares whether the form has a CheckElicit method.
func (c *collector) check(o, n *form) {
	switch {
	case !o.check && n.check:
		c.add("", -1, KindCheckAdded, "CheckElicit method added",
			"an answer that passed every schema rule and went ahead before may now be refused by the form's own check")
	case o.check && !n.check:
		c.add("", -1, KindCheckRemoved, "CheckElicit method removed",
			"every answer the old server took is still taken; answers its check refused are now accepted")
	}
}

// patternEffect says what an answer gets under the pattern now: a string
// that matched old (any string, when old is "") and now is refused, found
// from old's syntax; what names such strings when none is found.
func patternEffect(old, now, what string) string {
	if w, ok := witness(old, now); ok {
		return fmt.Sprintf("%s, valid before, is now refused (it does not match %s)", quote(w), now)
	}
	return fmt.Sprintf("a client or a person may still send %s that does not match %s, which the new server refuses", what, now)
}

// witness returns a string that old matches ("": any string) and now
// does not, built from old's syntax tree; ok is false when none of the
// strings tried is one.
func witness(old, now string) (string, bool) {
	nre, err := regexp.Compile(now)
	if err != nil {
		return "", false
	}
	cands := []string{"", "a", "0", "x y"}
	if old != "" {
		ore, err := regexp.Compile(old)
		if err != nil {
			return "", false
		}
		tree, err := syntax.Parse(old, syntax.Perl)
		if err != nil {
			return "", false
		}
		tree = tree.Simplify()
		cands = nil
		for _, st := range strategies {
			var b strings.Builder
			sample(&b, tree, st)
			if s := b.String(); ore.MatchString(s) {
				cands = append(cands, s)
			}
		}
	}
	for _, s := range cands {
		if !nre.MatchString(s) {
			return s, true
		}
	}
	return "", false
}

// strategy says how sample picks among a pattern's choices: extra
// repeats over the minimum (capped at the maximum), the last rune of a
// class rather than the first, which alternative.
type strategy struct {
	extra int
	last  bool
	alt   int
}

var strategies = []strategy{
	{0, false, 0}, {1, false, 0}, {2, true, 1}, {7, false, 2}, {0, true, 1}, {3, true, 3}, {1, true, 0},
}

// sample writes a string re matches, chosen by st.
func sample(b *strings.Builder, re *syntax.Regexp, st strategy) {
	repeat := func(lo, hi int) {
		n := lo + st.extra
		if hi >= 0 && n > hi {
			n = hi
		}
		for range n {
			sample(b, re.Sub[0], st)
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return
		}
		r := re.Rune[0]
		if st.last {
			r = re.Rune[len(re.Rune)-1]
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture:
		sample(b, re.Sub[0], st)
	case syntax.OpStar:
		repeat(0, -1)
	case syntax.OpPlus:
		repeat(1, -1)
	case syntax.OpQuest:
		repeat(0, 1)
	case syntax.OpRepeat:
		repeat(re.Min, re.Max)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			sample(b, s, st)
		}
	case syntax.OpAlternate:
		sample(b, re.Sub[min(st.alt, len(re.Sub)-1)], st)
	}
}
