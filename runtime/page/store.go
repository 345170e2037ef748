package page

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
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
	// Version counts the question's versions: 1 as Put stored it, one
	// more for each Revise.
	Version uint64
}

// Record is a new page as Store.Put receives it.
type Record struct {
	// ID names the page.
	ID string
	// Call is the key of the call's question, for Find ("": none).
	Call string
	// Client is the key of the client whose call issued the page (the
	// principal where there is one, else the remote host: see
	// Question.Client), for the store's budget per client; "" counts
	// against the total only.
	Client string
	// Question is the encoded question, at most Config.MaxQuestion
	// bytes.
	Question []byte
	// Closes is when the page closes: the store refuses an answer that
	// reaches it later with ErrExpired, deciding by its own clock (Redis's
	// TIME for the Redis store), so that an instance whose clock runs
	// behind cannot keep a page open. Zero means Until.
	Closes time.Time
	// Until is how long the store keeps the page and its answer (Closes
	// plus Config.Keep), and counts it against its budgets.
	Until time.Time
}

// Store keeps questions waiting for a person and their answers: for
// Pages, the question when it is issued, the answer once, and the taking
// of the answer once; for runtime/tasks, a task's record, revised as the
// task moves (tasks.NewStore). A hosted page and a task are one thing
// seen twice, so they share this one contract, and one store holds both
// under the same budgets and the same clock. Values are opaque bytes
// that their user encodes. Implementations must make Answer, Take and
// Revise atomic (two concurrent calls: one wins) and must fail closed: an
// error, never a success, when they cannot record the single use. They
// bound the pages they hold, in total and per client (Record.Client),
// and refuse a new page beyond either with an error matching
// ErrPagesFull, never touching the pages already held. The in-memory
// store is NewMemoryStore; runtime/redisstore has one in Redis for
// deployments of several instances.
type Store interface {
	// Put stores a new open page under r.ID, and r.ID under r.Call (for
	// Find), both until r.Until. An id already stored gives ErrExists
	// and changes nothing; a store at its limit, or r.Client at its
	// budget, gives an error matching ErrPagesFull (ErrClientPagesFull).
	Put(ctx context.Context, r Record) error
	// Get returns the page id; ErrNotFound when there is none (or it
	// expired).
	Get(ctx context.Context, id string) (Entry, error)
	// Answer records the answer of the open page id: ErrAnswered when it
	// is answered or taken already, ErrExpired when it closed (by the
	// store's clock), ErrNotFound when there is no page.
	Answer(ctx context.Context, id string, answer []byte) error
	// Take returns the answer of the answered page id and marks it
	// taken: ErrNotAnswered while it is open, ErrTaken once taken,
	// ErrNotFound when there is no page.
	Take(ctx context.Context, id string) ([]byte, error)
	// Find returns the id last Put under call; ErrNotFound when none.
	Find(ctx context.Context, call string) (string, error)
	// Revise replaces the question of the open page id with question,
	// provided its Version is still version (compare and set), and
	// counts one more version: ErrConflict when another Revise came
	// first, ErrAnswered when the page is answered or taken, ErrExpired
	// when it closed (by the store's clock), ErrNotFound when there is
	// no page. Its call key, client, closing time and Until stay as Put
	// stored them.
	Revise(ctx context.Context, id string, version uint64, question []byte) error
}

// Errors of a Store. Any other error from a Store is a failure of the
// store itself, which Pages reports wrapped in ErrStore and answers by
// refusing.
var (
	ErrExists      = errors.New("elicit page: page id already stored")
	ErrConflict    = errors.New("elicit page: question revised since it was read")
	ErrNotFound    = errors.New("elicit page: no such page")
	ErrAnswered    = errors.New("elicit page: already answered")
	ErrNotAnswered = errors.New("elicit page: not answered yet")
	ErrTaken       = errors.New("elicit page: answer already taken")
	// ErrPagesFull: the store holds its limit of pages; the new page is
	// refused (the pages already open are kept, and their answers
	// recorded). It matches ErrStore.
	ErrPagesFull = fmt.Errorf("%w: full", ErrStore)
	// ErrClientPagesFull: the client of the new page holds its budget of
	// pages; other clients' pages are still issued. It matches
	// ErrPagesFull and ErrStore.
	ErrClientPagesFull = fmt.Errorf("%w: this client's budget", ErrPagesFull)
)

// Default budgets of a page store (MemoryStore, redisstore.PageStore).
const (
	// DefaultLimit is the number of pages a store holds (open, or
	// answered and kept for Config.Keep): at most DefaultMaxQuestion
	// bytes each plus an answer of at most DefaultMaxBody, under 1 GB at
	// worst and a few tens of MB for typical forms.
	DefaultLimit = 10_000
	// DefaultPerClient is the number of pages one client may hold: a
	// tenth of DefaultLimit, as for the replay store, so that filling
	// the store takes ten addresses or principals.
	DefaultPerClient = DefaultLimit / 10
)

