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

// ErrStateTampered: the state is malformed, does not authenticate, or
// names a key the ring does not hold.
var ErrStateTampered = core.ErrStateTampered

// ErrStateNotYetValid: the state's issue time lies further in the future
// than the allowed clock skew (one minute).
var ErrStateNotYetValid = core.ErrStateNotYetValid

// ErrStateOutdated: the state was sealed in the signed, unencrypted
// format of earlier releases, which is no longer accepted; the client
// must start the call again.
var ErrStateOutdated = core.ErrStateOutdated

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

// AskConfirm asks a yes/no question without a form struct: one required
// boolean field, ConfirmField, titled "Confirm" (WithTitle changes it),
// unticked unless WithDefault(ConfirmField, true). It takes WithKey,
// WithTimeout, WithDefault, WithTitle and WithRetries, works on every
// protocol era, and validates the answer as a generated form would.
func AskConfirm(ctx context.Context, a Asker, message string, opts ...AskOption) (Outcome[bool], error) {
	return core.AskConfirm(ctx, a, message, opts...)
}

// AskText asks for a line of text: one required string field, TextField,
// titled "Your answer" (WithTitle changes it; WithDefault pre-fills it).
func AskText(ctx context.Context, a Asker, message string, opts ...AskOption) (Outcome[string], error) {
	return core.AskText(ctx, a, message, opts...)
}

// AskChoice asks the user to pick one of options: one required
// single-select field, ChoiceField, titled "Your choice". An answer
// outside options is never accepted. Options need distinct values; their
// titles, when given, are what the user sees.
func AskChoice(ctx context.Context, a Asker, message string, options []Option, opts ...AskOption) (Outcome[string], error) {
	return core.AskChoice(ctx, a, message, options, opts...)
}

// AskChoices asks the user to pick any of options: one required
// multi-select field, ChoicesField, titled "Your choices" (an empty
// selection is a valid answer). Every item of an accepted answer is one
// of options, none repeated. A 2025-06-18 client, which has no
// multi-select, is asked with one checkbox per option instead.
func AskChoices(ctx context.Context, a Asker, message string, options []Option, opts ...AskOption) (Outcome[[]string], error) {
	return core.AskChoices(ctx, a, message, options, opts...)
}

// ConfirmField is AskConfirm's boolean property.
const ConfirmField = core.ConfirmField

// TextField is AskText's string property.
const TextField = core.TextField

// ChoiceField is AskChoice's single-select property.
const ChoiceField = core.ChoiceField

// ChoicesField is AskChoices' multi-select property.
const ChoicesField = core.ChoicesField

// WithTitle sets the title of a quick ask's field (AskConfirm, AskText,
// AskChoice, AskChoices), the label a client shows beside the input. It
// does not change generated forms, whose titles come from the struct.
func WithTitle(title string) AskOption {
	return core.WithTitle(title)
}

// WithRetries asks again, up to n more times, when the user's answer is
// invalid, adding what was wrong to the message. On 2025-era connections
// each retry is another elicitation/create; on 2026-07-28 it is another
// input_required round for the same inputRequests key. When the retries
// are used up, the ask fails with the last validation error.
func WithRetries(n int) AskOption {
	return core.WithRetries(n)
}

// CanAsk reports, before anything is asked, whether the client can
// answer every form in schemas (the generated TSchema() functions), so
// that a tool asking several forms never has the user fill the first
// only to find the second cannot be asked. It returns nil or the
// *UnavailableError (matching ErrUnavailable) the first form that cannot
// be asked would fail with; return it from the handler as you would a
// failed ask. With an Asker that cannot tell (not a Checker), it
// returns nil.
func CanAsk(ctx context.Context, a Asker, schemas ...*Schema) error {
	return core.CanAsk(ctx, a, schemas...)
}

// Checker is implemented by Askers that can tell, before asking, whether
// the client can answer a request (the SDK adapters' Askers do).
type Checker = core.Checker

// ProtocolVersioner is implemented by Askers that know the protocol
// version of the client they ask (the SDK adapters' Askers do).
type ProtocolVersioner = core.ProtocolVersioner

// AskError is an ask that failed: the Asker could not get an answer or
// the answer did not validate. It wraps the cause.
type AskError = core.AskError

// TimeoutError is an ask that timed out (WithTimeout). It matches
// ErrTimeout.
type TimeoutError = core.TimeoutError

// ErrMalformedInput is matched by a 2026-07-28 answer that is not an
// elicitation result at all: a protocol error (JSON-RPC -32602), never
// asked again.
var ErrMalformedInput = core.ErrMalformedInput

