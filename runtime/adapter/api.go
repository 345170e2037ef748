package adapter

import (
	"context"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/core"
)

// BindCall returns the binding of a call to tool with raw JSON arguments
// args, made by principal.
func BindCall(tool string, args []byte, principal string) Binding {
	return core.BindCall(tool, args, principal)
}

// Binding ties a sealed state to the call that produced it.
type Binding = core.Binding

// Call is one tools/call (or prompts/get, resources/read) as an SDK
// adapter received it: enough to pick the era, check the client's
// capabilities and bind sealed state. Adapters fill it; handlers never
// see it.
type Call = core.Call

// CanElicit reports whether a client speaking version can be asked at
// all: elicitation first appeared in 2025-06-18. An empty version (not
// known) is treated as 2025-06-18.
func CanElicit(version string) bool {
	return core.CanElicit(version)
}

// ClientCaps are the elicitation modes a client declared for one request.
type ClientCaps = core.ClientCaps

// CodeInternalError (-32603).
const CodeInternalError = core.CodeInternalError

// CodeInvalidParams (-32602): a tampered, expired or foreign
// requestState, or an answer that does not decode or validate.
const CodeInvalidParams = core.CodeInvalidParams

// CodeMissingRequiredClientCapability (-32021, 2026-07-28): the
// request needs a capability the client did not declare.
const CodeMissingRequiredClientCapability = core.CodeMissingRequiredClientCapability

// CodeURLElicitationRequired (-32042, 2025-11-25 only): the request
// needs URL-mode elicitations first.
const CodeURLElicitationRequired = core.CodeURLElicitationRequired

// DigestArgs returns the SHA-256 of the canonical form of the JSON
// arguments args: object keys sorted, insignificant space removed,
// numbers kept as written. Absent, null and {} arguments are equal.
// Arguments that are not valid JSON are digested as given.
func DigestArgs(args []byte) [32]byte {
	return core.DigestArgs(args)
}

// Exchange is the Asker an adapter hands to one tool handler invocation.
// On a push-era request it asks through Call.Push; on a 2026-07-28
// request it answers from the sealed state and the inputResponses, and
// otherwise records the question and returns *InputRequiredError, which
// the adapter turns into an input_required result (see Reply).
//
// inputRequests keys are Request.Key (set with WithKey) or by default
// the form name (Schema.Name) for a form and "url" for a URL-mode
// request, with "#2", "#3"... for the second and later asks of the same
// key in one invocation: stable and readable.
//
// An Exchange is safe for concurrent use by the handler's goroutines.
type Exchange = core.Exchange

// InvalidStateMessage returns the -32602 message for a requestState that
// failed to open with err, or for err from CheckInputResponses.
func InvalidStateMessage(err error) string {
	return core.InvalidStateMessage(err)
}

// MaxStateSize bounds the length of a requestState the runtime will try
// to open.
const MaxStateSize = core.MaxStateSize

// MaxClockSkew is how far in the future a requestState's issue time may
// lie before it is rejected (runtime.ErrStateNotYetValid).
const MaxClockSkew = core.MaxClockSkew

// MaxInputResponses bounds the number of inputResponses entries the
// runtime looks at in one request; see CheckInputResponses.
const MaxInputResponses = core.MaxInputResponses

// ErrTooManyInputResponses is matched (errors.Is) by the error of a
// request carrying more than MaxInputResponses inputResponses entries.
var ErrTooManyInputResponses = core.ErrTooManyInputResponses

// CheckInputResponses returns an error matching ErrTooManyInputResponses
// when a request carries n > MaxInputResponses inputResponses entries.
// Adapters call it with the map's length before converting any entry,
// and answer the error with JSON-RPC -32602 (message:
// InvalidStateMessage).
func CheckInputResponses(n int) error {
	return core.CheckInputResponses(n)
}

// MetaKeyClientCapabilities is the _meta key under which a 2026-07-28
// request carries the client's capabilities.
const MetaKeyClientCapabilities = core.MetaKeyClientCapabilities

// MetaKeyProtocolVersion is the _meta key under which a 2026-07-28
// request carries its protocol version.
const MetaKeyProtocolVersion = core.MetaKeyProtocolVersion

// MissingCapabilityData returns the data member of the 2026-07-28 -32021
// error for a request that needs elicitation in mode m:
// {"requiredCapabilities":{"elicitation":{"form":{}}}}.
func MissingCapabilityData(m runtime.Mode) map[string]any {
	return core.MissingCapabilityData(m)
}

// MissingCapabilityMessage returns the message of a -32021 error for the
// tool named tool.
func MissingCapabilityMessage(tool string, m runtime.Mode) string {
	return core.MissingCapabilityMessage(tool, m)
}

// Modern reports whether version is 2026-07-28 or later: requests of that
// era are asked by multi round-trip (input_required), never by a pushed
// elicitation/create.
func Modern(version string) bool {
	return core.Modern(version)
}

