package core

import (
	"errors"
	"time"
)

// Settings are what every SDK adapter's Config holds in common: the key
// ring and clock of the sealed state and the reply policies. An adapter
// copies its Config into Settings and leaves the era rules, the sealing
// and the choice of reply to them, translating only SDK types.
type Settings struct {
	// Keys seal the requestState of 2026-07-28 requests.
	Keys *KeyRing
	// StateTTL bounds how long a sealed state stays valid; zero means
	// DefaultStateTTL.
	StateTTL time.Duration
	// Unavailable chooses what a "cannot ask" failure becomes.
	Unavailable UnavailablePolicy
	// AskErrors chooses what other ask failures become.
	AskErrors AskErrorPolicy
	// Now is the clock of state expiry; nil means time.Now.
	Now func() time.Time
}

// Sealer returns the sealer of the settings' key ring, TTL and clock.
func (s *Settings) Sealer() *Sealer {
	return &Sealer{Keys: s.Keys, TTL: s.StateTTL, Now: s.Now}
}

// Start completes c for its era and starts its exchange: on a 2026-07-28
// call it keeps the echoed state and the answers (responses and
// malformed, as the adapter read them from inputResponses) and drops
// push; on an older call it drops those and asks through push. A state
// that fails to open is an error matching ErrInvalidState (JSON-RPC
// -32602, InvalidStateMessage).
func (s *Settings) Start(c *Call, state string, responses map[string]*Response, malformed map[string]string, push Asker) (*Exchange, error) {
	if Modern(c.Version) {
		c.State, c.Responses, c.Malformed, c.Push = state, responses, malformed, nil
	} else {
		c.State, c.Responses, c.Malformed, c.Push = "", nil, nil, push
	}
	return NewExchange(s.Sealer(), c)
}

// Finish decides what the adapter sends once the handler returned
// handlerErr: Exchange.Reply with the Unavailable policy, then, under
// AskErrorsToolError, an ask failure that is not a protocol error
// (AskFailureText) becomes a tool error the model can act on.
func (s *Settings) Finish(x *Exchange, handlerErr error) Reply {
	r := x.Reply(handlerErr, s.Unavailable)
	if s.AskErrors != AskErrorsToolError || r.Err == nil || errors.Is(r.Err, ErrUnavailable) ||
		(r.Kind != ReplyResult && r.Kind != ReplyInvalidParams) {
		return r
	}
	if text := AskFailureText(r.Err); text != "" {
		return Reply{Kind: ReplyToolError, Text: text, Err: r.Err}
	}
	return r
}

// InitializeCaps applies the era rules to the elicitation capability a
// client declared in initialize (2025-era connections): declared says an
// "elicitation" object was present, form and url whether it named those
// modes. Versions before 2025-06-18 have no elicitation; 2025-06-18 has
// form mode only; later, {} means form only.
func InitializeCaps(version string, declared, form, url bool) ClientCaps {
	if !declared || !CanElicit(version) {
		return ClientCaps{}
	}
	if version != "" && version < Version20251125 {
		return ClientCaps{Form: true}
	}
	if !form && !url {
		form = true
	}
	return ClientCaps{Form: form, URL: url}
}
