package runtime

import (
	"context"
	"time"

	"github.com/elicitgen/elicitgen/runtime/internal/core"
)

// Action is a client's answer to an elicitation.
type Action = core.Action

// ActionAccept: the user submitted the form (or, in URL mode, agreed
// to open the link).
const ActionAccept = core.ActionAccept

// ActionCancel: the user dismissed the request without choosing.
// Asking again later is fine.
const ActionCancel = core.ActionCancel

// ActionDecline: the user explicitly said no. Do not ask again.
const ActionDecline = core.ActionDecline

// AskOption changes one call to Ask.
type AskOption = core.AskOption

// AskURL asks the user to open rawURL (URL mode: secrets, OAuth, payments
// never pass through the client). Only https URLs, or http on a loopback
// host, without embedded credentials, are sent. Accept means the user
// agreed to open the page, not that the out-of-band step finished.
func AskURL(ctx context.Context, a Asker, message, rawURL string, opts ...AskOption) (Action, error) {
	return core.AskURL(ctx, a, message, rawURL, opts...)
}

// AskURLFlow asks the user to open the page that page builds from a flow
// id, for steps that must not pass through the client (secrets, OAuth,
// payments). Unlike AskURL, the flow id is known to the handler and,
// through an adapter's Asker, stable across the rounds of a 2026-07-28
// call, so the page and the tool can correlate the flow. The URL must
// pass CheckURL.
func AskURLFlow(ctx context.Context, a Asker, message string, page func(flowID string) string, opts ...AskOption) (URLOutcome, error) {
	return core.AskURLFlow(ctx, a, message, page, opts...)
}

// AskUserText returns the text of a tool error result for a handler that
// failed with err because the client cannot be asked: it tells the model
// which question could not be asked and exactly which fields to ask the
// user for (name, title, description, type, options, bounds, whether
// required). It returns "" when err does not match ErrUnavailable.
func AskUserText(err error) string {
	return core.AskUserText(err)
}

// Asker sends one elicitation request to the client and returns its answer.
// SDK adapters implement it; elicittest provides a scripted one for tests.
//
// An Asker must return an error (never a zero Response) when the client
// cannot be asked: ErrUnavailable (possibly wrapped in *UnavailableError)
// when the client lacks the capability, *InputRequiredError when a
// 2026-07-28 request must first return input_required to the client.
type Asker = core.Asker

// AskerFunc adapts a function to the Asker interface.
type AskerFunc = core.AskerFunc

// CheckURL enforces the URL-mode rules: absolute https (http only for a
// loopback host), and no user information.
func CheckURL(rawURL string) error {
	return core.CheckURL(rawURL)
}

// DefaultStateTTL is how long a sealed state stays valid when
// Sealer.TTL is zero: long enough for a person to read and fill a form.
const DefaultStateTTL = core.DefaultStateTTL

// EnumLegacy writes "enum" plus "enumNames" (single select only).
const EnumLegacy = core.EnumLegacy

// EnumPlain writes "enum": [...] (single) or "items": {"enum": [...]}.
const EnumPlain = core.EnumPlain

// EnumStyle chooses how enum options are written.
type EnumStyle = core.EnumStyle

// EnumTitled writes "oneOf": [{"const","title"}] (single) or
// "items": {"anyOf": [...]} (multi).
const EnumTitled = core.EnumTitled

// ErrInputRequired is matched by *InputRequiredError: the answer is not
// available yet and the request must return input_required.
var ErrInputRequired = core.ErrInputRequired

// ErrInvalidAction means a client answered with an unknown action.
var ErrInvalidAction = core.ErrInvalidAction

// ErrInvalidContent means an accepted answer did not decode or validate.
var ErrInvalidContent = core.ErrInvalidContent

// ErrInvalidKey means a question's inputRequests key (WithKey) is
// empty, too long or has characters outside [A-Za-z0-9_.:-].
var ErrInvalidKey = core.ErrInvalidKey

