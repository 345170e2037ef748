package receipt_test

import (
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/receipt"
)

// A question answered by approvers (runtime.WithApprovers) names them in
// its receipt, in order, beside the requester: never the requester as the
// one who approved.
func TestFieldsOfApprovers(t *testing.T) {
	req := &runtime.Request{Mode: runtime.ModeForm, Schema: &runtime.Schema{Name: "Deploy"}}
	q := adapter.Decided{
		Decision: &runtime.Decision{Request: req, Action: runtime.ActionDecline, Approvers: []string{"carol"}},
		Tool:     "deploy", Principal: "alice", Approvers: []string{"bob", "carol"},
	}
	f, err := receipt.FieldsOf("srv", q, receipt.VerifiedTrustedHeader)
	if err != nil {
		t.Fatal(err)
	}
	if f.Requester != "alice" || len(f.Approvers) != 2 || f.Approvers[0].Principal != "bob" || f.Approvers[1].Principal != "carol" ||
		f.Approvers[1].Verified != receipt.VerifiedTrustedHeader {
		t.Fatalf("fields: requester %q, approvers %+v", f.Requester, f.Approvers)
	}
}
