package deliver

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// ErrPageStore is matched by the error of an ask whose hosted page could
// not be issued or whose answer could not be taken because the answer
// store failed: the ask fails closed, never as an accept.
var ErrPageStore = errors.New("elicit: the hosted page's answer store is unavailable")

// ErrPageAnswerTaken is matched by the error of a 2026-07-28 retry, or of
// a 2025-era call waiting on a page, whose page answer was taken already
// by another request (the same call made at once): the answer reaches a
// handler once.
var ErrPageAnswerTaken = errors.New("elicit: the page's answer was taken already")

// LinkRequiredError is returned by an ask whose question went to a hosted
// page whose link the tool result carries (RenderingLink), or a URL flow
// sent as its link (FlowLink): the call ends with that result (see
// LinkText), and the same call made again by the same principal takes the
// page's answer, or goes on with the flow. It matches
// runtime.ErrInputRequired: handlers return it unchanged.
type LinkRequiredError struct {
	// Key names the question in its call.
	Key string
	// Link is the page.
	Link *page.Link
	// Message is the question's text.
	Message string
	// StillOpen: the page was issued by an earlier call and is not
	// answered yet.
	StillOpen bool
	// Waited: the call sent the person to the page in URL mode (2025
	// eras) and stopped waiting before they answered (URLPage.Hold, or
	// the client's request failed); the page stays open and keeps the
	// answer for the same call made again.
	Waited bool
	// Flow: the link is a URL flow's own page (FlowLink), not a hosted
	// form.
	Flow bool
	// Approvers is the question's runtime.WithApprovers: the link is for
	// the requester to pass on to them. Nil for a question the requester
	// answers.
	Approvers *runtime.Approvers
	// Approvals is how many distinct approvers have approved so far (a
	// page still open, with a quorum).
	Approvals int
}

// Error implements error.
func (e *LinkRequiredError) Error() string {
	return "elicit: the question " + strconv.Quote(e.Key) + " waits on its hosted page"
}

// Is reports whether target is runtime.ErrInputRequired.
func (e *LinkRequiredError) Is(target error) bool { return target == runtime.ErrInputRequired }

// Link asks a question on a hosted page whose link the tool result
// carries (runtime.RenderingLink), or takes the answer given on the page
// an earlier call of the same call (tool, arguments, principal) issued.
type Link struct {
	// Pages issue the page and keep its answer.
	Pages *page.Pages
}

// Deliver implements Delivery.
func (d *Link) Deliver(ctx context.Context, _ *Round, q *Question) (*runtime.Response, error) {
	p, req := d.Pages, q.Request
	if req.Attempt == 0 {
		id, err := p.Find(ctx, q.Call, q.Key)
		switch {
		case err == nil:
			resp, terr := p.Take(ctx, id, q.Call)
			switch {
			case terr == nil:
				return resp, nil
			case errors.Is(terr, page.ErrNotAnswered):
				link, ierr := p.Issue(ctx, pageQuestion(q, id))
				if ierr == nil {
					le := &LinkRequiredError{Key: q.Key, Link: link, Message: req.Message, StillOpen: true, Approvers: req.Approvers}
					if req.Approvers.Need() > 1 {
						got, _, aerr := p.Approvals(ctx, id)
						if aerr != nil {
							return nil, pageErr("approvals", aerr)
						}
						le.Approvals = got
					}
					return nil, le
				}
				if errors.Is(ierr, page.ErrStore) {
					return nil, pageErr("issue", ierr)
				}
			case errors.Is(terr, page.ErrStore):
				return nil, pageErr("take", terr)
			}
			// Taken, expired or gone: a new page.
		case !errors.Is(err, page.ErrNotFound):
			return nil, pageErr("find", err)
		}
	}
	link, err := p.Issue(ctx, pageQuestion(q, ""))
	if err != nil {
		return nil, pageErr("issue", err)
	}
	return nil, &LinkRequiredError{Key: q.Key, Link: link, Message: req.Message, Approvers: req.Approvers}
}

