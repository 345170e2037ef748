package runtime

import "fmt"

// WithStepUp requires a passkey step-up for this question: it is asked
// only on the server's hosted page (the adapter's Pages, with an Identity
// and a page.Config.StepUp), whose link the tool result carries, and an
// accept counts only with a WebAuthn assertion with user verification
// from a passkey registered to the person answering, whose challenge is
// bound to the call (tool, argument digest, principal), the form, the
// answer's digest and the page, used once, before the page expires. The
// receipt records the approver as verified by passkey. Without pages the
// question is unavailable; a decline needs no passkey.
func WithStepUp() AskOption {
	return func(c *askConfig) { c.stepUp = true }
}

// errStepUpURL refuses WithStepUp on a URL-mode ask: its accept means
// only that the person agreed to open a page.
var errStepUpURL = fmt.Errorf("%w: WithStepUp applies to form questions, not URL mode", ErrInvalidApprovers)
