package page

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// This file admits the people who may answer a page (runtime.Approvers)
// and counts the distinct approvals of a quorum.
//
// A quorum is kept in the Store with its single-use Put alone, so that
// every Store (memory, Redis) serves it unchanged: each approver who
// answers puts a marker record named by the page and a digest of who they
// are (a second answer by the same person finds it and is refused), and
// each approval before the last puts the next of the page's Quorum-1 slot
// records; the approval that finds every slot taken answers the page
// itself. A decline answers the page at once: one decline ends it.

// admit is the one check of who may see and answer the page of q: the
// question's approver policy (runtime.Approvers.Admit, groups through
// Config.Member), or, without one, the call's principal only.
func (p *Pages) admit(ctx context.Context, q *question, who string) error {
	return q.Approvers.Admit(ctx, q.Principal, who, p.cfg.Member)
}

// Admit reports whether approver may answer the page id, by the same
// check the page applies (runtime.Approvers.Admit): nil when allowed, an
// error matching runtime.ErrNotApprover when not, ErrNotFound when there
// is no such page.
func (p *Pages) Admit(ctx context.Context, id, approver string) error {
	e, err := p.store.Get(ctx, id)
	if err != nil {
		return storeErr("admit", err)
	}
	q, err := decodeQuestion(e.Question)
	if err != nil {
		return err
	}
	return p.admit(ctx, q, approver)
}

// Member returns Config.Member, the hook that resolves the groups of an
// approver policy.
func (p *Pages) Member() runtime.MemberFunc { return p.cfg.Member }

// voterID names the marker of who's answer to page id.
func voterID(id, who string) string {
	sum := sha256.Sum256([]byte("elicitgen page approver\x00" + who))
	return id + "_a_" + hex.EncodeToString(sum[:16])
}

// slotID names the i-th approval slot of page id.
func slotID(id string, i int) string { return id + "_v" + strconv.Itoa(i) }

// Approvals returns how many distinct approvers have approved the open
// page id so far, and how many its question needs (1 for a page without
// a quorum; then got is 0 until it is answered).
func (p *Pages) Approvals(ctx context.Context, id string) (got, need int, err error) {
	e, err := p.store.Get(ctx, id)
	if err != nil {
		return 0, 0, storeErr("approvals", err)
	}
	q, err := decodeQuestion(e.Question)
	if err != nil {
		return 0, 0, err
	}
	need = q.Approvers.Need()
	if e.Status != StatusOpen {
		return need, need, nil
	}
	for i := 1; i < need; i++ {
		switch _, err := p.store.Get(ctx, slotID(id, i)); {
		case err == nil:
			got++
		case errors.Is(err, ErrNotFound):
			return got, need, nil
		default:
			return 0, 0, storeErr("approvals", err)
		}
	}
	return got, need, nil
}

// vote records the answer enc (without its approvers) of who on the
// page id, q for a question with a policy: it returns done when enc
// answers the page (a decline, or the approval that completes the quorum)
// with the approvers who gave it, in order, and the number of approvals
// so far otherwise. The same person answering twice gets ErrAnswered and
// changes nothing; an approval that differs from the first gets
// ErrDiffers.
func (p *Pages) vote(ctx context.Context, id string, q *question, who string, enc []byte, decline bool) (done bool, by []string, got int, err error) {
	need := q.Approvers.Need()
	if need == 1 {
		return true, []string{who}, 1, nil
	}
	rec := func(rid string, body []byte) Record {
		return Record{ID: rid, Question: body, Closes: q.expires, Until: q.expires.Add(p.cfg.Keep)}
	}
	if !decline {
		// Checked first so that a differing answer records nothing; checked
		// again below against a first approval given meanwhile.
		if _, err := p.slot(ctx, id, 1, enc); err != nil && !errors.Is(err, ErrNotFound) {
			return false, nil, 0, err
		}
	}
	voter, _ := json.Marshal(map[string]any{"page": id, "at": p.now().UTC().Format(time.RFC3339), "decline": decline})
	if err := p.store.Put(ctx, rec(voterID(id, who), voter)); err != nil {
		if errors.Is(err, ErrExists) {
			return false, nil, 0, ErrAnswered
		}
		return false, nil, 0, err
	}
	if decline {
		return true, []string{who}, 0, nil
	}
	body, err := json.Marshal(&approval{By: who, Answer: enc})
	if err != nil {
		return false, nil, 0, err
	}
	for i := 1; i < need; i++ {
		switch err := p.store.Put(ctx, rec(slotID(id, i), body)); {
		case err == nil:
			return false, nil, i, nil
		case !errors.Is(err, ErrExists):
			return false, nil, 0, err
		}
		first, err := p.slot(ctx, id, i, enc)
		if err != nil {
			return false, nil, 0, err
		}
		by = append(by, first)
	}
	return true, append(by, who), need, nil
}

// approval is one approval of a quorum, as a slot record keeps it.
type approval struct {
	By     string          `json:"by"`
	Answer json.RawMessage `json:"answer"`
}

// ErrDiffers: an approval whose answer differs from the first approval
// of its quorum; it is refused, so that every approval of a quorum
// approves the same answer.
var ErrDiffers = errors.New("elicit page: the answer differs from the first approval")

