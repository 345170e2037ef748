package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elicitgen/elicitgen/runtime/page"
)

// Errors of a Store. Any other error from a Store is a failure of the store
// itself, which the Server answers with -32603 and never reads as success.
var (
	// ErrNotFound: no task has that id, or it expired.
	ErrNotFound = errors.New("tasks: no such task")
	// ErrExists: Create was given an id that is stored already.
	ErrExists = errors.New("tasks: task id already stored")
)

// Store keeps task records in a page.Store, the one contract of a
// question waiting for a person: a hosted page and a task are the same
// thing seen twice, so one store holds both, under the same budgets (a
// task counts against its principal's, as a page against its client's)
// and the same clock (the store's: Redis's TIME for
// redisstore.PageStore). A task is one stored question, the record's
// JSON, under "task." and its id (a name no page link can carry); each
// change is a Revise of the version read, tried again when another
// change came first, so that it applies atomically across instances (a
// cancel racing an answer: one of them sees the other's result). Create
// returns once the page store holds the record (the extension's
// durability rule). It fails closed: an error, never a success, when the
// page store cannot record a change. It is safe for concurrent use.
type Store struct {
	pages page.Store
}

// NewStore returns a task store on pages: page.NewMemoryStore() for one
// instance, or the redisstore.PageStore the instances' hosted pages use.
func NewStore(pages page.Store) *Store { return &Store{pages: pages} }

// NewMemoryStore returns a task store on a new page.MemoryStore, for a
// server of one instance and for tests.
func NewMemoryStore() *Store { return NewStore(page.NewMemoryStore()) }

// pageID is the page store's id of task id.
func pageID(id string) string { return "task." + id }

// maxUpdateTries bounds the tries of one Update under contention.
const maxUpdateTries = 32

// never is the page store's Until of a task without expiry.
var never = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// Create stores a new record under r.ID, readable until r.Expires (zero:
// as long as the page store keeps anything); ErrExists when the id is
// stored already. A page store at its budget refuses the task with an
// error matching page.ErrPagesFull.
func (s *Store) Create(ctx context.Context, r Record) error {
	b, err := json.Marshal(&r)
	if err != nil {
		return fmt.Errorf("tasks: encoding the record: %w", err)
	}
	until := r.Expires
	if until.IsZero() {
		until = never
	}
	err = s.pages.Put(ctx, page.Record{ID: pageID(r.ID), Client: r.Principal, Question: b, Until: until})
	if errors.Is(err, page.ErrExists) {
		return ErrExists
	}
	return err
}

// Get returns the record id; ErrNotFound when there is none or it
// expired.
func (s *Store) Get(ctx context.Context, id string) (Record, error) {
	e, err := s.pages.Get(ctx, pageID(id))
	if err != nil {
		return Record{}, notFound(err)
	}
	return decode(id, e)
}

// Update calls fn with the current record id and stores what fn left in
// it, atomically, unless fn returns an error (then nothing is stored and
// Update returns that error). fn may be called more than once when
// another change raced it; it must not have side effects. Update returns
// the record as stored; ErrNotFound when there is none.
func (s *Store) Update(ctx context.Context, id string, fn func(*Record) error) (Record, error) {
	for range maxUpdateTries {
		e, err := s.pages.Get(ctx, pageID(id))
		if err != nil {
			return Record{}, notFound(err)
		}
		r, err := decode(id, e)
		if err != nil {
			return Record{}, err
		}
		if err := fn(&r); err != nil {
			return Record{}, err
		}
		r.ID, r.Version = id, e.Version+1
		b, err := json.Marshal(&r)
		if err != nil {
			return Record{}, fmt.Errorf("tasks: encoding the record: %w", err)
		}
		switch err := s.pages.Revise(ctx, pageID(id), e.Version, b); {
		case err == nil:
			return r, nil
		case !errors.Is(err, page.ErrConflict):
			return Record{}, notFound(err)
		}
		if err := ctx.Err(); err != nil {
			return Record{}, err
		}
	}
	return Record{}, errors.New("tasks: updating the task: too many concurrent updates")
}

// notFound maps the page store's answers for a task that is not there
// (or no longer open: expired by the store's clock) to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, page.ErrNotFound) || errors.Is(err, page.ErrExpired) || errors.Is(err, page.ErrAnswered) {
		return fmt.Errorf("%w (%w)", ErrNotFound, err)
	}
	return err
}

// decode returns the record stored in e for id, refusing one that is not
// id's.
func decode(id string, e page.Entry) (Record, error) {
	var r Record
	if err := json.Unmarshal(e.Question, &r); err != nil {
		return Record{}, fmt.Errorf("tasks: task %s does not decode: %w", id, err)
	}
	if r.ID != id {
		return Record{}, fmt.Errorf("tasks: task %s holds the record of %q", id, r.ID)
	}
	r.Version = e.Version
	return r, nil
}
