package receipt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Version is the payload version this package writes and the only one
// Verify accepts.
const Version = 1

// Action is how a question was decided, as a receipt records it.
type Action string

// The actions of a receipt.
const (
	// ActionAccept: the person accepted (after every confirm box was
	// ticked, when the form has one); the handler may act.
	ActionAccept Action = "accept"
	// ActionDecline: the person declined, or accepted with a confirm box
	// left unticked (Confirm is ConfirmUnticked).
	ActionDecline Action = "decline"
	// ActionCancel: the person dismissed the question.
	ActionCancel Action = "cancel"
	// ActionExpired: nobody answered before the question's wait ran out.
	ActionExpired Action = "expired"
	// ActionRefused: a policy refused the answer (an approver not
	// allowed, the requester approving their own request, a quorum not
	// met), whatever the person chose.
	ActionRefused Action = "refused"
)

func (a Action) valid() bool {
	switch a {
	case ActionAccept, ActionDecline, ActionCancel, ActionExpired, ActionRefused:
		return true
	}
	return false
}

// Confirm is the confirm verdict of an answer: whether the boxes of the
// form tagged confirm were ticked.
type Confirm string

// The confirm verdicts.
const (
	// ConfirmNone: the form has no confirm box, or the question was not
	// accepted.
	ConfirmNone Confirm = "none"
	// ConfirmTicked: every confirm box was ticked.
	ConfirmTicked Confirm = "ticked"
	// ConfirmUnticked: an accept left a confirm box unticked, so it was
	// taken as a decline.
	ConfirmUnticked Confirm = "unticked"
)

func (c Confirm) valid() bool {
	return c == ConfirmNone || c == ConfirmTicked || c == ConfirmUnticked
}

// How an approver's identity was established.
const (
	// VerifiedTrustedHeader: the identity came from a header set by an
	// identity-aware proxy the server trusts.
	VerifiedTrustedHeader = "trusted-header"
	// VerifiedPasskey: the approver passed a WebAuthn (passkey) step-up
	// bound to the question.
	VerifiedPasskey = "passkey"
	// VerifiedSession: the answer came through the MCP client of the
	// call, on its authenticated session or token.
	VerifiedSession = "session"
	// VerifiedNone: nothing established who answered (a loopback server
	// without authentication, a page link anyone holding it can open).
	VerifiedNone = "none"
)

// Approver is one person who answered, and how the server knew who they
// were.
type Approver struct {
	// Principal is the approver's identity, as the server knew it.
	Principal string `json:"principal"`
	// Verified says how: VerifiedTrustedHeader, VerifiedPasskey,
	// VerifiedSession or VerifiedNone (or another word of the server's;
	// it must not be empty).
	Verified string `json:"verified"`
	// Action is what this approver chose, when a question had several
	// approvers (a quorum); empty otherwise.
	Action Action `json:"action,omitempty"`
}

// Fields is everything a receipt records about one decided question:
// the input of Log.Append, filled from the runtime's decision. Strings
// that do not apply are empty; a receipt signs them as they are.
type Fields struct {
	// Server identifies the server (or deployment) that decided; it must
	// not be empty.
	Server string `json:"server"`
	// Tool is the tool (or prompt) whose call asked; it must not be empty.
	Tool string `json:"tool"`
	// ArgsDigest is the digest of the call's arguments (DigestJSON of
	// the arguments object): what the approval was about.
	ArgsDigest string `json:"args_digest"`
	// Form is the form's name; empty for a URL-mode question.
	Form string `json:"form"`
	// SchemaDigest identifies the requestedSchema the person saw (the
	// runtime's Event.SchemaDigest).
	SchemaDigest string `json:"schema_digest"`
	// AnswerDigest is the digest of the accepted answer's content
	// (DigestJSON of the content map); empty when nothing was accepted.
	AnswerDigest string `json:"answer_digest"`
	// Action is the decision, after the confirm check; it must be one of
	// the Action constants.
	Action Action `json:"action"`
	// Confirm is the confirm verdict; empty means ConfirmNone.
	Confirm Confirm `json:"confirm"`
	// Reason says why, when the runtime gave one (the policy that
	// refused, "expired").
	Reason string `json:"reason,omitempty"`
	// Approvers are the people who answered, in the order they answered;
	// empty when nobody did (an expiry).
	Approvers []Approver `json:"approvers"`
	// Requester is the principal whose call asked.
	Requester string `json:"requester"`
	// Rendering is how the question reached the person: form, url-page,
	// link (the runtime's Rendering), or url for a URL-mode question.
	Rendering string `json:"rendering"`
	// AskedAt is when the question was first asked; DecidedAt when it
	// was decided (it must not be zero). Both are written in UTC.
	AskedAt   time.Time `json:"asked_at"`
	DecidedAt time.Time `json:"decided_at"`
	// StateID is the question's state id (the sealed requestState's, or
	// the page's), and TaskID the task's, when there is one.
	StateID string `json:"state_id,omitempty"`
	TaskID  string `json:"task_id,omitempty"`
	// CallID correlates the receipt with the call's audit events
	// (runtime.Event.CallID).
	CallID string `json:"call_id,omitempty"`
}