// slot returns who gave the i-th approval of page id, and ErrDiffers
// when its answer is not enc (answers encode deterministically: JSON
// objects with sorted keys); ErrNotFound when there is none yet.
func (p *Pages) slot(ctx context.Context, id string, i int, enc []byte) (string, error) {
	e, err := p.store.Get(ctx, slotID(id, i))
	if err != nil {
		return "", err
	}
	var a approval
	if err := json.Unmarshal(e.Question, &a); err != nil {
		return "", fmt.Errorf("%w: stored approval does not decode", ErrStore)
	}
	if !bytes.Equal(a.Answer, enc) {
		return "", ErrDiffers
	}
	return a.By, nil
}

// Refusal is an answer the page refused because of who gave it
// (Config.Refused).
type Refusal struct {
	// Page names the page.
	Page string
	// Tool is the tool whose call asked the question.
	Tool string
	// Requester is the call's principal; Who is the person refused, as
	// Config.Identity named them.
	Requester, Who string
	// Post: the person posted an answer (else they only opened the
	// page).
	Post bool
	// Err says why: it matches runtime.ErrRequesterExcluded,
	// runtime.ErrNotApprover, ErrAnswered (the same approver twice),
	// ErrDiffers, ErrStepUp (an approval without a valid passkey
	// assertion for it, runtime.WithStepUp), or ErrForeign (another
	// approver's one-time link). Reason names it in one word.
	Err error
	// Form is the question's form; ArgsDigest the digest of the call's
	// arguments the page is bound to: "sha256:" and the hex of
	// seal.DigestArgs.
	Form, ArgsDigest string
	// StepUp: the question asks for a passkey step-up
	// (runtime.WithStepUp).
	StepUp bool
	// Asked is when the page was issued (zero for a page stored by an
	// earlier release); At is when the page refused, by its clock.
	Asked, At time.Time
}

// The reasons of a Refusal (Refusal.Reason).
const (
	// ReasonRequester: the requester answered a question that excludes
	// them (runtime.ErrRequesterExcluded).
	ReasonRequester = "requester-excluded"
	// ReasonNotApprover: someone the question's policy does not name
	// (runtime.ErrNotApprover), or, on a page without a policy, someone
	// other than the call's principal.
	ReasonNotApprover = "not-approver"
	// ReasonTwice: an approver of a quorum answered again (ErrAnswered).
	ReasonTwice = "answered-twice"
	// ReasonDiffers: an approval that differs from the first of its
	// quorum (ErrDiffers).
	ReasonDiffers = "answer-differs"
	// ReasonStepUp: an approval without a valid passkey step-up for it
	// (ErrStepUp): none, a failed one, or a replayed one.
	ReasonStepUp = "step-up-failed"
	// ReasonForeignLink: another approver's one-time link (ErrForeign).
	ReasonForeignLink = "foreign-link"
	// ReasonInvalidPolicy: the question's approver policy does not hold
	// (runtime.ErrInvalidApprovers), so nobody is admitted.
	ReasonInvalidPolicy = "invalid-policy"
	// ReasonOther: a refusal of none of the kinds above; its Err says why.
	ReasonOther = "other"
)

// Reason names why the page refused, in one of the Reason words: what a
// receipt of the refusal records.
func (r Refusal) Reason() string {
	switch err := r.Err; {
	case errors.Is(err, runtime.ErrRequesterExcluded):
		return ReasonRequester
	case errors.Is(err, runtime.ErrNotApprover):
		return ReasonNotApprover
	case errors.Is(err, ErrAnswered):
		return ReasonTwice
	case errors.Is(err, ErrDiffers):
		return ReasonDiffers
	case errors.Is(err, ErrStepUp):
		return ReasonStepUp
	case errors.Is(err, ErrForeign):
		return ReasonForeignLink
	case errors.Is(err, runtime.ErrInvalidApprovers):
		return ReasonInvalidPolicy
	}
	return ReasonOther
}

// noteRefusal hands a refusal to Config.Refused. The response to the
// person does not depend on what the hook does.
func (p *Pages) noteRefusal(r *http.Request, id string, q *question, who string, err error) {
	if p.cfg.Refused == nil {
		return
	}
	ref := Refusal{
		Page: id, Tool: q.Tool, Requester: q.Principal, Who: who, Post: r.Method == http.MethodPost, Err: err,
		Form: q.Form, StepUp: q.StepUp, At: p.now(),
	}
	if q.Args != "" {
		ref.ArgsDigest = "sha256:" + q.Args
	}
	if q.Issued != 0 {
		ref.Asked = time.UnixMilli(q.Issued)
	}
	p.cfg.Refused(r.Context(), ref)
}

// refuse writes the page's refusal of a person its policy does not
// admit: 403, in plain words, nothing recorded.
func (p *Pages) refuse(w http.ResponseWriter, r *http.Request, q *question, err error) {
	switch {
	case q.Approvers == nil:
		p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.Foreign })
	case errors.Is(err, runtime.ErrRequesterExcluded):
		p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.Requester })
	default:
		p.notice(w, r, q, http.StatusForbidden, func(t *text) string { return t.NotApprover })
	}
}