// ErrInvalidState is matched (errors.Is) by every error of Sealer.Open:
// the requestState is tampered, expired or foreign and must not be
// trusted.
var ErrInvalidState = core.ErrInvalidState

// ErrMissingOptions means a form with ask-time options was asked
// without supplying them.
var ErrMissingOptions = core.ErrMissingOptions

// ErrStateExpired: the state is older than its TTL.
var ErrStateExpired = core.ErrStateExpired

// ErrStateForeign: the state is authentic but was issued for another
// tool, other arguments or another principal.
var ErrStateForeign = core.ErrStateForeign

// ErrStateTampered: the state is malformed, its MAC does not verify,
// or it names a key the ring does not hold.
var ErrStateTampered = core.ErrStateTampered

// ErrTimeout means the per-ask timeout set with WithTimeout elapsed before
// the user answered. It is never an accept.
var ErrTimeout = core.ErrTimeout

// ErrUnavailable means the client cannot be asked this question: it did
// not declare the elicitation capability, not for this mode, or its
// protocol version cannot express the form. Never read it as consent.
var ErrUnavailable = core.ErrUnavailable

// ErrUnsafeURL is returned for a URL-mode URL that must not be sent.
var ErrUnsafeURL = core.ErrUnsafeURL

// FieldError is one problem with one field of a form.
type FieldError = core.FieldError

// FlowIDer is implemented by Askers that keep the flow id of a URL-mode
// request stable across the rounds of one call (*Exchange does).
type FlowIDer = core.FlowIDer

// InputRequiredError is returned by a 2026-07-28 Asker when the answer is
// not in the request's inputResponses: the tool wrapper turns it into an
// input_required result. Handlers must return it unchanged.
type InputRequiredError = core.InputRequiredError

// Key is one secret of a KeyRing.
type Key = core.Key

// KeyRing holds the keys that seal and open request state. The first key
// seals; every key opens, so keys can rotate: put the new key first and
// keep the old one until states sealed with it have expired. A KeyRing is
// immutable and safe for concurrent use.
type KeyRing = core.KeyRing

// Kind is the shape of one property in a flat requestedSchema.
type Kind = core.Kind

// {"type":"boolean"}
const KindBoolean = core.KindBoolean

// single select: string with enum or oneOf
const KindEnum = core.KindEnum

// {"type":"integer"}
const KindInteger = core.KindInteger

// multi select: array of enum strings
const KindMulti = core.KindMulti

// {"type":"number"}
const KindNumber = core.KindNumber

// {"type":"string"}, also time.Time
const KindString = core.KindString

// LatestVersion is the newest protocol version the runtime speaks.
const LatestVersion = core.LatestVersion

// MaxErrors is the most problems one ValidationError lists; further ones
// are summarized in a last entry.
const MaxErrors = core.MaxErrors

// MaxKeyLen is the maximum length of a key given to WithKey.
const MaxKeyLen = core.MaxKeyLen

// MaxSafeInteger is the largest integer magnitude an answer may carry:
// 2^53-1, the range I-JSON recommends and every JavaScript client can
// represent exactly. Integers beyond it are refused, never rounded.
const MaxSafeInteger = core.MaxSafeInteger

// MinKeySize is the minimum length, in bytes, of a state key.
const MinKeySize = core.MinKeySize

// Mode is the elicitation mode of a request.
type Mode = core.Mode

const ModeForm = core.ModeForm

const ModeURL = core.ModeURL

// NewKeyRing returns a ring whose first key seals. It rejects an empty
// ring, short secrets, bad or duplicate ids.
func NewKeyRing(keys ...Key) (*KeyRing, error) {
	return core.NewKeyRing(keys...)
}

// NewRandomKeyRing returns a ring with one fresh random key. It suits a
// single long-lived server process; states it sealed cannot be opened by
// another process or after a restart.
func NewRandomKeyRing() *KeyRing {
	return core.NewRandomKeyRing()
}

// Option is one choice of an enum property.
type Option = core.Option

// Outcome is the typed result of asking a form T. Value is meaningful only
// when Action is ActionAccept.
type Outcome[T any] = core.Outcome[T]