// AskErrorPolicy chooses what an SDK adapter's tool wrapper does when an
// ask fails for a reason that is not a protocol error (timeout, invalid
// answer, client failure).
type AskErrorPolicy = core.AskErrorPolicy

// AskErrorsToolError (the default) answers a tool result with isError
// whose text says what happened and what to do next (AskFailureText).
const AskErrorsToolError = core.AskErrorsToolError

// AskErrorsJSONRPC answers a JSON-RPC error instead: -32602 for an
// invalid answer, the handler's error otherwise.
const AskErrorsJSONRPC = core.AskErrorsJSONRPC

// AskFailureText returns the text of a tool error result for a handler
// that failed because an ask failed, saying what happened and what to do
// next; "" for protocol errors and errors that are not ask failures.
func AskFailureText(err error) string {
	return core.AskFailureText(err)
}

// ErrNoForm means a client-side Answerer got an elicitation whose schema
// matches none of its forms.
var ErrNoForm = core.ErrNoForm

// FormAnswer answers the elicitations of one generated form on the
// client side; build it with AnswerForm.
type FormAnswer = core.FormAnswer

// AnswerForm returns the client-side answer of one generated form T, for
// Go MCP clients and end-to-end tests: elicitations whose requested
// schema is schema (the generated TSchema()) are answered by fn, a typed
// function that gets the server's message and returns what the user
// did. An accepted value becomes content through accept (the generated
// AcceptT, which refuses an invalid value).
func AnswerForm[T any](schema *Schema, accept func(v T) (*Response, error), fn func(ctx context.Context, message string) (Outcome[T], error)) FormAnswer {
	return core.AnswerForm(schema, accept, fn)
}

// Answerer answers the elicitations a Go MCP client receives, pushed or
// inside a 2026-07-28 input_required result, by matching each request's
// schema to one of its forms. The SDK adapters turn it into each
// client's elicitation handler.
type Answerer = core.Answerer

// NewAnswerer returns an Answerer for forms, tried in order.
func NewAnswerer(forms ...FormAnswer) *Answerer {
	return core.NewAnswerer(forms...)
}

// WithLocale asks this question in the language tag names, a BCP 47
// language tag ("ja-JP") or a whole Accept-Language list ("fr-CH,
// ja;q=0.8"). Tags match case-insensitively, and a tag without a catalog
// falls back by dropping its last subtag (ja-JP -> ja) and then to the
// form's source text, as RFC 4647 lookup does. It overrides the language
// the adapter took from the request; WithLocale("") asks in the source
// text. Only titles, descriptions and option titles change: option values
// and every validation rule stay the same, so an answer validates
// identically in every language. The quick asks (AskConfirm, AskText,
// AskChoice, AskChoices) have no catalog: their default field titles
// come translated into German, Spanish, French, Japanese and Korean (de,
// es, fr, ja, ko); the message and options are the caller's words.
func WithLocale(tag string) AskOption {
	return core.WithLocale(tag)
}

// LanguagePreferrer is implemented by Askers that know the user's
// language preference for the current request (an adapter's Asker does:
// see the adapters' Config.Locale).
type LanguagePreferrer = core.LanguagePreferrer

// LanguagePreference returns the language preference a carries for the
// current request ("" when none), for handlers that translate their own
// messages; see MatchLanguage.
func LanguagePreference(a Asker) string {
	return core.LanguagePreference(a)
}

// MatchLanguage returns the entry of have that best serves pref (a tag or
// an Accept-Language list), "" when none does. Ranges are tried in order
// of their q-values (q=0 excludes), each by RFC 4647 lookup: compared
// case-insensitively, then truncated one subtag at a time (zh-Hant-TW,
// zh-Hant, zh). A "*" range matches nothing here: it accepts whatever
// the caller falls back to.
func MatchLanguage(pref string, have ...string) string {
	return core.MatchLanguage(pref, have...)
}

// MetaKeyAcceptLanguage is the params._meta key under which a request
// carries the user's language preference, in the syntax of the HTTP
// Accept-Language header ("ja-JP, en;q=0.5"), as proposed by SEP-2792
// "Per-Request User Language Preference"
// (https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2792).
// The preference belongs to the one request: servers must not keep it as
// session state.
const MetaKeyAcceptLanguage = core.MetaKeyAcceptLanguage

// MetaKeyContentLanguage is the _meta key under which, as SEP-2792
// proposes, a server reports the language its text is actually in (the
// syntax of the HTTP Content-Language header). The adapters put it in
// the params of each question asked in a negotiated language
// (Request.Language) and, on 2026-07-28, in the input_required result
// whose questions share one.
const MetaKeyContentLanguage = core.MetaKeyContentLanguage
