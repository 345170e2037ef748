package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	records map[string]*Record // deep copies, so callers never share memory with the store
	creates int
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{records: map[string]*Record{}} }

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
		m.records = map[string]*Record{}
	}
	if _, err := m.get(r.ID, now); err == nil {
		return ErrExists
	}
	if err := r.checkJSON(); err != nil {
		return err
	}
	if m.creates++; m.creates%64 == 0 {
		m.sweep(now)
	}
	r.Version = 1
	c := r.clone()
	m.records[r.ID] = &c
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

// get returns the live record id, held by the store; m.mu is held.
func (m *MemoryStore) get(id string, now time.Time) (*Record, error) {
	r, ok := m.records[id]
	if !ok || !r.Alive(now) {
		return nil, ErrNotFound
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
	r, err := m.get(id, m.now())
	if err != nil {
		return Record{}, err
	}
	return r.clone(), nil
}

// Update implements Store.
func (m *MemoryStore) Update(ctx context.Context, id string, fn func(*Record) error) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	held, err := m.get(id, m.now())
	if err != nil {
		return Record{}, err
	}
	r := held.clone()
	if err := fn(&r); err != nil {
		return Record{}, err
	}
	if err := r.checkJSON(); err != nil {
		return Record{}, err
	}
	r.ID = id
	r.Version++
	c := r.clone()
	m.records[id] = &c
	return r, nil
}

// clone returns a deep copy of r: no map, slice or error shared with it.
func (r *Record) clone() Record {
	c := *r
	c.Args = cloneRaw(r.Args)
	c.Result = cloneRaw(r.Result)
	c.Pending = cloneRawMap(r.Pending)
	c.Answers = cloneRawMap(r.Answers)
	c.Issued = slices.Clone(r.Issued)
	c.Round = slices.Clone(r.Round)
	if r.Err != nil {
		e := *r.Err
		e.Data = cloneRaw(e.Data)
		c.Err = &e
	}
	return c
}

// checkJSON refuses a record whose raw JSON fields a store that encodes
// records could not encode, so the in-memory store fails where they do.
func (r *Record) checkJSON() error {
	if len(r.Args) > 0 && !json.Valid(r.Args) {
		return errors.New("tasks: the record's arguments are not valid JSON")
	}
	if len(r.Result) > 0 && !json.Valid(r.Result) {
		return errors.New("tasks: the record's result is not valid JSON")
	}
	if r.Err != nil && len(r.Err.Data) > 0 && !json.Valid(r.Err.Data) {
		return errors.New("tasks: the record's error data is not valid JSON")
	}
	for _, m := range []map[string]json.RawMessage{r.Pending, r.Answers} {
		for k, raw := range m {
			if !json.Valid(raw) {
				return fmt.Errorf("tasks: the record's entry %q is not valid JSON", k)
			}
		}
	}
	return nil
}

func cloneRaw(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	return append(json.RawMessage{}, raw...)
}

func cloneRawMap(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = cloneRaw(v)
	}
	return c
}
