package runtime

import (
	"strconv"
	"strings"

	"github.com/elicitgen/elicitgen/internal/editdist"
)

// suggestField returns the hint for a field name that names no property
// of s: "; did you mean kr?" when a property is close to it (the same
// letters in another case or without separators, as a Go field name is to
// its json name, or a small typo), else, for WithOptions (dynamic), the
// fields that take options. Properties are named by their json tag, not
// their Go field.
func suggestField(s *Schema, name string, dynamic bool) string {
	if best := closestProperty(s, name, dynamic); best != "" {
		return "; did you mean " + strconv.Quote(best) + "? (properties are named by their json tag)"
	}
	if !dynamic {
		return ""
	}
	var names []string
	for _, p := range s.Properties {
		if p.Dynamic {
			names = append(names, strconv.Quote(p.Name))
		}
	}
	switch len(names) {
	case 0:
		return " (no field of " + s.Name + " takes options)"
	case 1:
		return "; the field that takes options is " + names[0]
	}
	return "; the fields that take options are " + strings.Join(names, ", ")
}

// closestProperty returns the property of s closest to name, or "".
// Dynamic properties come first when dynamic is set.
func closestProperty(s *Schema, name string, dynamic bool) string {
	fold := func(v string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(v))
	}
	best, bestScore := "", -1
	for _, p := range s.Properties {
		score := -1
		switch d := editDistance(fold(p.Name), fold(name)); {
		case d == 0:
			score = 100
		case d <= max(1, len(name)/3):
			score = 50 - d
		}
		if score < 0 {
			continue
		}
		if dynamic && p.Dynamic {
			score += 10
		}
		if score > bestScore {
			best, bestScore = p.Name, score
		}
	}
	return best
}

// editDistance is the edit distance of a and b (bytes); see editdist.Distance.
func editDistance(a, b string) int { return editdist.Distance(a, b) }