// LinkText returns the text of the tool result of a call whose questions
// wait on hosted pages or URL flows: it tells the model to show the person
// each link, with its expiry, and to call the tool again with the same
// arguments once they have answered (or finished the flow's steps), and
// that nothing else counts.
func LinkText(tool string, links []*LinkRequiredError, now time.Time) string {
	var sb strings.Builder
	if tool == "" {
		tool = "this tool"
	} else {
		tool = "the tool " + strconv.Quote(tool)
	}
	forms, flows, approvals, shown := false, false, false, true
	for _, l := range links {
		forms, flows = forms || !l.Flow && l.Approvers == nil, flows || l.Flow
		approvals = approvals || l.Approvers != nil
		shown = shown && l.Waited
	}
	if approvals && !forms && !flows {
		sb.WriteString("Nothing was done yet: this action needs approval, on a web page, by the people named below. ")
		sb.WriteString("Do not answer it yourself, do not guess, and do not open or submit the page for anyone.\n")
	} else if shown {
		sb.WriteString("Nothing was done yet: this action needs an answer from the person on a web page, and they have not given it yet. ")
		sb.WriteString("Do not answer it yourself, do not guess, and do not open or submit the page for them.\n")
	} else if forms || approvals {
		sb.WriteString("Nothing was done yet: this action needs an answer from the person, and this client cannot show them the form. ")
		sb.WriteString("Do not answer it yourself, do not guess, and do not open or submit the page for them.\n")
	} else {
		sb.WriteString("Nothing was done yet: this action needs the person to complete a step on a web page, and this client cannot open it for them. ")
		sb.WriteString("Do not open the link or complete the steps for them.\n")
	}
	for _, l := range links {
		switch {
		case l.Waited:
			sb.WriteString("The person was sent to this page and has not answered yet. The page is still open: whatever they answer there is kept, and nothing happens until you call again. ")
		case l.StillOpen:
			sb.WriteString("The person has not answered on the page yet; it is still open. ")
		}
		switch {
		case l.Approvers != nil:
			sb.WriteString("This needs approval from " + l.Approvers.Who() + ". ")
			if n := l.Approvers.Need(); n > 1 {
				sb.WriteString(strconv.Itoa(l.Approvals) + " of " + strconv.Itoa(n) + " approvals so far. ")
			}
			if l.Approvers.ExcludeRequester {
				sb.WriteString("The person who asked cannot approve it themselves. ")
			}
			sb.WriteString("Tell the person who asked to pass this link on to the approvers, who answer the form there")
		case l.Flow:
			sb.WriteString("Show the person this link and ask them to complete the steps on that page")
		default:
			sb.WriteString("Show the person this link and ask them to answer the form there")
		}
		if l.Message != "" {
			if l.Flow {
				sb.WriteString(" (it says: ")
			} else {
				sb.WriteString(" (it asks: ")
			}
			sb.WriteString(strconv.Quote(l.Message))
			sb.WriteString(")")
		}
		sb.WriteString(":\n")
		sb.WriteString(l.Link.URL)
		if l.Flow {
			sb.WriteString("\nThe steps happen on that page, between the person and the site. Call again before ")
		} else {
			sb.WriteString("\nThe page closes at ")
		}
		sb.WriteString(l.Link.Expires.UTC().Format(time.RFC3339))
		if left := l.Link.Expires.Sub(now).Round(time.Minute); left >= time.Minute {
			sb.WriteString(" (in " + strconv.Itoa(int(left.Minutes())) + " minutes)")
		}
		sb.WriteString(".\n")
	}
	if approvals {
		sb.WriteString("Once the approvers have answered, call " + tool + " again with exactly the same arguments, as the same person who asked. ")
		sb.WriteString("That call picks up their answer (one decline from an approver is a decline); until enough have approved it says how many have. ")
		sb.WriteString("A call with other arguments, or by another person, does not see the answer and gets a new link.\n")
	}
	if forms {
		sb.WriteString("Once the person says they have answered, call " + tool + " again with exactly the same arguments. ")
		sb.WriteString("That call, by the same person, picks up their answer (a decline on the page is a decline). ")
		sb.WriteString("A call with other arguments, or by another person, does not see the answer and gets a new link.\n")
	}
	if flows {
		sb.WriteString("Once the person says they have finished on the flow's page, call " + tool + " again with exactly the same arguments: ")
		sb.WriteString("that call, by the same person, goes on with their flow. A call with other arguments, or by another person, gets a new link.\n")
	}
	return sb.String()
}
