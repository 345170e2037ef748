// Package answer answers elicitations on the client side, typed: a Go
// MCP client (or a test driving a server over a real SDK) answers with an
// Answerer, For per generated form and ForMissing for a tool's missing
// arguments. The SDK adapters turn an Answerer into each client's
// elicitation handler (gosdk.ElicitationHandler,
// mcpgo.ElicitationHandler).
package answer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elicitgen/elicitgen/runtime"
)

// ErrNoForm means a client-side Answerer got an elicitation whose schema
// matches none of its forms.
var ErrNoForm = errors.New("elicit: no form matches the requested schema")

// Form answers the elicitations of one generated form on the
// client side; build it with For, or with ForMissing for the
// missing-arguments form of a tool's arguments struct.
type Form struct {
	schema *runtime.Schema
	subset bool // AnswerMissing: any non-empty subset of the properties matches
	answer func(ctx context.Context, message string, asked *runtime.Schema) (*runtime.Response, error)
}

// For returns the client-side answer of one generated form T:
// elicitations whose requested schema is schema (the generated
// TSchema()) are answered by fn, a typed function that gets the
// server's message and returns what the user did, the same
// runtime.Outcome[*T] the server side's AskT returns. An accepted value is
// turned into content by accept (the generated AcceptT, which refuses an
// invalid value); a declined or cancelled outcome needs no value, and an
// accept without one is an error.
func For[T any](schema *runtime.Schema, accept func(v T) (*runtime.Response, error), fn func(ctx context.Context, message string) (runtime.Outcome[*T], error)) Form {
	return Form{schema: schema, answer: func(ctx context.Context, message string, _ *runtime.Schema) (*runtime.Response, error) {
		return answerOutcome(ctx, schema, accept, fn, message)
	}}
}

// ForMissing returns the client-side answer of the missing-arguments
// form of a tool's arguments struct T (its fields tagged ask): the
// server asks only for what the model left out, so a request matches
// when its properties are some of schema's (the generated TSchema()).
// fn returns the whole value as the user would complete it; accept (the
// generated AcceptT) checks it, and only the asked properties are sent.
// Forms are tried in order: list ForMissing after the For
// answers of forms whose properties are some of T's.
func ForMissing[T any](schema *runtime.Schema, accept func(v T) (*runtime.Response, error), fn func(ctx context.Context, message string) (runtime.Outcome[*T], error)) Form {
	return Form{schema: schema, subset: true, answer: func(ctx context.Context, message string, asked *runtime.Schema) (*runtime.Response, error) {
		resp, err := answerOutcome(ctx, schema, accept, fn, message)
		if err != nil || resp.Action != runtime.ActionAccept {
			return resp, err
		}
		content := make(map[string]any, len(asked.Properties))
		for _, p := range asked.Properties {
			if v, ok := resp.Content[p.Name]; ok {
				content[p.Name] = v
			}
		}
		return &runtime.Response{Action: runtime.ActionAccept, Content: content}, nil
	}}
}

// answerOutcome turns fn's outcome into a response.
func answerOutcome[T any](ctx context.Context, schema *runtime.Schema, accept func(v T) (*runtime.Response, error), fn func(ctx context.Context, message string) (runtime.Outcome[*T], error), message string) (*runtime.Response, error) {
	out, err := fn(ctx, message)
	if err != nil {
		return nil, err
	}
	switch out.Action {
	case runtime.ActionAccept:
		if out.Value == nil {
			name := ""
			if schema != nil {
				name = schema.Name
			}
			return nil, fmt.Errorf("elicit: answer to form %s: accept with a nil Value", name)
		}
		return accept(*out.Value)
	case runtime.ActionDecline, runtime.ActionCancel:
		return &runtime.Response{Action: out.Action}, nil
	}
	return nil, fmt.Errorf("%w %q", runtime.ErrInvalidAction, out.Action)
}

