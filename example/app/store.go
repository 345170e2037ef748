package app

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// DateLayout is the layout of dates in tool arguments and results
// (RFC 3339 full-date, JSON Schema format "date").
const DateLayout = "2006-01-02"

// Store is the example server's data: services and their branches, the
// restaurant's calendar, the organisations' key results, and what the
// tools did. It is safe for concurrent use. The zero value is empty; use
// NewStore for the demo data.
type Store struct {
	mu          sync.Mutex
	branches    map[string]string // service -> current branch
	fullyBooked map[string]bool   // date -> no table left
	krs         map[string][]KR   // org -> key results
	deploys     []Deployment
	bookings    []Booking
	campaigns   []Campaign
}

// KR is a key result and its recorded progress.
type KR struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Records []Record `json:"records"`
}

// Record is one measurement of a key result.
type Record struct {
	Period string  `json:"period"`
	Value  float64 `json:"value"`
	Target float64 `json:"target"`
}

// Deployment is a deploy that went out.
type Deployment struct {
	ID          string
	Service     string
	Branch      string
	Environment string
}

// Booking is a table booked.
type Booking struct {
	ID        string
	Date      string
	PartySize int
}

// Campaign is a campaign scheduled to send.
type Campaign struct {
	ID         string
	Name       string
	Recipients int
	Window     string
}

// NewStore returns a store with the demo data: services billing (on
// release/2.4), search (on main) and web (on feature/new-nav); Christmas
// Eve to Boxing Day and New Year's Eve 2026 fully booked; key results
// for orgs acme and globex.
func NewStore() *Store {
	return &Store{
		branches: map[string]string{
			"billing": "release/2.4",
			"search":  "main",
			"web":     "feature/new-nav",
		},
		fullyBooked: map[string]bool{
			"2026-12-24": true,
			"2026-12-25": true,
			"2026-12-26": true,
			"2026-12-31": true,
		},
		krs: map[string][]KR{
			"acme": {
				{ID: "kr-activation", Title: "Raise week-1 activation to 45%", Records: []Record{
					{Period: "2026-Q1", Value: 38, Target: 45},
					{Period: "2026-Q2", Value: 41.5, Target: 45},
				}},
				{ID: "kr-churn", Title: "Cut monthly churn below 2%", Records: []Record{
					{Period: "2026-Q1", Value: 2.6, Target: 2},
					{Period: "2026-Q2", Value: 2.2, Target: 2},
				}},
				{ID: "kr-nps", Title: "Reach an NPS of 50", Records: []Record{
					{Period: "2026-Q2", Value: 47, Target: 50},
				}},
			},
			"globex": {
				{ID: "kr-latency", Title: "p99 API latency under 300 ms", Records: []Record{
					{Period: "2026-Q2", Value: 340, Target: 300},
				}},
			},
		},
	}
}

// Branch returns the current branch of service, and whether the service
// is known.
func (s *Store) Branch(service string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.branches[service]
	return b, ok
}

// Deploy records a deployment and returns it.
func (s *Store) Deploy(service, branch, env string) Deployment {
	return add(s, &s.deploys, "dep", func(id string) Deployment {
		return Deployment{ID: id, Service: service, Branch: branch, Environment: env}
	})
}

// Deployments returns the deployments made so far.
func (s *Store) Deployments() []Deployment { return list(s, &s.deploys) }

// FullyBooked reports whether date has no table left.
func (s *Store) FullyBooked(date string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fullyBooked[date]
}

// NextFree returns the first date after date that still has a table.
func (s *Store) NextFree(date string) string {
	d, err := time.Parse(DateLayout, date)
	if err != nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		d = d.AddDate(0, 0, 1)
		if next := d.Format(DateLayout); !s.fullyBooked[next] {
			return next
		}
	}
}

// Book records a booking and returns it.
func (s *Store) Book(date string, partySize int) Booking {
	return add(s, &s.bookings, "bk", func(id string) Booking {
		return Booking{ID: id, Date: date, PartySize: partySize}
	})
}

// Bookings returns the bookings made so far.
func (s *Store) Bookings() []Booking { return list(s, &s.bookings) }

// KRs returns the key results of org (nil for an unknown org).
func (s *Store) KRs(org string) []KR {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.krs[org])
	for i := range out {
		out[i].Records = slices.Clone(out[i].Records)
	}
	return out
}

// Schedule records a campaign to send and returns it.
func (s *Store) Schedule(name string, recipients int, window string) Campaign {
	return add(s, &s.campaigns, "cmp", func(id string) Campaign {
		return Campaign{ID: id, Name: name, Recipients: recipients, Window: window}
	})
}

// Campaigns returns the campaigns scheduled so far.
func (s *Store) Campaigns() []Campaign { return list(s, &s.campaigns) }

// add appends the record that build makes from the next id of *records
// ("prefix-1", "prefix-2"...) and returns it, under s.mu.
func add[T any](s *Store, records *[]T, prefix string, build func(id string) T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := build(fmt.Sprintf("%s-%d", prefix, len(*records)+1))
	*records = append(*records, r)
	return r
}

// list returns a copy of *records, under s.mu.
func list[T any](s *Store, records *[]T) []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(*records)
}
