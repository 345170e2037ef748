package seal

import (
	"encoding/binary"
	"reflect"
	"testing"
	"time"

	"github.com/elicitgen/elicitgen/runtime"
)

func TestCallInfoRoundTrip(t *testing.T) {
	started := time.UnixMilli(1_700_000_000_123)
	st := &State{
		Answers: map[string]*runtime.Response{"Deploy": {Action: runtime.ActionDecline}},
		Flows:   map[string]string{"url": "f00d"},
		Call:    &CallInfo{ID: "c0ffee", Round: 2, Started: started, Sealed: started.Add(1500 * time.Millisecond)},
	}
	s := &Sealer{Keys: NewRandomKeyRing()}
	b := BindCall("deploy", []byte(`{}`), "alice")
	sealed, err := s.Seal(b, st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Open(b, sealed)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Call, st.Call) {
		t.Errorf("Call = %+v, want %+v", got.Call, st.Call)
	}
	if !reflect.DeepEqual(got.Flows, st.Flows) {
		t.Errorf("Flows = %v, want %v (the reserved entry must not show)", got.Flows, st.Flows)
	}
	if r, ok := got.Answer("Deploy"); !ok || r.Action != runtime.ActionDecline {
		t.Errorf("answer = %v %v", r, ok)
	}
}

// A state without CallInfo opens with a nil Call, and its payload holds
// no call entry: answer count, flow count, (key, id), asked count, epoch.
func TestCallInfoAbsentIsTheEarlierFormat(t *testing.T) {
	st := &State{Flows: map[string]string{"url": "f00d"}}
	plain, err := appendState(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 0, 0, 1, 3, 'u', 'r', 'l', 4, 'f', '0', '0', 'd', 0, 0}
	if string(plain) != string(want) {
		t.Fatalf("payload = %q, want %q", plain, want)
	}
	d := stateDecoder{s: string(plain)}
	got := d.index()
	if d.err || got.Call != nil {
		t.Fatalf("decoded %+v err=%v", got, d.err)
	}
	// The payload of an earlier release ends before the epoch: it opens
	// with epoch zero, which every replay store refuses at the claim.
	d = stateDecoder{s: string(plain[:len(plain)-1])}
	if got := d.index(); d.err || got.Epoch != 0 || got.Flows["url"] != "f00d" {
		t.Fatalf("payload without an epoch: %+v err=%v", got, d.err)
	}
}

// An earlier release reads the CallInfo entry as one more flow (its
// decoder knows no reserved key) and seals it again unchanged: decoding
// that payload here gives the CallInfo back.
func TestCallInfoSurvivesAnEarlierRelease(t *testing.T) {
	st := &State{Flows: map[string]string{}, Call: &CallInfo{ID: "abc", Round: 1}}
	plain, err := appendState(nil, st)
	if err != nil {
		t.Fatal(err)
	}
	// What the earlier decoder sees: flows with the raw entry.
	rest := plain[4:]
	n, k := binary.Uvarint(rest)
	if n != 1 {
		t.Fatalf("flow count = %d, want 1", n)
	}
	rest = rest[k:]
	kl, k := binary.Uvarint(rest)
	if key := string(rest[k : k+int(kl)]); key != callFlowKey {
		t.Fatalf("entry key = %q", key)
	}
	d := stateDecoder{s: string(plain)}
	if got := d.index(); d.err || got.Call == nil || got.Call.ID != "abc" || got.Call.Round != 1 || len(got.Flows) != 0 {
		t.Fatalf("decoded %+v err=%v", got, d.err)
	}
}

func TestParseCallInfoIgnoresUnknown(t *testing.T) {
	for _, s := range []string{"", "c2 x 1 0 0 ", "c1 x y 0 0 ", "c1 x"} {
		if c := parseCallInfo(s); c != nil {
			t.Errorf("parseCallInfo(%q) = %+v, want zero", s, c)
		}
	}
}
