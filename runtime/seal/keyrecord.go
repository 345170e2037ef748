package seal

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// This file keeps the record of a deployment's key ring over time, so
// that a ring change that would drop a key still sealing open questions
// is caught when an instance starts, not when a person's answer is
// refused.
//
// A key seals request state (and, in the example server, the hosted
// pages' links) while it is the ring's first key. What it sealed stays
// open as long as the longest wait the deployment allows: the state TTL,
// and for a question asked with runtime.WithWait up to
// adapter.Options.MaxWait (30 days by default). A key may leave the ring
// only that long after it stopped sealing.

// IDs returns the ids of the ring's keys, the sealing key first, in the
// order given. The slice is new on every call.
func (r *KeyRing) IDs() []string { return append([]string(nil), r.order...) }

// Fingerprint returns the fingerprint of the ring's key id (hex; the
// same 8 bytes every state sealed under it carries in clear): it tells a
// key from another of the same id and reveals nothing of the secret.
func (r *KeyRing) Fingerprint(id string) (string, bool) {
	k, ok := r.keys[id]
	if !ok {
		return "", false
	}
	return hex.EncodeToString(k.fingerprint[:]), true
}

// KeyUse is what a KeyRecord keeps of one key.
type KeyUse struct {
	// ID is the key's id.
	ID string `json:"id"`
	// Fingerprint is KeyRing.Fingerprint of the key: a key given a new
	// secret under the same id is another key.
	Fingerprint string `json:"fp"`
	// Sealed: the key has been the ring's first key, so states (and
	// links) sealed under it may be open.
	Sealed bool `json:"sealed,omitempty"`
	// Retired is when the key stopped being the first key, as first seen
	// by an instance starting with another ring; zero while it seals, or
	// when it never did.
	Retired time.Time `json:"retired,omitzero"`
}

// KeyRecord is the record of a deployment's key ring: every key of the
// last ring recorded, and when each stopped sealing. Keep one per
// deployment where every instance reads it (the example server keeps it
// in Redis beside the replay store; see redisstore.Store.CheckKeyRing).
type KeyRecord struct {
	Keys []KeyUse `json:"keys"`
}

// KeyHold says until when a key must stay in the ring.
type KeyHold struct {
	// ID is the key's id.
	ID string
	// Until is when the last state (or link) sealed under it closes:
	// when it stopped sealing plus the longest wait. Zero for the key
	// that seals now: it stays while it seals, and the longest wait after.
	Until time.Time
}

// ErrKeyStillNeeded is matched by the error of KeyRing.Rotate when the
// ring drops a key under which states (or page links) that can still be
// open were sealed: the answers to them would be refused. A
// *KeyStillNeededError says which keys, until when.
var ErrKeyStillNeeded = errors.New("elicit: key ring: a dropped key may still seal open questions")

// KeyStillNeededError lists the keys a new ring drops too early. It
// matches ErrKeyStillNeeded.
type KeyStillNeededError struct {
	// Keys are the dropped keys, with until when each is needed (zero
	// Until: the key sealed until this ring took over, so it is needed
	// for the longest wait from now).
	Keys []KeyHold
	// Longest is the longest wait the check assumed.
	Longest time.Duration
}

// Error implements error.
func (e *KeyStillNeededError) Error() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = fmt.Sprintf("%q until %s", k.ID, k.Until.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("elicit: key ring: the new ring drops %s, which may still seal open questions "+
		"(a key stays in the ring for the longest wait, %s, after it stopped sealing): keep it after the new keys, as id:secret",
		strings.Join(parts, ", "), e.Longest)
}

// Is reports whether target is ErrKeyStillNeeded.
func (e *KeyStillNeededError) Is(target error) bool { return target == ErrKeyStillNeeded }

// Rotate returns the record of r taking over from prev, the record of the
// ring used before (nil: none) at now, where longest is the longest a
// state or link sealed under a key stays open (the largest of the state
// TTL, the pages' TTL and adapter.Options.MaxWait the deployment allows).
//
// The first key of r is recorded as sealing; a key that sealed in prev and
// is not first in r is recorded as retired at now (or earlier, as prev
// says). When r lacks a key of prev (by id and fingerprint) that sealed
// and retired less than longest before now, or still sealed, Rotate
// returns the new record and an error matching ErrKeyStillNeeded
// (*KeyStillNeededError): the caller refuses to start, or records the new
// ring anyway when the operator says so.
func (r *KeyRing) Rotate(prev *KeyRecord, now time.Time, longest time.Duration) (*KeyRecord, error) {
	old := map[string]KeyUse{}
	if prev != nil {
		for _, k := range prev.Keys {
			old[k.ID] = k
		}
	}
	next := &KeyRecord{}
	kept := map[string]bool{}
	for _, id := range r.order {
		fp, _ := r.Fingerprint(id)
		u := KeyUse{ID: id, Fingerprint: fp}
		if o, ok := old[id]; ok && o.Fingerprint == fp {
			u, kept[id] = o, true
		}
		switch {
		case id == r.current:
			u.Sealed, u.Retired = true, time.Time{}
		case u.Sealed && u.Retired.IsZero():
			u.Retired = now
		}
		next.Keys = append(next.Keys, u)
	}
	var dropped []KeyHold
	if prev != nil {
		for _, o := range prev.Keys {
			if kept[o.ID] || !o.Sealed {
				continue
			}
			retired := o.Retired
			if retired.IsZero() {
				retired = now
			}
			if until := retired.Add(longest); now.Before(until) {
				dropped = append(dropped, KeyHold{ID: o.ID, Until: until})
			}
		}
	}
	if len(dropped) > 0 {
		return next, &KeyStillNeededError{Keys: dropped, Longest: longest}
	}
	return next, nil
}

// Needed returns the keys of the record that must stay in the ring, and
// until when, at now with the longest wait longest: the sealing key
// (zero Until), and each retired key whose states can still be open. A
// key that never sealed, or retired longer ago than longest, may go.
func (rec *KeyRecord) Needed(now time.Time, longest time.Duration) []KeyHold {
	var out []KeyHold
	for _, k := range rec.Keys {
		switch {
		case !k.Sealed:
		case k.Retired.IsZero():
			out = append(out, KeyHold{ID: k.ID})
		case now.Before(k.Retired.Add(longest)):
			out = append(out, KeyHold{ID: k.ID, Until: k.Retired.Add(longest)})
		}
	}
	return out
}