// Payload is what a receipt signs: a version, the receipt's place in its
// log (Seq, Prev) and the Fields. Its JSON is deterministic: the fields
// in this order, times in UTC (RFC 3339), no HTML escaping.
type Payload struct {
	// V is Version.
	V int `json:"v"`
	// Seq numbers the receipts of a log from 1, without gaps.
	Seq uint64 `json:"seq"`
	// Prev is the digest of the receipt before this one in the log
	// (Receipt.Digest); empty for the first.
	Prev string `json:"prev"`
	Fields
}

// errFields is the detail of an ErrFields error.
func errFields(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrFields, fmt.Sprintf(format, args...))
}

// check reports what keeps f from being signed, matching ErrFields.
func (f *Fields) check() error {
	switch {
	case f.Server == "":
		return errFields("Server is empty")
	case f.Tool == "":
		return errFields("Tool is empty")
	case !f.Action.valid():
		return errFields("Action %q is not one of accept, decline, cancel, expired, refused", f.Action)
	case f.Confirm != "" && !f.Confirm.valid():
		return errFields("Confirm %q is not one of none, ticked, unticked", f.Confirm)
	case f.DecidedAt.IsZero():
		return errFields("DecidedAt is zero")
	case badYear(f.DecidedAt) || badYear(f.AskedAt):
		return errFields("a time outside the years 0 to 9999 (RFC 3339)")
	case f.Action == ActionAccept && f.Confirm == ConfirmUnticked:
		return errFields("an accept with a confirm box unticked is a decline")
	}
	for i, a := range f.Approvers {
		if a.Principal == "" || a.Verified == "" {
			return errFields("Approvers[%d] has no principal or no verification", i)
		}
		if a.Action != "" && !a.Action.valid() {
			return errFields("Approvers[%d].Action %q is not an action", i, a.Action)
		}
	}
	if msg := f.refusalShape(); msg != "" {
		return errFields("%s", msg)
	}
	return nil
}

// refusalShape reports what makes a refused receipt readable as an
// approval ("" when nothing does): an answer digest, a ticked confirm
// box, an approver whose own action accepts.
func (f *Fields) refusalShape() string {
	if f.Action != ActionRefused {
		return ""
	}
	switch {
	case f.AnswerDigest != "":
		return "a refused receipt has no answer digest"
	case f.Confirm == ConfirmTicked:
		return "a refused receipt has no ticked confirm box"
	}
	for i, a := range f.Approvers {
		if a.Action == ActionAccept {
			return fmt.Sprintf("a refused receipt has no accepting approver (Approvers[%d])", i)
		}
	}
	return ""
}

// normal returns f as a receipt signs it: times in UTC without monotonic
// readings, an empty Confirm as ConfirmNone, a nil Approvers as an empty
// list, and its own copy of Approvers.
func (f Fields) normal() Fields {
	if f.Confirm == "" {
		f.Confirm = ConfirmNone
	}
	f.Approvers = append([]Approver{}, f.Approvers...)
	if !f.AskedAt.IsZero() {
		f.AskedAt = f.AskedAt.UTC()
	}
	f.DecidedAt = f.DecidedAt.UTC()
	return f
}

// marshal returns p's deterministic JSON.
func (p *Payload) marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Digest returns "sha256:" and the hex SHA-256 of b: the form of every
// digest a receipt holds.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// DigestJSON returns the Digest of v's JSON as encoding/json writes it
// (object keys sorted, no HTML escaping): the same for equal maps
// whatever their order. Use it for Fields.ArgsDigest (the arguments
// object) and Fields.AnswerDigest (the accepted content map).
func DigestJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("receipt: digest: %w", err)
	}
	return Digest(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// The errors of this package; match them with errors.Is.
var (
	// ErrSink: a receipt could not be written; the decision it records
	// must not take effect.
	ErrSink = errors.New("receipt: the receipt could not be written")
	// ErrConflict: a sink's last receipt is not the one the Log chained
	// to (another writer appended); it matches ErrSink too when the Log
	// gives up.
	ErrConflict = errors.New("receipt: the log's last receipt changed")
	// ErrFields: the Fields cannot be signed (a required field empty, an
	// unknown action).
	ErrFields = errors.New("receipt: invalid fields")
	// ErrKey: a key is missing, unreadable or not Ed25519.
	ErrKey = errors.New("receipt: bad key")
	// ErrClosed: the Log or sink was closed.
	ErrClosed = errors.New("receipt: closed")
)

// badYear reports whether t cannot be written in RFC 3339 (its UTC year
// outside 0 to 9999).
func badYear(t time.Time) bool {
	y := t.UTC().Year()
	return y < 0 || y > 9999
}
