package runtime

// Protocol versions whose rules differ for elicitation.
const (
	Version20250618 = "2025-06-18"
	Version20251125 = "2025-11-25"
	Version20260728 = "2026-07-28"
	// LatestVersion is the newest protocol version the runtime speaks.
	LatestVersion = Version20260728
)

// Era is what one protocol version allows an ask, resolved once per
// request: the runtime, the adapters and the schema encoder read these
// methods and never compare version strings themselves.
//
// A version the client did not state (empty) is treated as the oldest
// era that has elicitation, 2025-06-18, whose rules are the most
// conservative; a version older than 2025-06-18 has no elicitation; a
// version newer than the latest the runtime knows follows the latest.
// The zero Era is the unknown version.
type Era struct {
	version string
}

// EraOf returns the era of version.
func EraOf(version string) Era { return Era{version: version} }

// Version returns the version the era was made from ("" when unknown).
func (e Era) Version() string { return e.version }

// rules returns the version whose rules apply.
func (e Era) rules() string {
	if e.version == "" {
		return Version20250618
	}
	return e.version
}

// CanElicit reports whether a client of this era can be asked at all:
// elicitation first appeared in 2025-06-18.
func (e Era) CanElicit() bool { return e.rules() >= Version20250618 }

// MultiRoundTrip reports whether questions are asked by multi round-trip
// (2026-07-28 and later: the tool call returns input_required and the
// client retries with inputResponses), never by a pushed
// elicitation/create.
func (e Era) MultiRoundTrip() bool { return e.rules() >= Version20260728 }

// URLMode reports whether the era has URL-mode elicitation (2025-11-25
// and later).
func (e Era) URLMode() bool { return e.rules() >= Version20251125 }

// URLRequiredError reports whether a handler's URL-mode requirement is
// sent as JSON-RPC -32042 (URLElicitationRequiredError): 2025-11-25
// only; later eras ask it by multi round-trip.
func (e Era) URLRequiredError() bool { return e.URLMode() && !e.MultiRoundTrip() }

// ModeMembers reports whether the client's elicitation capability names
// its modes ("form", "url"; an object with neither means form only):
// 2025-11-25 and later. Before, any elicitation object means form mode.
func (e Era) ModeMembers() bool { return e.URLMode() }

// LegacySchema reports whether requestedSchema is written in the
// 2025-06-18 dialect: titled enums as enum + enumNames, no non-boolean
// defaults, no multi-select.
func (e Era) LegacySchema() bool { return e.rules() < Version20251125 }

// SchemaVersion returns the version whose requestedSchema dialect suits
// the era (2025-06-18 for an unknown version).
func (e Era) SchemaVersion() string { return e.rules() }
