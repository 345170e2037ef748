package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// Errors of a Store. Any other error from a Store is a failure of the store
// itself, which the Server answers with -32603 and never reads as success.
var (
	// ErrNotFound: no task has that id, or it expired.
	ErrNotFound = errors.New("tasks: no such task")
	// ErrExists: Create was given an id that is stored already.
	ErrExists = errors.New("tasks: task id already stored")
)

// Store keeps task records. Create must not return before a Get for the
// same id finds the record, on every instance that shares the store (the
// extension's durability rule); Update must apply fn atomically, as one
// step against concurrent updates from any instance (a cancel racing an
// answer: one of them sees the other's result). Stores fail closed: an
// error, never a success, when they cannot record a change.
type Store interface {
	// Create stores a new record under r.ID; ErrExists when the id is
	// stored already.
	Create(ctx context.Context, r Record) error
	// Get returns the record id; ErrNotFound when there is none or it
	// expired.
	Get(ctx context.Context, id string) (Record, error)
	// Update calls fn with the current record id and stores what fn left
	// in it, atomically, unless fn returns an error (then nothing is
	// stored and Update returns that error). fn may be called more than
	// once when another change raced it; it must not have side effects.
	// Update returns the record as stored; ErrNotFound when there is none.
	Update(ctx context.Context, id string, fn func(*Record) error) (Record, error)
}

// MemoryStore is a Store in this process's memory, for a server of one
// instance and for tests. Records are dropped once they expire. It is safe
// for concurrent use.
type MemoryStore struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	records map[string][]byte // encoded, so callers never share memory with the store
	creates int
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{records: map[string][]byte{}} }

func (m *MemoryStore) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Len returns the number of records held, expired ones included until they
// are swept.
func (m *MemoryStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.records)
}

// Create implements Store.
func (m *MemoryStore) Create(ctx context.Context, r Record) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.records == nil {
		m.records = map[string][]byte{}
	}
	if _, err := m.get(r.ID, now); err == nil {
		return ErrExists
	}
	if m.creates++; m.creates%64 == 0 {
		m.sweep(now)
	}
	r.Version = 1
	b, err := json.Marshal(&r)
	if err != nil {
		return err
	}
	m.records[r.ID] = b
	return nil
}

// sweep drops expired records; m.mu is held.
func (m *MemoryStore) sweep(now time.Time) {
	for id := range m.records {
		if _, err := m.get(id, now); err != nil {
			delete(m.records, id)
		}
	}
}

// get decodes the live record id; m.mu is held.
func (m *MemoryStore) get(id string, now time.Time) (Record, error) {
	b, ok := m.records[id]
	if !ok {
		return Record{}, ErrNotFound
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, err
	}
	if !r.Alive(now) {
		return Record{}, ErrNotFound
	}
	return r, nil
}

// Get implements Store.
func (m *MemoryStore) Get(ctx context.Context, id string) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.get(id, m.now())
}

// Update implements Store.
func (m *MemoryStore) Update(ctx context.Context, id string, fn func(*Record) error) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.get(id, m.now())
	if err != nil {
		return Record{}, err
	}
	if err := fn(&r); err != nil {
		return Record{}, err
	}
	r.ID = id
	r.Version++
	b, err := json.Marshal(&r)
	if err != nil {
		return Record{}, err
	}
	m.records[id] = b
	return r, nil
}
