// Package webhook delivers an approver's one-time link (page.Notice) as a
// webhook signed as the Standard Webhooks specification says
// (https://www.standardwebhooks.com): headers webhook-id,
// webhook-timestamp and webhook-signature ("v1," and the base64
// HMAC-SHA256 of id.timestamp.body under the whsec_ secret), by the
// specification's own Go library. The secret never travels: the body
// carries the notice alone.
package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/elicitgen/elicitgen/runtime/internal/wire"
	"github.com/elicitgen/elicitgen/runtime/page"
)

// EventType is the type of the event a Webhook posts.
const EventType = "elicit.approval.requested"

// DefaultTimeout bounds one delivery when the Webhook has no Client.
const DefaultTimeout = 10 * time.Second

// Errors of New and Notify.
var (
	// ErrConfig: the URL or the secret is unusable.
	ErrConfig = errors.New("elicit webhook: invalid configuration")
	// ErrDelivery: the receiver did not accept the notice (a transport
	// failure or a status other than 2xx).
	ErrDelivery = errors.New("elicit webhook: delivery failed")
)

// Webhook is a page.Notifier that posts each notice to URL, signed with
// the secret. Make it with New.
type Webhook struct {
	url    string
	signer *standardwebhooks.Webhook
	// Client posts the notices; nil means a client with DefaultTimeout.
	Client *http.Client
	// Now is the clock of the webhook-timestamp header; nil means
	// time.Now.
	Now func() time.Time
}

var _ page.Notifier = (*Webhook)(nil)

// New returns the Webhook that posts to url (https, or http on a
// loopback host), signed with secret ("whsec_" and the base64 key, as
// the specification writes it). A bad URL or secret gives an error
// matching ErrConfig.
func New(url, secret string) (*Webhook, error) {
	if err := wire.CheckURL(url); err != nil {
		return nil, fmt.Errorf("%w: URL: %w", ErrConfig, err)
	}
	if secret == "" {
		return nil, fmt.Errorf("%w: no secret", ErrConfig)
	}
	s, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		return nil, fmt.Errorf("%w: secret: %w", ErrConfig, err)
	}
	return &Webhook{url: url, signer: s}, nil
}

// Payload is the body a Webhook posts: the specification's type,
// timestamp and data.
type Payload struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      Data      `json:"data"`
}

// Data is the notice a Payload carries.
type Data struct {
	Page      string    `json:"page"`
	Approver  string    `json:"approver"`
	Link      string    `json:"link"`
	Tool      string    `json:"tool"`
	Requester string    `json:"requester"`
	Message   string    `json:"message,omitempty"`
	Need      int       `json:"need"`
	Expires   time.Time `json:"expires"`
}

// Notify implements page.Notifier: it posts n, signed, and returns an
// error matching ErrDelivery unless the receiver answers 2xx.
func (w *Webhook) Notify(ctx context.Context, n page.Notice) error {
	now := time.Now()
	if w.Now != nil {
		now = w.Now()
	}
	body, err := json.Marshal(&Payload{Type: EventType, Timestamp: now.UTC(), Data: Data{
		Page: n.Page, Approver: n.Approver, Link: n.Link, Tool: n.Tool, Requester: n.Requester,
		Message: n.Message, Need: n.Need, Expires: n.Expires.UTC(),
	}})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDelivery, err)
	}
	var idb [16]byte
	rand.Read(idb[:])
	id := "msg_" + hex.EncodeToString(idb[:])
	sig, err := w.signer.Sign(id, now, body)
	if err != nil {
		return fmt.Errorf("%w: signing: %w", ErrDelivery, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDelivery, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(standardwebhooks.HeaderWebhookID, id)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, fmt.Sprint(now.Unix()))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	c := w.Client
	if c == nil {
		c = &http.Client{Timeout: DefaultTimeout}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrDelivery, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("%w: %s answered %s", ErrDelivery, w.url, resp.Status)
	}
	return nil
}