// Answerer answers the elicitations a Go MCP client receives, pushed
// (elicitation/create) or inside a 2026-07-28 input_required result
// (the SDK clients then retry with the answers as inputResponses), by
// matching each request's schema to one of its forms. The SDK adapters
// turn it into each client's elicitation handler (gosdk.ElicitationHandler,
// mcpgo.ElicitationHandler). The zero value answers nothing.
type Answerer struct {
	forms []Form
	// URL answers URL-mode requests (the user opens url and returns the
	// action); nil declines them.
	URL func(ctx context.Context, message, url string) (runtime.Action, error)
	// Other answers form requests that match no form; nil fails them
	// with ErrNoForm.
	Other func(ctx context.Context, message string, requestedSchema map[string]any) (*runtime.Response, error)
}

// New returns an Answerer for forms, tried in order.
func New(forms ...Form) *Answerer {
	return &Answerer{forms: forms}
}

// AnswerURL answers a URL-mode request.
func (a *Answerer) AnswerURL(ctx context.Context, message, url string) (*runtime.Response, error) {
	if a.URL == nil {
		return &runtime.Response{Action: runtime.ActionDecline}, nil
	}
	act, err := a.URL(ctx, message, url)
	if err != nil {
		return nil, err
	}
	return &runtime.Response{Action: act}, nil
}

// Elicitation answers one elicitation request with a by its mode:
// a URL-mode request (runtime.ModeURL) with a.AnswerURL, any other with a.Answer
// and its requested schema. The SDK adapters' client handlers call it.
func Elicitation(ctx context.Context, a *Answerer, mode, message, url string, requestedSchema any) (*runtime.Response, error) {
	if runtime.Mode(mode) == runtime.ModeURL {
		return a.AnswerURL(ctx, message, url)
	}
	return a.Answer(ctx, message, requestedSchema)
}

// Answer answers a form-mode request: message and requestedSchema as the
// server sent them (JSON as []byte, json.RawMessage or string, a decoded
// map[string]any, or an SDK value that marshals to the schema object).
// A form matches when the request's properties are the form's, with the
// same JSON types; a 2025-06-18 request may leave out the form's optional
// multi-select fields, and asks a required one as one boolean per option
// (runtime.LegacyOptionKey): the form's function answers the list, and
// the Answerer sends each option's checkbox, ticked when the list holds
// it (an accepted value the request does not offer is an error).
func (a *Answerer) Answer(ctx context.Context, message string, requestedSchema any) (*runtime.Response, error) {
	raw, err := schemaJSON(requestedSchema)
	if err != nil {
		return nil, err
	}
	got, perr := runtime.ParseSchema("", raw)
	if perr == nil {
		for _, f := range a.forms {
			if f.schema == nil {
				continue
			}
			// A 2025-06-18 request asks a multi-select as one checkbox
			// per option: read as the form's own field, answered as the
			// checkboxes.
			asked, legacy := foldLegacy(f.schema, got)
			if f.subset && matchSubset(f.schema, asked) || !f.subset && matchSchema(f.schema, asked) {
				resp, err := f.answer(ctx, message, asked)
				if err != nil || len(legacy) == 0 {
					return resp, err
				}
				return expandLegacy(f.schema.Name, resp, legacy)
			}
		}
	}
	if a.Other != nil {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("elicit: requested schema: %w", err)
		}
		return a.Other(ctx, message, m)
	}
	if perr != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoForm, perr)
	}
	names := make([]string, len(got.Properties))
	for i := range got.Properties {
		names[i] = got.Properties[i].Name
	}
	return nil, fmt.Errorf("%w (properties %v)", ErrNoForm, names)
}

// schemaJSON returns the JSON of a requested schema given as JSON or as a
// value that marshals to it.
func schemaJSON(v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return []byte(`{"type":"object","properties":{}}`), nil
	case []byte:
		return v, nil
	case json.RawMessage:
		return v, nil
	case string:
		return []byte(v), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("elicit: requested schema: %w", err)
	}
	return b, nil
}

// matchSchema reports whether the requested properties (read with
// runtime.ParseSchema) are those of s, with the same JSON types; a 2025-06-18
// request may leave out s's optional multi-selects.
func matchSchema(s, got *runtime.Schema) bool {
	n := 0
	for i := range s.Properties {
		p := &s.Properties[i]
		q := got.Property(p.Name)
		if q == nil {
			if p.Kind == runtime.KindMulti && !p.Required {
				continue // left out for a 2025-06-18 client
			}
			return false
		}
		n++
		want, have := p.Kind.JSONType(), q.Kind.JSONType()
		if have != want && !(want == "number" && have == "integer") {
			return false
		}
	}
	return n == len(got.Properties)
}

