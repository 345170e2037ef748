package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

func TestApproversAdmit(t *testing.T) {
	ctx := context.Background()
	member := func(_ context.Context, who, group string) (bool, error) {
		if who == "broken" {
			return false, errors.New("directory down")
		}
		return group == "ops" && (who == "dave" || who == "alice"), nil
	}
	p := &runtime.Approvers{Principals: []string{"alice", "bob"}, Groups: []string{"ops"}, ExcludeRequester: true}
	for _, tc := range []struct {
		approver string
		member   runtime.MemberFunc
		want     error
	}{
		{"alice", member, runtime.ErrRequesterExcluded}, // listed and in the group, but the requester
		{"bob", member, nil},
		{"dave", member, nil},
		{"dave", nil, runtime.ErrNotApprover}, // no hook: no group admits
		{"mallory", member, runtime.ErrNotApprover},
		{"broken", member, runtime.ErrNotApprover}, // a failing hook refuses
		{"", member, runtime.ErrNotApprover},
	} {
		err := p.Admit(ctx, "alice", tc.approver, tc.member)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("Admit(%q): %v, want %v", tc.approver, err, tc.want)
		}
	}
	if !errors.Is(runtime.ErrRequesterExcluded, runtime.ErrNotApprover) {
		t.Error("ErrRequesterExcluded does not match ErrNotApprover")
	}
	// Not excluded: the requester answers when listed.
	open := &runtime.Approvers{Principals: []string{"alice"}}
	if err := open.Admit(ctx, "alice", "alice", nil); err != nil {
		t.Errorf("listed requester, not excluded: %v", err)
	}
	// No policy: only the requester.
	var none *runtime.Approvers
	if none.Admit(ctx, "alice", "alice", nil) != nil || !errors.Is(none.Admit(ctx, "alice", "bob", nil), runtime.ErrNotApprover) || none.Need() != 1 {
		t.Error("a nil policy does not admit exactly the requester")
	}
}

func TestApproversWho(t *testing.T) {
	p := runtime.Approvers{Principals: []string{"bob", "carol"}, Groups: []string{"ops"}, ExcludeRequester: true, Quorum: 2}
	if got, want := p.Who(), "2 different people among bob, carol, members of ops (not the person who asked)"; got != want {
		t.Errorf("Who() = %q, want %q", got, want)
	}
	p.Quorum, p.ExcludeRequester, p.Groups = 0, false, nil
	if got, want := p.Who(), "one of bob, carol"; got != want {
		t.Errorf("Who() = %q, want %q", got, want)
	}
}

// A policy that admits nobody fails the ask before anything is asked.
func TestWithApproversInvalid(t *testing.T) {
	asked := 0
	ask := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		asked++
		return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"confirm": true}}, nil
	})
	for _, p := range []runtime.Approvers{{}, {Principals: []string{"bob"}, Quorum: -1}, {Principals: []string{""}}} {
		if _, err := runtime.AskConfirm(context.Background(), ask, "Deploy?", runtime.WithApprovers(p)); !errors.Is(err, runtime.ErrInvalidApprovers) {
			t.Errorf("%+v: %v, want ErrInvalidApprovers", p, err)
		}
	}
	if asked != 0 {
		t.Errorf("asked %d times", asked)
	}
	// The policy reaches the Asker with the request.
	var got *runtime.Approvers
	ask = runtime.AskerFunc(func(_ context.Context, req *runtime.Request) (*runtime.Response, error) {
		got = req.Approvers
		return &runtime.Response{Action: runtime.ActionDecline}, nil
	})
	if _, err := runtime.AskConfirm(context.Background(), ask, "Deploy?", runtime.WithApprovers(runtime.Approvers{Principals: []string{"bob"}, Quorum: 1})); err != nil || got == nil || got.Principals[0] != "bob" {
		t.Errorf("request's Approvers %+v, %v", got, err)
	}
}

// A URL-mode ask takes no approvers: its accept is not an approval.
func TestWithApproversNotURL(t *testing.T) {
	ask := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		return &runtime.Response{Action: runtime.ActionAccept}, nil
	})
	p := runtime.WithApprovers(runtime.Approvers{Principals: []string{"bob"}})
	if _, err := runtime.AskURL(context.Background(), ask, "Open", "https://example.com/x", p); !errors.Is(err, runtime.ErrInvalidApprovers) {
		t.Errorf("AskURL: %v", err)
	}
	if _, err := runtime.AskURLFlow(context.Background(), ask, "Open", func(id string) string { return "https://example.com/" + id }, p); !errors.Is(err, runtime.ErrInvalidApprovers) {
		t.Errorf("AskURLFlow: %v", err)
	}
}
