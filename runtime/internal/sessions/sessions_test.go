package sessions

import (
	"slices"
	"testing"
	"time"
)

func TestAdmit(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(s), 0) }
	entries := []Entry{
		{ID: "a1", Client: "a", Created: at(1)},
		{ID: "a2", Client: "a", Created: at(2)},
		{ID: "a3", Client: "a", Created: at(3), Busy: true},
		{ID: "b1", Client: "b", Created: at(0)},
		{ID: "u", Created: at(-1)}, // opened before the table saw it
	}
	for _, tc := range []struct {
		name             string
		client           string
		perClient, total int
		opening          int
		entries          []Entry
		wantClosed       []string
		wantOK           bool
	}{
		{name: "room", client: "c", perClient: 3, total: 10, entries: entries, wantOK: true},
		{name: "at its budget, a client loses its own oldest idle", client: "a", perClient: 3, total: 10, entries: entries, wantClosed: []string{"a1"}, wantOK: true},
		{name: "a full table sheds the heaviest client's oldest idle", client: "c", perClient: 5, total: 5, entries: entries, wantClosed: []string{"a1"}, wantOK: true},
		{name: "sessions being opened count", client: "c", perClient: 5, total: 7, opening: 2, entries: entries, wantClosed: []string{"a1"}, wantOK: true},
		{name: "shedding goes on to the next heaviest", client: "c", perClient: 5, total: 3, entries: entries, wantClosed: []string{"a1", "a2", "b1"}, wantOK: true},
		{name: "busy and unknown sessions are never closed", client: "c", perClient: 5, total: 2, entries: entries, wantOK: false},
		{name: "a client whose sessions are all busy is refused", client: "a", perClient: 1, total: 10, entries: []Entry{{ID: "a3", Client: "a", Busy: true}}, wantOK: false},
		{name: "no budgets", client: "a", entries: entries, wantOK: true},
	} {
		closed, ok := Admit(tc.entries, tc.client, tc.perClient, tc.total, tc.opening)
		if ok != tc.wantOK || ok && !slices.Equal(closed, tc.wantClosed) {
			t.Errorf("%s: Admit = %v, %t; want %v, %t", tc.name, closed, ok, tc.wantClosed, tc.wantOK)
		}
	}
}