// NewElicitationID returns a random, unguessable elicitation id.
func NewElicitationID() string {
	return core.NewElicitationID()
}

// NewExchange starts the exchange of one call. On a 2026-07-28 request
// with a requestState it opens the state with s and fails with an error
// matching ErrInvalidState (answer -32602) when it is tampered, expired
// or foreign. s may be nil only for push-era requests.
func NewExchange(s *Sealer, c *Call) (*Exchange, error) {
	return core.NewExchange(s, c)
}

// PageURL adds the query parameter name=value to base (handy to put a
// flow id into a URL-mode page). It returns base unchanged if it does not
// parse.
func PageURL(base, name, value string) string {
	return core.PageURL(base, name, value)
}

// ParseClientCaps reads the elicitation modes from a client capabilities
// object (the JSON of ClientCapabilities: from initialize on 2025-era
// connections, from _meta["io.modelcontextprotocol/clientCapabilities"]
// on 2026-07-28 requests), following the rules of version:
//
//   - no "elicitation" member (or null): nothing;
//   - 2025-06-18: any "elicitation" object means form mode (URL mode does
//     not exist in that version);
//   - 2025-11-25 and later: "form" and "url" members name the modes; an
//     object with neither ({}) means form only.
//
// Unknown members are ignored. capabilities may be JSON ([]byte,
// json.RawMessage, string), a decoded JSON object (map[string]any), nil,
// or any value that marshals to the capabilities object (an SDK type).
func ParseClientCaps(version string, capabilities any) (ClientCaps, error) {
	return core.ParseClientCaps(version, capabilities)
}

// Reply is the decision of Exchange.Reply.
type Reply = core.Reply

// ReplyInputRequired: an input_required result with Reply.Requests
// as inputRequests and Reply.State as requestState (2026-07-28).
const ReplyInputRequired = core.ReplyInputRequired

// ReplyInvalidParams: JSON-RPC -32602 with Reply.Message.
const ReplyInvalidParams = core.ReplyInvalidParams

// ReplyKind says what a tool wrapper must send after the handler ran.
type ReplyKind = core.ReplyKind

// ReplyMissingCapability: JSON-RPC -32021 with Reply.Message and
// Reply.Data (requiredCapabilities), 2026-07-28.
const ReplyMissingCapability = core.ReplyMissingCapability

// ReplyResult: send the handler's own result, or Reply.Err if set.
const ReplyResult = core.ReplyResult

// ReplyToolError: a tool result with isError and Reply.Text.
const ReplyToolError = core.ReplyToolError

// ReplyURLRequired: JSON-RPC -32042 listing Reply.Requests
// (2025-11-25).
const ReplyURLRequired = core.ReplyURLRequired

// RequireURL returns a *URLRequiredError for one page. It checks rawURL
// with CheckURL; flowID is the elicitationId (2025-11-25) and the
// correlation id sealed in requestState (2026-07-28); empty means random.
func RequireURL(message, rawURL, flowID string) error {
	return core.RequireURL(message, rawURL, flowID)
}

// RequiredCapabilities returns the requiredCapabilities object of a
// -32021 error for a request that needs elicitation in mode m:
// {"elicitation":{"form":{}}} or {"elicitation":{"url":{}}}.
func RequiredCapabilities(m runtime.Mode) map[string]any {
	return core.RequiredCapabilities(m)
}

// SchemaVersion returns the version whose requestedSchema encoding suits
// a client speaking version: an unknown (empty) version gets the most
// conservative encoding, 2025-06-18's.
func SchemaVersion(version string) string {
	return core.SchemaVersion(version)
}

// Sealer seals and opens request state. The zero TTL means
// DefaultStateTTL; a nil Now means time.Now. A Sealer is safe for
// concurrent use.
type Sealer = core.Sealer

// State is what rides in requestState between the rounds of one call.
type State = core.State

// Settings are what every SDK adapter's Config holds in common; the
// adapter copies its Config into Settings and leaves sealing, the era
// rules and the choice of reply to it.
type Settings = core.Settings

// InitializeCaps applies the era rules to the elicitation capability a
// client declared in initialize (2025-era connections).
func InitializeCaps(version string, declared, form, url bool) ClientCaps {
	return core.InitializeCaps(version, declared, form, url)
}

// LegacyUnavailable returns why a form cannot be asked of a 2025-06-18
// client, or "" when it can (optional multi-select fields are left out).
func LegacyUnavailable(s *runtime.Schema) string {
	return core.LegacyUnavailable(s)
}

// AnswerElicitation answers one elicitation request with a by its mode:
// a URL-mode request ("url") with a.AnswerURL, any other with a.Answer
// and its requested schema. An adapter's client handler calls it with
// the fields of the SDK's request.
func AnswerElicitation(ctx context.Context, a *runtime.Answerer, mode, message, url string, requestedSchema any) (*runtime.Response, error) {
	return core.AnswerElicitation(ctx, a, mode, message, url, requestedSchema)
}
