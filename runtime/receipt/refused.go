package receipt

import (
	"cmp"
	"context"
	"time"

	"github.com/elicitgen/elicitgen/runtime/page"
)

// refusalTimeout bounds the write of one refusal's receipt: it goes on
// after the person hangs up, but never holds the refusal for long.
const refusalTimeout = 10 * time.Second

// RefusalFields returns the receipt fields of a hosted page's refusal of
// a post (page.Refusal): action ActionRefused, the refusal's reason word
// (page.ReasonRequester, ...), the question's tool, argument digest, form
// and page id (as StateID), and the refused person as the one approver,
// identified as verified says, with their own action ActionRefused. It
// has no answer digest and confirm "none": nothing of it reads as an
// approval, and the question stays open.
func RefusalFields(server string, r page.Refusal, verified string) Fields {
	return Fields{
		Server: server, Tool: r.Tool, ArgsDigest: r.ArgsDigest, Form: r.Form,
		Action: ActionRefused, Confirm: ConfirmNone, Reason: r.Reason(),
		Approvers: []Approver{{Principal: cmp.Or(r.Who, Anonymous), Verified: cmp.Or(verified, VerifiedNone), Action: ActionRefused}},
		Requester: r.Requester, AskedAt: r.Asked, DecidedAt: r.At, StateID: r.Page,
	}
}

// Refusals returns the page.Config.Refused hook that appends a signed
// receipt of every post a hosted page refuses (RefusalFields) to l, in
// the same chain as the decisions' receipts. Page views refused (a GET)
// get none. server names the server, as in Recorder; verified says how
// the refused person's identity was established
// (VerifiedTrustedHeader behind an identity-aware proxy).
//
// The refusal stands whatever happens to its receipt: failed, when not
// nil, hears a receipt that could not be written (an error matching
// ErrSink or ErrFields), and the page refuses all the same. The receipt
// is written even when the person hangs up first, within a bounded time.
func Refusals(l *Log, server string, verified func(page.Refusal) string, failed func(ctx context.Context, r page.Refusal, err error)) func(context.Context, page.Refusal) {
	return func(ctx context.Context, r page.Refusal) {
		if !r.Post {
			return
		}
		v := ""
		if verified != nil {
			v = verified(r)
		}
		f := RefusalFields(server, r, v) // DecidedAt: r.At, on the pages' clock
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), refusalTimeout)
		defer cancel()
		if _, err := l.Append(wctx, f); err != nil && failed != nil {
			failed(ctx, r, err)
		}
	}
}
