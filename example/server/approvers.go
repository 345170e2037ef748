package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ApproversEnv names the environment variable that lists, comma-separated,
// the principals who approve deploy_to_production (one of them) and
// send_campaign (QuorumEnv of them). The requester is never one of the
// approvers of their own call: the question goes to the hosted page, whose
// link the requester passes on. It needs --pages and
// ELICIT_TRUSTED_USER_HEADER (the page must tell the approvers apart).
const ApproversEnv = "ELICIT_APPROVERS"

// QuorumEnv names the environment variable that sets how many distinct
// approvers send_campaign needs (default 2; deploy_to_production needs
// one).
const QuorumEnv = "ELICIT_QUORUM"

// approversFromEnv reads ApproversEnv and QuorumEnv: the approvers (nil
// when unset) and send_campaign's quorum (0: the app's default). pages
// and identity say whether the server serves hosted pages and reads a
// trusted identity, which approvers need.
func approversFromEnv(pages, identity bool) ([]string, int, error) {
	var list []string
	for p := range strings.SplitSeq(os.Getenv(ApproversEnv), ",") {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	quorum := 0
	if v := os.Getenv(QuorumEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, 0, fmt.Errorf("%s=%q: want a whole number of approvers, 1 or more", QuorumEnv, v)
		}
		quorum = n
	}
	switch {
	case len(list) == 0 && quorum != 0:
		return nil, 0, fmt.Errorf("%s is set but %s names no approver", QuorumEnv, ApproversEnv)
	case len(list) == 0:
		return nil, 0, nil
	case !pages:
		return nil, 0, fmt.Errorf("%s: the approvers answer on the hosted page: start with --pages (or %s=1)", ApproversEnv, PagesEnv)
	case !identity:
		return nil, 0, fmt.Errorf("%s: the hosted page must tell the approvers apart: set %s behind an identity-aware proxy", ApproversEnv, TrustedUserHeaderEnv)
	case quorum > len(list):
		return nil, 0, fmt.Errorf("%s=%d: %s names only %d approvers", QuorumEnv, quorum, ApproversEnv, len(list))
	}
	return list, quorum, nil
}
