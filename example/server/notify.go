package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/elicitgen/elicitgen/runtime/page"
	"github.com/elicitgen/elicitgen/runtime/page/webhook"
)

// Environment variables of the approvers' notices.
const (
	// NotifyURLEnv is the URL (https, or http on a loopback host) that
	// receives, for each approver of a new approval page
	// (ELICIT_APPROVERS), a webhook carrying their one-time link to it,
	// signed as the Standard Webhooks specification says.
	NotifyURLEnv = "ELICIT_NOTIFY_URL"
	// NotifySecretEnv is the webhook's signing secret ("whsec_" and
	// base64), which the receiver verifies with; it never travels.
	NotifySecretEnv = "ELICIT_NOTIFY_SECRET"
)

// notifierFromEnv returns the webhook NotifyURLEnv and NotifySecretEnv
// configure, nil when neither is set, or an error when one is set
// without the other or either is unusable.
func notifierFromEnv() (page.Notifier, error) {
	u, secret := os.Getenv(NotifyURLEnv), os.Getenv(NotifySecretEnv)
	switch {
	case u == "" && secret == "":
		return nil, nil
	case u == "":
		return nil, fmt.Errorf("%s is set but %s is not: where should the approvers' notices go?", NotifySecretEnv, NotifyURLEnv)
	case secret == "":
		return nil, fmt.Errorf("%s is set but %s is not: the notices must be signed (whsec_ and a base64 key)", NotifyURLEnv, NotifySecretEnv)
	}
	w, err := webhook.New(u, secret)
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", NotifyURLEnv, NotifySecretEnv, err)
	}
	return w, nil
}

// notifyFailed logs a notice the webhook did not deliver (the link is
// not logged: it opens the page once for its approver).
func notifyFailed(_ context.Context, n page.Notice, err error) {
	log.Printf("approver notice not delivered: tool=%s page=%s approver=%s: %v", logName(n.Tool), n.Page, logName(n.Approver), err)
}