// ParseKeyRing parses a ring from text such as an environment variable:
// comma-separated "id:secret" pairs, the secret in base64 (standard or
// URL alphabet, padded or not). The first pair seals.
//
//	ELICIT_STATE_KEYS="k2:6Jq...,k1:Zm9v..."
func ParseKeyRing(spec string) (*KeyRing, error) {
	return core.ParseKeyRing(spec)
}

// Property is one field of a form.
type Property = core.Property

// Request is one question, as the runtime hands it to an Asker.
type Request = core.Request

// Response is a client's answer, as an Asker returns it.
type Response = core.Response

// Schema is a flat MCP requestedSchema: an object whose properties are
// primitives, in declaration order.
type Schema = core.Schema

// URLOutcome is the answer to a URL-mode question.
type URLOutcome = core.URLOutcome

// URLRequiredError is returned by a handler that cannot proceed until the
// user completes URL-mode steps out of band (2025-11-25's
// URLElicitationRequiredError). Tool wrappers send it as JSON-RPC -32042
// on 2025-11-25 requests, as an input_required result on 2026-07-28 ones,
// and treat it as unavailable for clients without URL mode.
type URLRequiredError = core.URLRequiredError

// UnavailableAuto answers -32021 with requiredCapabilities on a
// 2026-07-28 request (when the SDK can send it), and a tool error
// telling the model what to ask the user otherwise.
const UnavailableAuto = core.UnavailableAuto

// UnavailableError says why a client cannot be asked, and what the tool
// would have needed. It matches ErrUnavailable with errors.Is.
type UnavailableError = core.UnavailableError

// UnavailableMissingCapability answers -32021 on 2026-07-28 requests
// and returns the handler's error unchanged on older ones.
const UnavailableMissingCapability = core.UnavailableMissingCapability

// UnavailablePassThrough returns the handler's error unchanged.
const UnavailablePassThrough = core.UnavailablePassThrough

// UnavailablePolicy chooses what a tool wrapper does when a handler fails
// because the client cannot be asked (an error matching ErrUnavailable).
type UnavailablePolicy = core.UnavailablePolicy

// UnavailableToolError always answers a tool result with isError set,
// whose text tells the model exactly which fields to ask the user for.
const UnavailableToolError = core.UnavailableToolError

// ValidationError lists every problem found in a form's value or in a
// client's answer. It matches ErrInvalidContent with errors.Is, and
// errors.As finds each *FieldError through Unwrap.
type ValidationError = core.ValidationError

const Version20250618 = core.Version20250618

const Version20251125 = core.Version20251125

const Version20260728 = core.Version20260728

// WithDefault pre-fills field with value for this call (the current
// branch, the last address). The value must satisfy the field's rules.
// Multi-select values are []string.
func WithDefault(field string, value any) AskOption {
	return core.WithDefault(field, value)
}

// WithKey sets the key that names this question in a 2026-07-28
// inputRequests map (and in the sealed requestState), instead of the
// default: the form's Go type name, or "url" for a URL-mode question. A
// second ask with the same key in one call is keyed key#2, a third
// key#3, and so on. A key is 1 to MaxKeyLen characters of
// [A-Za-z0-9_.:-]; a bad one fails the ask, before anything is sent,
// with an error matching ErrInvalidKey. Push-era (2025) questions carry
// no key, so there the option changes nothing.
//
// Changing a question's key between releases drops the answers of calls
// in flight, as renaming the form would.
func WithKey(key string) AskOption {
	return core.WithKey(key)
}

// WithOptions supplies the choices of a field tagged `options`: only these
// are offered, and the answer is checked against them.
func WithOptions(field string, opts ...Option) AskOption {
	return core.WithOptions(field, opts...)
}

// WithTimeout bounds how long this question waits for the user,
// independently of the tool's context. On expiry Ask returns an error
// matching ErrTimeout. Zero means no bound beyond ctx.
func WithTimeout(d time.Duration) AskOption {
	return core.WithTimeout(d)
}
