package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrNoForm means a client-side Answerer got an elicitation whose schema
// matches none of its forms.
var ErrNoForm = errors.New("elicit: no form matches the requested schema")

// FormAnswer answers the elicitations of one generated form on the
// client side; build it with AnswerForm, or with AnswerMissing for the
// missing-arguments form of a tool's arguments struct.
type FormAnswer struct {
	schema *Schema
	subset bool // AnswerMissing: any non-empty subset of the properties matches
	answer func(ctx context.Context, message string, asked *Schema) (*Response, error)
}

// AnswerForm returns the client-side answer of one generated form T:
// elicitations whose requested schema is schema (the generated
// TSchema()) are answered by fn, a typed function that gets the
// server's message and returns what the user did, the same
// Outcome[*T] the server side's AskT returns. An accepted value is
// turned into content by accept (the generated AcceptT, which refuses an
// invalid value); a declined or cancelled outcome needs no value, and an
// accept without one is an error.
func AnswerForm[T any](schema *Schema, accept func(v T) (*Response, error), fn func(ctx context.Context, message string) (Outcome[*T], error)) FormAnswer {
	return FormAnswer{schema: schema, answer: func(ctx context.Context, message string, _ *Schema) (*Response, error) {
		return answerOutcome(ctx, schema, accept, fn, message)
	}}
}

// AnswerMissing returns the client-side answer of the missing-arguments
// form of a tool's arguments struct T (its fields tagged ask): the
// server asks only for what the model left out, so a request matches
// when its properties are some of schema's (the generated TSchema()).
// fn returns the whole value as the user would complete it; accept (the
// generated AcceptT) checks it, and only the asked properties are sent.
// Forms are tried in order: list AnswerMissing after the AnswerForm
// answers of forms whose properties are some of T's.
func AnswerMissing[T any](schema *Schema, accept func(v T) (*Response, error), fn func(ctx context.Context, message string) (Outcome[*T], error)) FormAnswer {
	return FormAnswer{schema: schema, subset: true, answer: func(ctx context.Context, message string, asked *Schema) (*Response, error) {
		resp, err := answerOutcome(ctx, schema, accept, fn, message)
		if err != nil || resp.Action != ActionAccept {
			return resp, err
		}
		content := make(map[string]any, len(asked.Properties))
		for _, p := range asked.Properties {
			if v, ok := resp.Content[p.Name]; ok {
				content[p.Name] = v
			}
		}
		return &Response{Action: ActionAccept, Content: content}, nil
	}}
}

// answerOutcome turns fn's outcome into a response.
func answerOutcome[T any](ctx context.Context, schema *Schema, accept func(v T) (*Response, error), fn func(ctx context.Context, message string) (Outcome[*T], error), message string) (*Response, error) {
	out, err := fn(ctx, message)
	if err != nil {
		return nil, err
	}
	switch out.Action {
	case ActionAccept:
		if out.Value == nil {
			name := ""
			if schema != nil {
				name = schema.Name
			}
			return nil, fmt.Errorf("elicit: answer to form %s: accept with a nil Value", name)
		}
		return accept(*out.Value)
	case ActionDecline, ActionCancel:
		return &Response{Action: out.Action}, nil
	}
	return nil, fmt.Errorf("%w %q", ErrInvalidAction, out.Action)
}

// Answerer answers the elicitations a Go MCP client receives, pushed
// (elicitation/create) or inside a 2026-07-28 input_required result
// (the SDK clients then retry with the answers as inputResponses), by
// matching each request's schema to one of its forms. The SDK adapters
// turn it into each client's elicitation handler (gosdk.ElicitationHandler,
// mcpgo.ElicitationHandler). The zero value answers nothing.
type Answerer struct {
	forms []FormAnswer
	// URL answers URL-mode requests (the user opens url and returns the
	// action); nil declines them.
	URL func(ctx context.Context, message, url string) (Action, error)
	// Other answers form requests that match no form; nil fails them
	// with ErrNoForm.
	Other func(ctx context.Context, message string, requestedSchema map[string]any) (*Response, error)
}

// NewAnswerer returns an Answerer for forms, tried in order.
func NewAnswerer(forms ...FormAnswer) *Answerer {
	return &Answerer{forms: forms}
}

// AnswerURL answers a URL-mode request.
func (a *Answerer) AnswerURL(ctx context.Context, message, url string) (*Response, error) {
	if a.URL == nil {
		return &Response{Action: ActionDecline}, nil
	}
	act, err := a.URL(ctx, message, url)
	if err != nil {
		return nil, err
	}
	return &Response{Action: act}, nil
}

// AnswerElicitation answers one elicitation request with a by its mode:
// a URL-mode request (ModeURL) with a.AnswerURL, any other with a.Answer
// and its requested schema. The SDK adapters' client handlers call it.
func AnswerElicitation(ctx context.Context, a *Answerer, mode, message, url string, requestedSchema any) (*Response, error) {
	if Mode(mode) == ModeURL {
		return a.AnswerURL(ctx, message, url)
	}
	return a.Answer(ctx, message, requestedSchema)
}

// Answer answers a form-mode request: message and requestedSchema as the
// server sent them (JSON as []byte, json.RawMessage or string, a decoded
// map[string]any, or an SDK value that marshals to the schema object).
// A form matches when the request's properties are the form's, with the
// same JSON types; a 2025-06-18 request may leave out the form's optional
// multi-select fields.
func (a *Answerer) Answer(ctx context.Context, message string, requestedSchema any) (*Response, error) {
	raw, err := schemaJSON(requestedSchema)
	if err != nil {
		return nil, err
	}
	got, perr := ParseSchema("", raw)
	if perr == nil {
		for _, f := range a.forms {
			if f.schema != nil && (f.subset && matchSubset(f.schema, got) || !f.subset && matchSchema(f.schema, got)) {
				return f.answer(ctx, message, got)
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
// ParseSchema) are those of s, with the same JSON types; a 2025-06-18
// request may leave out s's optional multi-selects.
func matchSchema(s, got *Schema) bool {
	n := 0
	for i := range s.Properties {
		p := &s.Properties[i]
		q := got.Property(p.Name)
		if q == nil {
			if p.Kind == KindMulti && !p.Required {
				continue // left out for a 2025-06-18 client
			}
			return false
		}
		n++
		want, have := p.Kind.jsonType(), q.Kind.jsonType()
		if have != want && !(want == "number" && have == "integer") {
			return false
		}
	}
	return n == len(got.Properties)
}

// matchSubset reports whether the requested properties are some (one
// or more) of s's, each with the same JSON type.
func matchSubset(s, got *Schema) bool {
	if len(got.Properties) == 0 {
		return false
	}
	for i := range got.Properties {
		q := &got.Properties[i]
		p := s.Property(q.Name)
		if p == nil {
			return false
		}
		want, have := p.Kind.jsonType(), q.Kind.jsonType()
		if have != want && !(want == "number" && have == "integer") {
			return false
		}
	}
	return true
}

// jsonType is the JSON Schema type a property of kind k is written with.
func (k Kind) jsonType() string {
	switch k {
	case KindInteger:
		return "integer"
	case KindNumber:
		return "number"
	case KindBoolean:
		return "boolean"
	case KindMulti:
		return "array"
	}
	return "string"
}
