package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Approvers says who may answer a question (WithApprovers): the
// principals and groups allowed, whether the person whose call asks (the
// requester) is left out, and how many distinct approvers must approve.
// One decline from an allowed approver ends the question as a decline.
type Approvers struct {
	// Principals are the people allowed to answer, as the call's principal
	// names them (adapter.Call.Principal, page.Config.Identity).
	Principals []string
	// Groups are groups whose members may answer, resolved by the
	// page.Config.Member hook; without the hook no group admits anyone.
	Groups []string
	// ExcludeRequester: the requester may not answer, even when listed or
	// in a group. The question then goes to the hosted page, whose link
	// the requester passes on.
	ExcludeRequester bool
	// Quorum is the number of distinct approvers whose approvals make the
	// answer (the same approver twice counts once); 0 means 1.
	Quorum int
}

// Errors of Approvers.Admit: every refusal matches ErrNotApprover.
var (
	// ErrNotApprover: the person is not allowed to answer the question.
	ErrNotApprover = errors.New("elicit: not an approver of this question")
	// ErrRequesterExcluded: the requester may not answer their own
	// question. It matches ErrNotApprover.
	ErrRequesterExcluded = fmt.Errorf("%w: the requester is excluded", ErrNotApprover)
	// ErrInvalidApprovers: the policy names nobody, or its quorum is
	// negative; WithApprovers fails the ask with it before anything is
	// sent.
	ErrInvalidApprovers = errors.New("elicit: invalid approver policy")
)

// errApproversURL refuses WithApprovers on a URL-mode ask: its accept
// means only that the person agreed to open a page, never an approval.
var errApproversURL = fmt.Errorf("%w: WithApprovers applies to form questions, not URL mode", ErrInvalidApprovers)

// MemberFunc reports whether principal belongs to group (the groups of an
// Approvers policy). An error refuses the person.
type MemberFunc func(ctx context.Context, principal, group string) (bool, error)

// WithApprovers sets who may answer this question (see Approvers). A
// question whose requester may not answer it, or that needs more than one
// approver, is asked on the server's hosted page (the adapter's Pages,
// with an Identity), whose link the tool result carries for the requester
// to pass on, with who must answer; the same call made again takes the
// answer once enough approvers have answered, and says how many have
// until then. Without pages such a question is unavailable. Every path
// that can answer (the client's own form, a task update, the page) is
// checked by Approvers.Admit.
func WithApprovers(p Approvers) AskOption {
	return func(c *askConfig) {
		p.Principals, p.Groups = slices.Clone(p.Principals), slices.Clone(p.Groups)
		c.approvers = &p
	}
}

// Check reports a policy that can admit nobody or has a negative quorum,
// with an error matching ErrInvalidApprovers.
func (p *Approvers) Check() error {
	switch {
	case p == nil:
		return nil
	case len(p.Principals) == 0 && len(p.Groups) == 0:
		return fmt.Errorf("%w: no principal or group may answer", ErrInvalidApprovers)
	case p.Quorum < 0:
		return fmt.Errorf("%w: quorum %d", ErrInvalidApprovers, p.Quorum)
	case slices.Contains(p.Principals, "") || slices.Contains(p.Groups, ""):
		return fmt.Errorf("%w: an empty principal or group", ErrInvalidApprovers)
	}
	return nil
}

// Need returns the number of distinct approvals the policy needs: at
// least 1 (1 for a nil policy).
func (p *Approvers) Need() int {
	if p == nil {
		return 1
	}
	return max(p.Quorum, 1)
}

// Admit is the one check of who may answer a question asked with p, on
// every path: approver answers the question requester's call asked. It
// returns nil when approver is allowed: not the requester when the
// requester is excluded, and one of the principals or a member of one of
// the groups (member resolves groups; nil admits no group member). A nil
// policy admits only the requester. A refusal matches ErrNotApprover
// (ErrRequesterExcluded for the requester).
func (p *Approvers) Admit(ctx context.Context, requester, approver string, member MemberFunc) error {
	if approver == "" {
		return fmt.Errorf("%w: nobody signed in", ErrNotApprover)
	}
	if p == nil {
		if approver != requester {
			return fmt.Errorf("%w: only the person who asked answers it", ErrNotApprover)
		}
		return nil
	}
	if err := p.Check(); err != nil {
		return err
	}
	if p.ExcludeRequester && approver == requester {
		return ErrRequesterExcluded
	}
	if slices.Contains(p.Principals, approver) {
		return nil
	}
	if member != nil {
		for _, g := range p.Groups {
			ok, err := member(ctx, approver, g)
			if err != nil {
				return fmt.Errorf("%w: group %q: %w", ErrNotApprover, g, err)
			}
			if ok {
				return nil
			}
		}
	}
	return ErrNotApprover
}

// Who says in plain words who must answer under p ("one of alice, bob
// (not the person who asked)", "2 of alice, bob, carol or members of
// ops").
func (p *Approvers) Who() string {
	var sb strings.Builder
	if n := p.Need(); n > 1 {
		sb.WriteString(strconv.Itoa(n) + " different people among ")
	} else {
		sb.WriteString("one of ")
	}
	names := slices.Clone(p.Principals)
	for _, g := range p.Groups {
		names = append(names, "members of "+g)
	}
	sb.WriteString(strings.Join(names, ", "))
	if p.ExcludeRequester {
		sb.WriteString(" (not the person who asked)")
	}
	return sb.String()
}
