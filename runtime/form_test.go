package runtime_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// deploy is the README's Deploy: an optional Replicas with min=1,default=2.
type deploy struct {
	Branch   string
	Replicas int
	Note     *string
	Tags     []string
}

var deployForm = runtime.NewForm((*deploy)(nil), &runtime.Schema{Name: "Deploy", Properties: []runtime.Property{
	{Name: "branch", Kind: runtime.KindString, Required: true},
	{Name: "replicas", Kind: runtime.KindInteger, Minimum: ptr(1.0), Default: int64(2)},
	{Name: "note", Kind: runtime.KindString, MinLength: ptr(1)},
	{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}, {Value: "b"}}},
}}, "Branch", "Replicas", "Note", "Tags")

func TestAcceptLeavesOutZeroOptionalFields(t *testing.T) {
	resp, err := deployForm.Accept(&deploy{Branch: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Content) != 1 || resp.Content["branch"] != "main" {
		t.Fatalf("content: %v", resp.Content)
	}
	var v deploy
	err = deployForm.Decode(resp.Content, &v)
	if err != nil || v.Replicas != 2 || v.Note != nil {
		t.Fatalf("round trip: %+v %v", v, err)
	}
	note := "hi"
	resp, err = deployForm.Accept(&deploy{Branch: "main", Replicas: 3, Note: &note, Tags: []string{"b"}})
	if err != nil || resp.Content["replicas"] != int64(3) || resp.Content["note"] != "hi" || len(resp.Content) != 4 {
		t.Fatalf("content: %v %v", resp.Content, err)
	}
	if _, err := deployForm.Accept(&deploy{Branch: "main", Replicas: -1}); err == nil {
		t.Fatal("replicas=-1 accepted")
	}
}

// A path that does not match the Go type is an error on every use, not a
// panic.
func TestNewFormMismatch(t *testing.T) {
	f := runtime.NewForm((*deploy)(nil), &runtime.Schema{Name: "D", Properties: []runtime.Property{{Name: "x", Kind: runtime.KindString}}}, "Nope")
	if err := f.Decode(map[string]any{}, &deploy{}); err == nil || !strings.Contains(err.Error(), `no field "Nope"`) {
		t.Fatalf("decode: %v", err)
	}
	if err := f.Validate(&deploy{}); err == nil {
		t.Fatal("validate passed")
	}
}

// hostileTags is a multi-select answer of n items, all the same valid
// value: the worst case for a repetition check.
func hostileTags(n int) []any {
	items := make([]any, n)
	for i := range items {
		items[i] = "a"
	}
	return items
}

var pickForm = runtime.NewForm((*deploy)(nil), &runtime.Schema{Name: "Pick", Properties: []runtime.Property{
	{Name: "branch", Kind: runtime.KindString},
	{Name: "replicas", Kind: runtime.KindInteger},
	{Name: "note", Kind: runtime.KindString},
	{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}, {Value: "b"}}, MaxItems: ptr(2)},
}}, "Branch", "Replicas", "Note", "Tags")

var unboundedForm = runtime.NewForm((*deploy)(nil), &runtime.Schema{Name: "Pick", Properties: []runtime.Property{
	{Name: "branch", Kind: runtime.KindString},
	{Name: "replicas", Kind: runtime.KindInteger},
	{Name: "note", Kind: runtime.KindString},
	{Name: "tags", Kind: runtime.KindMulti, Options: []runtime.Option{{Value: "a"}, {Value: "b"}}},
}}, "Branch", "Replicas", "Note", "Tags")

// A huge multi-select answer is refused by its count before any item is
// looked at, and every error message stays small.
func TestHostileMultiSelect(t *testing.T) {
	err := pickForm.Decode(map[string]any{"tags": hostileTags(50000)}, &deploy{})
	if !errors.Is(err, runtime.ErrInvalidContent) || !strings.Contains(err.Error(), "at most 2 items") {
		t.Fatalf("maxItems: %v", err)
	}
	if len(err.Error()) > 200 {
		t.Fatalf("error of %d bytes", len(err.Error()))
	}
	// Without maxItems: every item is repeated, yet the message is bounded.
	err = unboundedForm.Decode(map[string]any{"tags": hostileTags(50000)}, &deploy{})
	if !errors.Is(err, runtime.ErrInvalidContent) || !strings.Contains(err.Error(), "is repeated") {
		t.Fatalf("repeated: %v", err)
	}
	if len(err.Error()) > 1000 {
		t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
	}
	// Long unknown values are clipped in messages.
	long := strings.Repeat("z", 100000)
	err = unboundedForm.Decode(map[string]any{"tags": []any{long}, "branch": 1.0, long: 1.0}, &deploy{})
	if err == nil || len(err.Error()) > 1000 {
		t.Fatalf("long value: %d bytes", len(err.Error()))
	}
}

// The error list is capped: a hundred unknown keys give MaxErrors entries
// and a summary.
func TestErrorsCapped(t *testing.T) {
	c := map[string]any{}
	for i := range 100 {
		c[strings.Repeat("k", i+1)] = 1.0
	}
	err := pickForm.Decode(c, &deploy{})
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) || len(ve.Fields) != runtime.MaxErrors+1 || !strings.Contains(err.Error(), "and 80 more problems") {
		t.Fatalf("%d fields: %.200v", len(ve.Fields), err)
	}
}

// BenchmarkHostileMultiSelect decodes the largest multi-select answer that
// fits in a 4 MiB body (about 500,000 one-letter items), refused by
// maxItems, and the same without maxItems, all items repeated. Both cost
// time linear in the items.
func BenchmarkHostileMultiSelect(b *testing.B) {
	for _, n := range []int{50000, 500000} {
		c := map[string]any{"tags": hostileTags(n)}
		b.Run("maxItems/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if err := pickForm.Decode(c, &deploy{}); err == nil {
					b.Fatal("accepted")
				}
			}
		})
		b.Run("unbounded/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if err := unboundedForm.Decode(c, &deploy{}); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
