package schemadiff

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/elicitgen/elicitgen/internal/jsonobj"
	"github.com/elicitgen/elicitgen/runtime"
)

// rules are the server-side rules of one property, as the schema file
// records them under the extension keys (PatternKey, ...).
type rules struct {
	pattern, patternMessage string
	confirm, ask            bool
}

// ruleKeys are the property-level extension keys of the rules: they are
// read into rules, never compared as unknown keywords.
var ruleKeys = map[string]bool{PatternKey: true, PatternMessageKey: true, ConfirmKey: true, AskKey: true}

// readVersion reads the file's format version, member m of data: a
// version newer than FormatVersion is an error at its position.
func readVersion(file string, data []byte, m jsonobj.Member) (int, error) {
	var v int
	if err := json.Unmarshal(m.Value, &v); err != nil || v < 1 {
		line, col := jsonobj.Position(data, m.ValueOffset)
		return 0, &SchemaError{File: file, Line: line, Column: col, Msg: fmt.Sprintf("%q must be a whole number of 1 or more, got %s", VersionKey, compact(m.Value))}
	}
	if v > FormatVersion {
		line, col := jsonobj.Position(data, m.ValueOffset)
		return 0, &SchemaError{File: file, Line: line, Column: col, Msg: fmt.Sprintf("schema file format %d is newer than this elicitgen reads (%d): upgrade elicitgen", v, FormatVersion)}
	}
	return v, nil
}

// readRules reads the rule keys of property p, whose raw JSON is raw.
func readRules(form string, p *runtime.Property, raw json.RawMessage) (rules, error) {
	var r rules
	ms, _, err := members(raw)
	if err != nil {
		return r, errf(form, p.Name, "%v", err)
	}
	for _, m := range ms {
		var err error
		switch m.key {
		case PatternKey:
			if r.pattern, err = ruleString(m.val); err == nil {
				if _, cerr := regexp.Compile(r.pattern); cerr != nil {
					err = fmt.Errorf("not an RE2 regular expression: %v", cerr)
				}
			}
		case PatternMessageKey:
			r.patternMessage, err = ruleString(m.val)
		case ConfirmKey:
			r.confirm, err = ruleTrue(m.val)
		case AskKey:
			r.ask, err = ruleTrue(m.val)
		}
		if err != nil {
			return r, errf(form, p.Name, "%q: %v", m.key, err)
		}
	}
	switch {
	case r.pattern != "" && p.Kind != runtime.KindString:
		return r, errf(form, p.Name, "%q on a %s property: a pattern applies to free text", PatternKey, p.Kind)
	case r.patternMessage != "" && r.pattern == "":
		return r, errf(form, p.Name, "%q without %q", PatternMessageKey, PatternKey)
	case r.confirm && p.Kind != runtime.KindBoolean:
		return r, errf(form, p.Name, "%q on a %s property: confirm marks a boolean box", ConfirmKey, p.Kind)
	}
	return r, nil
}

func ruleString(raw json.RawMessage) (string, error) {
	var s *string
	if json.Unmarshal(raw, &s) != nil || s == nil || *s == "" {
		return "", fmt.Errorf("want a non-empty string, got %s", compact(raw))
	}
	return *s, nil
}

func ruleTrue(raw json.RawMessage) (bool, error) {
	if string(raw) != "true" {
		return false, fmt.Errorf("want true, got %s", compact(raw))
	}
	return true, nil
}
