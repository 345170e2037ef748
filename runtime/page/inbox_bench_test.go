package page

import (
	"context"
	"strconv"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// BenchmarkInbox reads bob's inbox of 100 open approval questions (of
// 1,000 pages in the memory store).
func BenchmarkInbox(b *testing.B) {
	f := newFixture(b)
	ctx := context.Background()
	s := schema(b, "Deploy", deployJSON)
	for i := range 1000 {
		who := "carol"
		if i%10 == 0 {
			who = "bob"
		}
		call := seal.BindCall("deploy", []byte(strconv.Itoa(i)), "alice")
		if _, err := f.p.Issue(ctx, &Question{Schema: s, Message: "Deploy?", Call: call, Client: strconv.Itoa(i),
			Approvers: &runtime.Approvers{Principals: []string{who}, Quorum: 1}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		w, err := f.p.Inbox(ctx, "bob")
		if err != nil || len(w) != 100 {
			b.Fatalf("%d, %v", len(w), err)
		}
	}
}
