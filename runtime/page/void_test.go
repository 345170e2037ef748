package page

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// A page whose flow its client ended yields no answer afterwards: an
// answer given on it is taken, and an open page closes, so a person who
// answers it later is told it is answered.
func TestVoid(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	s := schema(t, "Deploy", deployJSON)

	answered := f.issue(t, s)
	cookies, csrf := f.open(t, answered.URL)
	if rec := f.do(t, "POST", answered.URL, "alice", cookies, deployPost(csrf, "environment", "production", "confirmed", "true")); rec.Code != http.StatusOK {
		t.Fatalf("answer: %d %s", rec.Code, rec.Body)
	}
	if err := f.p.Void(ctx, answered.ID, f.call, runtime.ActionDecline); err != nil {
		t.Fatal(err)
	}
	if resp, err := f.p.Take(ctx, answered.ID, f.call); !errors.Is(err, ErrTaken) {
		t.Fatalf("answered page after Void: Take = %+v, %v; want ErrTaken", resp, err)
	}

	open := f.issue(t, s)
	cookies, csrf = f.open(t, open.URL)
	if err := f.p.Void(ctx, open.ID, f.call, runtime.ActionCancel); err != nil {
		t.Fatal(err)
	}
	if rec := f.do(t, "POST", open.URL, "alice", cookies, deployPost(csrf, "environment", "production", "confirmed", "true")); rec.Code != http.StatusConflict {
		t.Fatalf("post on a voided page: %d, want 409", rec.Code)
	}
	if resp, err := f.p.Take(ctx, open.ID, f.call); !errors.Is(err, ErrTaken) {
		t.Fatalf("open page after Void: Take = %+v, %v; want ErrTaken", resp, err)
	}

	// Another call's page is not voided; a page that is gone is no error.
	other := f.issue(t, s)
	if err := f.p.Void(ctx, other.ID, seal.BindCall("deploy_to_production", []byte(`{"service":"web"}`), "alice"), runtime.ActionDecline); !errors.Is(err, ErrForeign) {
		t.Fatalf("foreign Void: %v", err)
	}
	if err := f.p.Void(ctx, "no-such-page", f.call, runtime.ActionDecline); err != nil {
		t.Fatalf("Void of no page: %v", err)
	}
}
