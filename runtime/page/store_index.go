package page

import (
	"context"
	"slices"
	"time"
)

// inboxKey names an Index list: a principal's or a group's.
func inboxKey(kind byte, name string) string { return string([]byte{kind, 0}) + name }

var _ Index = (*MemoryStore)(nil)

// File implements Index.
func (m *MemoryStore) File(ctx context.Context, id string, principals, groups []string, until time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.inbox == nil {
		m.inbox = map[string]map[string]time.Time{}
	}
	now := m.now()
	if m.filed > 4*len(m.pages)+64 {
		m.sweepInbox(now)
	}
	add := func(key string) {
		l := m.inbox[key]
		if l == nil {
			l = map[string]time.Time{}
			m.inbox[key] = l
		}
		if _, ok := l[id]; !ok {
			m.filed++
		}
		l[id] = until
	}
	for _, pr := range principals {
		add(inboxKey('u', pr))
	}
	for _, g := range groups {
		add(inboxKey('g', g))
	}
	return nil
}

// sweepInbox drops the index entries past their until; m.mu is held.
func (m *MemoryStore) sweepInbox(now time.Time) {
	for key, l := range m.inbox {
		for id, until := range l {
			if !now.Before(until) {
				delete(l, id)
				m.filed--
			}
		}
		if len(l) == 0 {
			delete(m.inbox, key)
		}
	}
}

// Filed implements Index.
func (m *MemoryStore) Filed(ctx context.Context, principal string, groups []string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	seen := map[string]bool{}
	var ids []string
	keys := []string{inboxKey('u', principal)}
	for _, g := range groups {
		keys = append(keys, inboxKey('g', g))
	}
	for _, key := range keys {
		for id, until := range m.inbox[key] {
			if now.Before(until) && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// FiledGroups implements Index.
func (m *MemoryStore) FiledGroups(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var gs []string
	for key, l := range m.inbox {
		if key[0] != 'g' {
			continue
		}
		for _, until := range l {
			if now.Before(until) {
				gs = append(gs, key[2:])
				break
			}
		}
	}
	slices.Sort(gs)
	return gs, nil
}