// matchSubset reports whether the requested properties are some (one
// or more) of s's, each with the same JSON type.
func matchSubset(s, got *runtime.Schema) bool {
	if len(got.Properties) == 0 {
		return false
	}
	for i := range got.Properties {
		q := &got.Properties[i]
		p := s.Property(q.Name)
		if p == nil {
			return false
		}
		want, have := p.Kind.JSONType(), q.Kind.JSONType()
		if have != want && !(want == "number" && have == "integer") {
			return false
		}
	}
	return true
}

// legacyField is a multi-select of a form that a 2025-06-18 request asks
// as one boolean per option.
type legacyField struct {
	name   string
	values []string // the options asked, in the request's order
}

// foldLegacy returns got with the checkboxes of each multi-select of s
// that got asks as one boolean per option (runtime.LegacyOptionKey)
// replaced by that multi-select, and those fields; got itself when there
// are none. A checkbox of a field whose options s fixes must name one of
// them; a field with options given at ask time (Dynamic) takes any.
func foldLegacy(s, got *runtime.Schema) (*runtime.Schema, []legacyField) {
	var fields []legacyField
	at := map[string]int{} // checkbox name -> index in fields
	for i := range s.Properties {
		p := &s.Properties[i]
		if p.Kind != runtime.KindMulti || got.Property(p.Name) != nil {
			continue
		}
		f := legacyField{name: p.Name}
		for j := range got.Properties {
			q := &got.Properties[j]
			v, ok := strings.CutPrefix(q.Name, p.Name+".")
			if !ok || q.Kind != runtime.KindBoolean || s.Property(q.Name) != nil || q.Name != runtime.LegacyOptionKey(p.Name, v) {
				continue
			}
			if !p.Dynamic && len(p.Options) > 0 && !slices.ContainsFunc(p.Options, func(o runtime.Option) bool { return o.Value == v }) {
				continue
			}
			if _, dup := at[q.Name]; dup {
				continue // a longer field name claimed it
			}
			at[q.Name] = len(fields)
			f.values = append(f.values, v)
		}
		if len(f.values) > 0 {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		return got, nil
	}
	out := &runtime.Schema{Name: got.Name, Properties: make([]runtime.Property, 0, len(got.Properties))}
	placed := map[int]bool{}
	for j := range got.Properties {
		q := &got.Properties[j]
		i, ok := at[q.Name]
		if !ok {
			out.Properties = append(out.Properties, *q)
			continue
		}
		if !placed[i] {
			placed[i] = true
			out.Properties = append(out.Properties, *s.Property(fields[i].name))
		}
	}
	return out, fields
}

// expandLegacy turns the lists of the fields of an accepted answer into
// their checkboxes.
func expandLegacy(form string, resp *runtime.Response, fields []legacyField) (*runtime.Response, error) {
	if resp == nil || resp.Action != runtime.ActionAccept || resp.Content == nil {
		return resp, nil
	}
	content := make(map[string]any, len(resp.Content))
	for k, v := range resp.Content {
		content[k] = v
	}
	for _, f := range fields {
		v, ok := content[f.name]
		if !ok {
			continue
		}
		delete(content, f.name)
		chosen, err := stringList(v)
		if err != nil {
			return nil, fmt.Errorf("elicit: answer to form %s: %s: %w", form, f.name, err)
		}
		for _, c := range chosen {
			if !slices.Contains(f.values, c) {
				return nil, fmt.Errorf("elicit: answer to form %s: %s: %q is not among the options the 2025-06-18 request asks (%s)", form, f.name, c, strings.Join(f.values, ", "))
			}
		}
		for _, o := range f.values {
			content[runtime.LegacyOptionKey(f.name, o)] = slices.Contains(chosen, o)
		}
	}
	return &runtime.Response{Action: resp.Action, Content: content}, nil
}

// stringList reads a multi-select's value as an accept's content holds
// it.
func stringList(v any) ([]string, error) {
	switch v := v.(type) {
	case []string:
		return v, nil
	case []any:
		out := make([]string, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("item %d is a %T, not a string", i, e)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %T, not a list of strings", v)
}
