package adapter

import (
	"context"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

// Decided is one question of a call the runtime decided (accepted,
// declined or cancelled, with confirm applied), as the exchange knows it:
// the runtime's decision and the call around it. Options.Record receives
// it before the handler sees the answer; it is what a signed receipt
// (runtime/receipt) records.
type Decided struct {
	// Decision is the runtime's decision, as it reported it.
	Decision *runtime.Decision
	// Tool is the tool (or prompt) whose call asked, and Args its
	// arguments as the client sent them.
	Tool string
	Args []byte
	// Principal is the call's principal: the requester.
	Principal string
	// Approvers are the people who answered on the hosted page for a
	// question asked with runtime.WithApprovers, in the order they
	// answered (runtime.Decision.Approvers); nil when the requester
	// answered.
	Approvers []string
	// Verified says how the answering people were verified when the
	// delivery established it (runtime.Decision.Verified: "passkey" after
	// a WithStepUp step-up on the page); "" leaves it to the Record hook.
	Verified string
	// Version is the call's protocol version.
	Version string
	// Rendering is how the question reached the person
	// (runtime.RenderingForm for the client's own form,
	// runtime.RenderingAuto for a URL-mode question).
	Rendering runtime.Rendering
	// SchemaDigest identifies the requestedSchema as sent (SchemaDigest);
	// "" for a URL-mode question.
	SchemaDigest string
	// Asked is when the question was asked: the sealing of the state that
	// asked it on 2026-07-28, the start of the call on earlier eras.
	Asked time.Time
	// At is when the exchange received the decision.
	At time.Time
}

// record hands a valid decision to the Options' Record hook; its error
// keeps the answer from the handler.
func (x *Exchange) record(ctx context.Context, d *runtime.Decision) error {
	if x.recorder == nil || d == nil || d.Request == nil || !d.Valid() {
		return nil
	}
	x.mu.Lock()
	base := baseKey(d.Request)
	key := numberedKey(base, x.counts[base])
	replayed := x.replayed[key]
	asked := x.state.Issued
	x.mu.Unlock()
	if replayed {
		return nil // recorded in the round that received it
	}
	r, _ := x.rendering(key)
	if asked.IsZero() {
		asked = x.started
	}
	if r == runtime.RenderingAuto && d.Request.Mode == runtime.ModeForm {
		r = runtime.RenderingForm
	}
	return x.recorder(ctx, Decided{
		Decision: d, Tool: x.call.Tool, Args: x.call.Args, Principal: x.call.Principal, Approvers: d.Approvers, Verified: d.Verified,
		Version: x.call.Version, Rendering: r, SchemaDigest: SchemaDigest(d.Request, x.era.SchemaVersion()),
		Asked: asked, At: x.now(),
	})
}

// now reads the sealer's clock (time.Now without one).
func (x *Exchange) now() time.Time {
	if x.sealer != nil && x.sealer.Now != nil {
		return x.sealer.Now()
	}
	return time.Now()
}

// noteReplayed marks key's answer as taken from the sealed state. It runs
// with x.mu held.
func (x *Exchange) noteReplayed(key string) {
	if x.recorder == nil {
		return
	}
	if x.replayed == nil {
		x.replayed = make(map[string]bool, 1)
	}
	x.replayed[key] = true
}

// wait returns how long req stays open: its runtime.WithWait, capped at
// Options.MaxWait; zero for the default.
func (x *Exchange) wait(req *runtime.Request) time.Duration {
	if req == nil || req.Wait <= 0 {
		return 0
	}
	if x.maxWait > 0 && req.Wait > x.maxWait {
		return x.maxWait
	}
	return req.Wait
}