// Budgets resolves a store's limit and per-client budget as set (zero:
// DefaultLimit, and a tenth of the limit; a negative per-client budget:
// none).
func Budgets(limit, perClient int) (int, int) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	switch {
	case perClient < 0:
		perClient = 0
	case perClient == 0:
		perClient = max(limit/10, 1)
	}
	return limit, perClient
}

// MemoryStore is a Store in this process's memory, for a server of one
// instance. It holds at most Limit pages, and PerClient of one client;
// a page is dropped once its Until has passed. It is safe for concurrent
// use. Set its fields before first use.
type MemoryStore struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Limit is the number of pages held at most; DefaultLimit when zero.
	Limit int
	// PerClient is the number of pages one client may hold; a tenth of
	// Limit when zero, no budget per client when negative.
	PerClient int

	mu       sync.Mutex
	pages    map[string]*memPage
	calls    map[string]memCall
	byClient map[string]int
	exp      pageHeap
	// inbox is the Index: page ids by principal or group key
	// (inboxKey), with their until; filed counts its entries.
	inbox map[string]map[string]time.Time
	filed int
	// waits are the marks of calls waiting for a page (WaitMarker).
	waits     map[string]time.Time
	waitSweep int
}

type memPage struct {
	question []byte
	version  uint64
	answer   []byte
	status   Status
	client   string
	closes   time.Time
	until    time.Time
}

type memCall struct {
	id    string
	until time.Time
}

// NewMemoryStore returns an empty in-memory store with the default
// budgets.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{}
}

var _ Store = (*MemoryStore)(nil)

func (m *MemoryStore) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Len returns the number of pages held (expired ones included until they
// are dropped).
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pages)
}

// Put implements Store.
func (m *MemoryStore) Put(ctx context.Context, r Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.pages == nil {
		m.pages, m.calls, m.byClient = map[string]*memPage{}, map[string]memCall{}, map[string]int{}
	}
	m.sweep(now)
	if _, ok := m.pages[r.ID]; ok {
		return ErrExists
	}
	limit, perClient := Budgets(m.Limit, m.PerClient)
	if n := m.byClient[r.Client]; r.Client != "" && perClient > 0 && n >= perClient {
		return fmt.Errorf("%w (%d pages)", ErrClientPagesFull, perClient)
	}
	if len(m.pages) >= limit {
		return fmt.Errorf("%w (%d pages)", ErrPagesFull, limit)
	}
	closes := r.Closes
	if closes.IsZero() {
		closes = r.Until
	}
	pg := &memPage{question: append([]byte(nil), r.Question...), version: 1, status: StatusOpen, client: r.Client, closes: closes, until: r.Until}
	m.pages[r.ID] = pg
	if r.Client != "" {
		m.byClient[r.Client]++
	}
	heap.Push(&m.exp, pageExpiry{id: r.ID, page: pg})
	if r.Call != "" {
		m.calls[r.Call] = memCall{id: r.ID, until: r.Until}
	}
	return nil
}

// sweep drops the pages whose Until has passed, soonest first, and the
// call keys with them; m.mu is held.
func (m *MemoryStore) sweep(now time.Time) {
	for len(m.exp) > 0 && !now.Before(m.exp[0].page.until) {
		e := heap.Pop(&m.exp).(pageExpiry)
		if m.pages[e.id] != e.page {
			continue
		}
		delete(m.pages, e.id)
		if c := e.page.client; c != "" {
			if m.byClient[c]--; m.byClient[c] <= 0 {
				delete(m.byClient, c)
			}
		}
	}
	if len(m.calls) > 2*len(m.pages)+64 {
		for k, c := range m.calls {
			if !now.Before(c.until) {
				delete(m.calls, k)
			}
		}
	}
}

type pageExpiry struct {
	id   string
	page *memPage
}

// pageHeap orders pages by Until, soonest first.
type pageHeap []pageExpiry

func (h pageHeap) Len() int           { return len(h) }
func (h pageHeap) Less(i, j int) bool { return h[i].page.until.Before(h[j].page.until) }
func (h pageHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *pageHeap) Push(x any)        { *h = append(*h, x.(pageExpiry)) }
func (h *pageHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
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
	return Entry{Question: p.question, Status: p.status, Answer: p.answer, Version: p.version}, nil
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
	if !m.now().Before(p.closes) {
		return ErrExpired
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

// Revise implements Store.
func (m *MemoryStore) Revise(ctx context.Context, id string, version uint64, question []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, err := m.page(id)
	if err != nil {
		return err
	}
	switch {
	case p.status != StatusOpen:
		return ErrAnswered
	case !m.now().Before(p.closes):
		return ErrExpired
	case p.version != version:
		return ErrConflict
	}
	// A new slice, never the old one's memory: Get's callers may still
	// hold the question they read.
	p.question, p.version = append([]byte(nil), question...), p.version+1
	return nil
}
