package main

import (
	"slices"
	"strings"
	"testing"
)

func TestApproversFromEnv(t *testing.T) {
	for _, tc := range []struct {
		approvers, quorum string
		pages, identity   bool
		want              []string
		wantQuorum        int
		err               string
	}{
		{want: nil},
		{approvers: " bob, carol ,,bob", pages: true, identity: true, want: []string{"bob", "carol"}},
		{approvers: "bob,carol", quorum: "2", pages: true, identity: true, want: []string{"bob", "carol"}, wantQuorum: 2},
		{approvers: "bob,carol", quorum: "3", pages: true, identity: true, err: "names only 2"},
		{approvers: "bob", quorum: "0", pages: true, identity: true, err: "1 or more"},
		{approvers: "bob", quorum: "two", pages: true, identity: true, err: "1 or more"},
		{quorum: "2", err: "names no approver"},
		{approvers: "bob", identity: true, err: "--pages"},
		{approvers: "bob", pages: true, err: TrustedUserHeaderEnv},
	} {
		t.Setenv(ApproversEnv, tc.approvers)
		t.Setenv(QuorumEnv, tc.quorum)
		got, q, err := approversFromEnv(tc.pages, tc.identity)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q %q: err %v, want %q", tc.approvers, tc.quorum, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want) || q != tc.wantQuorum):
			t.Errorf("%q %q: %v %d %v, want %v %d", tc.approvers, tc.quorum, got, q, err, tc.want, tc.wantQuorum)
		}
	}
}
