package adapter

import "github.com/elicitgen/elicitgen/runtime"

// SameInvalidAnswer compares an invalid answer with the last one to the
// same question (see runtime.Asker). The digest of the last invalid
// answer to each question rides in the state, so a 2026-07-28
// client that sends the same invalid answer in its next round is not asked
// again.
func (x *Exchange) SameInvalidAnswer(req *runtime.Request, digest string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	base := baseKey(req)
	k := invalidKey(numberedKey(base, x.counts[base]))
	same := digest != "" && x.state.Flows[k] == digest
	x.state.Flows[k] = digest
	return same
}

// invalidKey names the last invalid answer's digest of key in State.Flows
// (see retryKey).
func invalidKey(key string) string { return "!invalid:" + key }
