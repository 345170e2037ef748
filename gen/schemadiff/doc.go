// Package schemadiff classifies the changes between two elicitgen schema files
// (elicit_gen.json) as breaking or compatible. It backs `elicitgen diff`.
//
// A schema file is a JSON object keyed by form name; each value is the flat
// MCP requestedSchema of that form as sent to a 2025-11-25 client. Compare
// and CompareFiles parse both files, rejecting anything that is not such a
// file with an error that wraps ErrInvalidSchema, and return a Report.
// ReadAtRevision reads a schema file from a git revision. A Report is
// written as text, JSON, Markdown or GitHub Actions annotations
// (Report.Write); Report.Allow acknowledges the breaking changes an allow
// file lists (ParseAllow), and Report.Locate places each change at a file
// and line.
//
// # Server-side rules
//
// Some rules decide whether an answer is accepted but are never sent to
// clients. The schema file records them as extension keys, which a JSON
// Schema reader ignores and which never appear in a requestedSchema on the
// wire:
//
//	key                          where     holds
//	"x-elicitgen-version"        file      the format version (2; absent: 1, no rules recorded)
//	"x-elicitgen-pattern"        property  the pattern= (RE2) a string answer must match
//	"x-elicitgen-patternMessage" property  the pattern's words (patternMessage=)
//	"x-elicitgen-confirm"        property  true: the box that approves (confirm)
//	"x-elicitgen-ask"            property  true: a tool argument asked when the model leaves it out
//	"x-elicitgen-check"          form      true: the form has a CheckElicit method
//	"x-elicitgen-options"        form      the fields whose choices are supplied when asking
//
// A file of a newer format than FormatVersion is an error at the version's
// position. Rules are compared only when both files record them (format 2).
//
// # What breaking means
//
// What crosses the wire is an answer: the content of an accepted elicitation,
// a flat object of property values. Answers shaped by the old schema outlive
// it: clients, Go callers of AcceptT and test kits built against the old
// schema, forms already on screen, and multi round-trip requests in flight
// still produce them after the server is upgraded, and the server validates
// every answer (unknown keys rejected). A change is therefore breaking when
// some answer valid under the old schema is rejected by, or no longer
// understood by, a server built on the new schema. It is compatible when
// every old answer is still valid and means the same; display-only changes
// (titles, descriptions, order, defaults) are compatible.
//
// # Ask-time options
//
// A field tagged `options` gets its choices when asking
// (runtime.WithOptions). The schema file lists such fields under the
// form-level keyword "x-elicitgen-options" ({"properties": ..., "required":
// ...}, each property without choices), not in "properties", so that every
// form stays a requestedSchema a client could be sent. schemadiff reads them
// as properties of the form (after the fixed ones, in file order) and
// compares them like any other property, except their choices, which the
// file does not hold.
//
// # Rules
//
//	kind                     breaking  when (old -> new)
//	form-removed             yes       a form is gone
//	property-removed         yes       a property is gone (a rename is removed + added)
//	property-added-required  yes       a new property is required
//	type-changed             yes       the JSON type changed, except integer -> number
//	made-required            yes       an optional property became required
//	enum-value-removed       yes       a single- or multi-select value is gone
//	enum-constraint-added    yes       a free string became a single-select
//	bound-tightened          yes       minimum added or raised, maximum added or lowered
//	length-tightened         yes       minLength added or raised, maxLength added or lowered
//	format-added             yes       a string gained a format
//	format-changed           yes       a string's format changed
//	min-items-raised         yes       minItems added or raised
//	max-items-lowered        yes       maxItems added or lowered
//	options-source-changed   yes       a field's choices moved between the schema
//	                                   and ask time (the `options` tag)
//	pattern-added            yes       a string gained a pattern=
//	pattern-changed          yes       a pattern= changed (the report names an answer
//	                                   valid before that it now refuses, when it finds one)
//	confirm-added            yes       a box became the approval: an unticked accept is
//	                                   now a decline
//	ask-added                yes       a tool argument is now asked of a person when
//	                                   the model leaves it out
//	check-added              yes       the form gained a CheckElicit method
//	form-added               no        a new form
//	property-added-optional  no        a new optional property
//	property-moved           no        a kept property changed place (declaration order)
//	type-widened             no        integer -> number: every integer is a number
//	made-optional            no        a required property became optional
//	enum-value-added         no        a new single- or multi-select value
//	enum-constraint-removed  no        a single-select became a free string
//	enum-title-changed       no        a value's title added, removed or changed
//	enum-order-changed       no        values reordered
//	enum-style-changed       no        enum / oneOf / enum+enumNames, items.enum / items.anyOf
//	bound-loosened           no        minimum lowered or removed, maximum raised or removed
//	length-loosened          no        minLength lowered or removed, maxLength raised or removed
//	format-removed           no        a string lost its format
//	min-items-lowered        no        minItems lowered or removed
//	max-items-raised         no        maxItems raised or removed
//	title-changed            no        title added, removed or changed
//	description-changed      no        description added, removed or changed
//	default-changed          no        default added, removed or changed
//	keyword-changed          no        a keyword outside the requestedSchema subset
//	                                   (e.g. "x-vendor"), or "$schema",
//	                                   added, removed or changed
//	pattern-removed          no        a pattern= removed
//	pattern-message-changed  no        the pattern's words added, removed or changed
//	confirm-removed          no        confirm removed (the report says the handler
//	                                   must now read the box itself)
//	ask-removed              no        a tool argument is no longer asked
//	check-removed            no        the CheckElicit method removed
//
// Comparisons are semantic: an absent minLength or minItems equals 0, numbers
// compare by value (1 equals 1.0), and whitespace and key order inside a
// property do not matter. A property whose type changed reports only
// type-changed (plus title and description changes): its other keywords have
// no common meaning across types. A removed property is breaking even when it
// was optional, since an old client may still send it.
//
// # Order
//
// Changes are sorted by form name, then by property position (the new
// schema's declaration order, with removed properties where they stood in the
// old schema; form-level changes first), then by kind, then by the order the
// schemas list values in. Every format's output is deterministic.
package schemadiff
