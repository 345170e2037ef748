package page

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Status is where a page stands in its single use.
type Status uint8

// Statuses of a page.
const (
	// StatusOpen: issued, not answered.
	StatusOpen Status = iota + 1
	// StatusAnswered: answered on the page, not yet taken.
	StatusAnswered
	// StatusTaken: the answer was taken by the MCP side.
	StatusTaken
)

// String returns the status's name.
func (s Status) String() string {
	switch s {
	case StatusOpen:
		return "open"
	case StatusAnswered:
		return "answered"
	case StatusTaken:
		return "taken"
	}
	return "invalid"
}

// Entry is one stored page, as Store.Get returns it.
type Entry struct {
	// Question is the encoded question, as given to Put.
	Question []byte
	// Status is the page's status.
	Status Status
	// Answer is the encoded answer once answered (also after it is taken).
	Answer []byte
}

// Store keeps pages and their answers for Pages: the question when it is
// issued, the answer once, and the taking of the answer once. Values are
// opaque bytes that Pages encodes. Implementations must make Answer and
// Take atomic (two concurrent calls: one wins) and must fail closed: an
// error, never a success, when they cannot record the single use. The
// in-memory store is NewMemoryStore; runtime/redisstore has one in Redis
// for deployments of several instances.
type Store interface {
	// Put stores a new open page under id, and id under call (the key of
	// the call's question, for Find), both until the instant until. An
	// id already stored gives ErrExists and changes nothing.
	Put(ctx context.Context, id, call string, question []byte, until time.Time) error
	// Get returns the page id; ErrNotFound when there is none (or it
	// expired).
	Get(ctx context.Context, id string) (Entry, error)
	// Answer records the answer of the open page id: ErrAnswered when it
	// is answered or taken already, ErrNotFound when there is no page.
	Answer(ctx context.Context, id string, answer []byte) error
	// Take returns the answer of the answered page id and marks it
	// taken: ErrNotAnswered while it is open, ErrTaken once taken,
	// ErrNotFound when there is no page.
	Take(ctx context.Context, id string) ([]byte, error)
	// Find returns the id last Put under call; ErrNotFound when none.
	Find(ctx context.Context, call string) (string, error)
}

// Errors of a Store. Any other error from a Store is a failure of the
// store itself, which Pages reports wrapped in ErrStore and answers by
// refusing.
var (
	ErrExists      = errors.New("elicit page: page id already stored")
	ErrNotFound    = errors.New("elicit page: no such page")
	ErrAnswered    = errors.New("elicit page: already answered")
	ErrNotAnswered = errors.New("elicit page: not answered yet")
	ErrTaken       = errors.New("elicit page: answer already taken")
)

// MemoryStore is a Store in this process's memory, for a server of one
// instance. Expired pages are dropped as new ones are stored. It is safe
// for concurrent use.
type MemoryStore struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu    sync.Mutex
	pages map[string]*memPage
	calls map[string]memCall
	puts  int
}

type memPage struct {
	question []byte
	answer   []byte
	status   Status
	until    time.Time
}

type memCall struct {
	id    string
	until time.Time
}

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{pages: map[string]*memPage{}, calls: map[string]memCall{}}
}

var _ Store = (*MemoryStore)(nil)

func (m *MemoryStore) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Len returns the number of pages held (expired ones included until they
// are swept).
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pages)
}

// Put implements Store.
func (m *MemoryStore) Put(ctx context.Context, id, call string, question []byte, until time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.pages == nil {
		m.pages, m.calls = map[string]*memPage{}, map[string]memCall{}
	}
	if p, ok := m.pages[id]; ok && now.Before(p.until) {
		return ErrExists
	}
	m.puts++
	if m.puts%64 == 0 {
		m.sweep(now)
	}
	m.pages[id] = &memPage{question: append([]byte(nil), question...), status: StatusOpen, until: until}
	if call != "" {
		m.calls[call] = memCall{id: id, until: until}
	}
	return nil
}

// sweep drops expired pages and call keys; m.mu is held.
func (m *MemoryStore) sweep(now time.Time) {
	for id, p := range m.pages {
		if !now.Before(p.until) {
			delete(m.pages, id)
		}
	}
	for k, c := range m.calls {
		if !now.Before(c.until) {
			delete(m.calls, k)
		}
	}
}

// page returns the live page id; m.mu is held.
func (m *MemoryStore) page(id string) (*memPage, error) {
	p, ok := m.pages[id]
	if !ok || !m.now().Before(p.until) {
		return nil, ErrNotFound
	}
	return p, nil
}

// Get implements Store.
func (m *MemoryStore) Get(ctx context.Context, id string) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.page(id)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Question: p.question, Status: p.status, Answer: p.answer}, nil
}

// Answer implements Store.
func (m *MemoryStore) Answer(ctx context.Context, id string, answer []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.page(id)
	if err != nil {
		return err
	}
	if p.status != StatusOpen {
		return ErrAnswered
	}
	p.status, p.answer = StatusAnswered, append([]byte(nil), answer...)
	return nil
}

// Take implements Store.
func (m *MemoryStore) Take(ctx context.Context, id string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.page(id)
	if err != nil {
		return nil, err
	}
	switch p.status {
	case StatusOpen:
		return nil, ErrNotAnswered
	case StatusTaken:
		return nil, ErrTaken
	}
	p.status = StatusTaken
	return p.answer, nil
}

// Find implements Store.
func (m *MemoryStore) Find(ctx context.Context, call string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.calls[call]
	if !ok || !m.now().Before(c.until) {
		return "", ErrNotFound
	}
	return c.id, nil
}
