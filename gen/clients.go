package gen

import (
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// ClientLimitsReviewed is the day the table of known client limits was
// last checked against its sources. Clients change with every release:
// each fact holds for the client version it names (or the one current on
// that day) and may be fixed since.
const ClientLimitsReviewed = "2026-12-01"

// Feature is the part of a form that a known client limit concerns.
type Feature uint8

// Features, in the order the limit table lists them per client.
const (
	// FeatureAnyForm: every form, whatever its fields.
	FeatureAnyForm Feature = iota + 1
	// FeatureModernEra: asking on 2026-07-28 (input_required rounds).
	FeatureModernEra
	// FeatureURLMode: URL-mode asks, which are not forms.
	FeatureURLMode
	// FeatureInteger: integer fields.
	FeatureInteger
	// FeatureNumber: number fields.
	FeatureNumber
	// FeatureEnum: single-select fields.
	FeatureEnum
	// FeatureTitledOptions: single- or multi-selects whose options are
	// sent with titles (oneOf / anyOf).
	FeatureTitledOptions
	// FeatureMulti: multi-select fields.
	FeatureMulti
	// FeatureItemCount: multi-selects with minItems or maxItems.
	FeatureItemCount
	// FeatureLength: strings with minLength or maxLength.
	FeatureLength
	// FeatureFormat: strings with a format (email, uri, date, date-time).
	FeatureFormat
	// FeatureDefault: fields sent with a default.
	FeatureDefault
	// FeatureFalsyDefault: fields whose default is false or 0.
	FeatureFalsyDefault
)

// ClientLimit is one thing a known MCP client does not do with a form,
// with the public sources that show it.
type ClientLimit struct {
	// Client is the client's name, e.g. "Codex CLI".
	Client string
	// Feature is the part of a form the limit concerns.
	Feature Feature
	// Limit completes a sentence that starts with the client's name, in
	// plain text: "cannot edit integer fields".
	Limit string
	// Version is the client version the fact was seen in; empty when
	// the sources do not name one.
	Version string
	// Sources are public references, in one of three notations:
	// "owner/repo#N" (an issue or pull request), "owner/repo path@commit"
	// (a file at a commit), or "observed: ..." (seen by running the
	// client, which is itself public).
	Sources []string
}

// ClientLimits returns the table of known client limits, sorted by
// client, then by feature. The slice is new on every call.
func ClientLimits() []ClientLimit {
	return []ClientLimit{
		{Client: "Claude Code", Feature: FeatureAnyForm, Limit: "can lose a form sent over remote Streamable HTTP (the ask never gets an answer)",
			Sources: []string{"anthropics/claude-code#85442"}},
		{Client: "Claude Code", Feature: FeatureURLMode, Limit: "asks in form mode only: it declares no URL mode, on 2026-07-28 either", Version: "2.1.237",
			Sources: []string{"anthropics/claude-code#69555", "anthropics/claude-code#88075"}},
		{Client: "Claude Code", Feature: FeatureMulti, Limit: "shows the choices of a multi-select collapsed at first",
			Sources: []string{"anthropics/claude-code#86469"}},
		{Client: "Claude Desktop", Feature: FeatureAnyForm, Limit: "declares elicitation in its embedded agent but never shows the form: each ask ends in cancel at the 60 s tool timeout",
			Sources: []string{"anthropics/claude-code#88901", "anthropics/claude-code#96043"}},
		{Client: "Claude agent in VS Code", Feature: FeatureAnyForm, Limit: "declines every form silently",
			Sources: []string{"microsoft/vscode#299011"}},
		{Client: "Claude.ai", Feature: FeatureAnyForm, Limit: "has no elicitation: every ask is unavailable",
			Sources: []string{"anthropics/claude-ai-mcp#153"}},
		{Client: "Codex CLI", Feature: FeatureURLMode, Limit: "opens URL-mode asks only behind a flag that is off by default",
			Sources: []string{"openai/codex#29344"}},
		{Client: "Codex CLI", Feature: FeatureInteger, Limit: "cannot edit integer fields (on 2026-07-28 it accepts with no content)",
			Sources: []string{"laravel/mcp#190", "openai/codex#41797"}},
		{Client: "Codex CLI", Feature: FeatureNumber, Limit: "cannot edit number fields",
			Sources: []string{"laravel/mcp#190"}},
		{Client: "Codex CLI", Feature: FeatureMulti, Limit: "cannot edit multi-select fields",
			Sources: []string{"laravel/mcp#190"}},
		{Client: "Codex CLI", Feature: FeatureLength, Limit: "does not check minLength or maxLength before sending (the server does)",
			Sources: []string{"laravel/mcp#190"}},
		{Client: "Codex CLI", Feature: FeatureFormat, Limit: "does not check formats before sending (the server does)",
			Sources: []string{"laravel/mcp#190"}},
		{Client: "Codex CLI", Feature: FeatureDefault, Limit: "does not always show defaults",
			Sources: []string{"laravel/mcp#190"}},
		{Client: "Copilot CLI", Feature: FeatureModernEra, Limit: "does not speak 2026-07-28",
			Sources: []string{"github/copilot-cli#4834"}},
		{Client: "Copilot CLI", Feature: FeatureEnum, Limit: "does not select the option it first highlights",
			Sources: []string{"github/copilot-cli#1872"}},
		{Client: "Gemini CLI", Feature: FeatureAnyForm, Limit: "has no elicitation: every ask is unavailable",
			Sources: []string{"google-gemini/gemini-cli#28074", "google-gemini/gemini-cli#22249"}},
		{Client: "Goose", Feature: FeatureModernEra, Limit: "does not speak 2026-07-28",
			Sources: []string{"aaif-goose/goose#11194"}},
		{Client: "MCP Inspector", Feature: FeatureItemCount, Limit: "does not enforce minItems or maxItems (the server does)", Version: "2.12",
			Sources: []string{"observed: MCP Inspector 2.12 web UI"}},
		{Client: "MCP Inspector", Feature: FeatureFormat, Limit: "does not check formats: a date is a plain text box (the server checks)", Version: "2.12",
			Sources: []string{"observed: MCP Inspector 2.12 web UI"}},
		{Client: "VS Code Copilot", Feature: FeatureModernEra, Limit: "does not speak 2026-07-28", Version: "1.132",
			Sources: []string{"microsoft/vscode#329848"}},
		{Client: "VS Code Copilot", Feature: FeatureTitledOptions, Limit: "labels titled options with their value, the title as secondary text",
			Sources: []string{"microsoft/vscode src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts@c8898a2"}},
		{Client: "VS Code Copilot", Feature: FeatureItemCount, Limit: "does not enforce minItems or maxItems (the server does)",
			Sources: []string{"microsoft/vscode src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts@c8898a2"}},
		{Client: "VS Code Copilot", Feature: FeatureFalsyDefault, Limit: "does not pre-select a default of false or 0",
			Sources: []string{"microsoft/vscode src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts@c8898a2"}},
	}
}

// FieldFeature reports whether a form property has the feature f. Only
// features of fields answer true: FeatureAnyForm, FeatureModernEra and
// FeatureURLMode concern every form or none of their fields.
func FieldFeature(p *runtime.Property, f Feature) bool {
	switch f {
	case FeatureInteger:
		return p.Kind == runtime.KindInteger
	case FeatureNumber:
		return p.Kind == runtime.KindNumber
	case FeatureEnum:
		return p.Kind == runtime.KindEnum
	case FeatureTitledOptions:
		return (p.Kind == runtime.KindEnum || p.Kind == runtime.KindMulti) && p.Style == runtime.EnumTitled
	case FeatureMulti:
		return p.Kind == runtime.KindMulti
	case FeatureItemCount:
		return p.Kind == runtime.KindMulti && (p.MinItems != nil || p.MaxItems != nil)
	case FeatureLength:
		return p.MinLength != nil || p.MaxLength != nil
	case FeatureFormat:
		return p.Format != ""
	case FeatureDefault:
		return p.Default != nil
	case FeatureFalsyDefault:
		switch d := p.Default.(type) {
		case bool:
			return !d
		case float64:
			return d == 0
		case int64:
			return d == 0
		case uint64:
			return d == 0
		case int:
			return d == 0
		}
	}
	return false
}

// sourceURL returns the web address of a ClientLimit source, or "" for
// one that has none (an observation).
func sourceURL(src string) string {
	repo, rest, isFile := strings.Cut(src, " ")
	if isFile {
		file, commit, ok := strings.Cut(rest, "@")
		if !ok || strings.Count(repo, "/") != 1 {
			return ""
		}
		return "https://github.com/" + repo + "/blob/" + commit + "/" + file
	}
	repo, num, ok := strings.Cut(src, "#")
	if !ok || strings.Count(repo, "/") != 1 || num == "" {
		return ""
	}
	return "https://github.com/" + repo + "/issues/" + num
}

// sourceLinks writes sources as Markdown links (plain text for those
// without an address), comma-separated.
func sourceLinks(sources []string) string {
	out := make([]string, len(sources))
	for i, s := range sources {
		if u := sourceURL(s); u != "" {
			label := s
			if repo, rest, isFile := strings.Cut(s, " "); isFile {
				label = repo + " " + rest[strings.LastIndex(rest, "/")+1:]
			}
			out[i] = "[" + mdText(label) + "](" + u + ")"
		} else {
			out[i] = mdText(s)
		}
	}
	return strings.Join(out, ", ")
}
