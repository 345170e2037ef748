package elicitimpl_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/elicitimpl"
)

type deploy struct {
	Branch string
	Prod   bool
}

var deployForm = elicitimpl.Form{Type: (*deploy)(nil), Spec: `{"name":"deploy","properties":[
{"name":"branch","field":"Branch","kind":"string","required":true,"minLength":1},
{"name":"prod","field":"Prod","kind":"boolean","default":false}]}`}

// answer is an Asker that answers every question with r.
func answer(r *runtime.Response) runtime.Asker {
	return runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) { return r, nil })
}

func TestFormAsk(t *testing.T) {
	ctx := context.Background()
	var v *deploy
	act, err := deployForm.Ask(ctx, answer(&runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{"branch": "main"}}), &v, "Deploy?")
	if err != nil || act != runtime.ActionAccept || v == nil || v.Branch != "main" {
		t.Fatalf("accept: %v %v %+v", act, err, v)
	}
	for _, r := range []*runtime.Response{
		{Action: runtime.ActionDecline},
		{Action: runtime.ActionCancel},
		{Action: runtime.ActionAccept, Content: map[string]any{"branch": ""}}, // invalid
	} {
		var v *deploy
		act, err := deployForm.Ask(ctx, answer(r), &v, "Deploy?")
		if v != nil {
			t.Errorf("%s (%v, %v): got a value %+v, want nil", r.Action, act, err, v)
		}
	}
	if _, err := deployForm.Ask(ctx, answer(elicitimpl.Decline()), new(deploy), "Deploy?"); err == nil {
		t.Errorf("a *deploy for a **deploy: %v", err)
	}
	if s := deployForm.Schema(); s.Name != "deploy" || len(s.Properties) != 2 {
		t.Fatalf("Schema: %+v", s)
	}
	// Schema returns a copy: changing it changes nothing else.
	deployForm.Schema().Properties[0].Title = "changed"
	if deployForm.Schema().Properties[0].Title != "" {
		t.Error("Schema returned the form's own schema")
	}
	if err := deployForm.Validate(&deploy{}); err == nil {
		t.Error("Validate accepted an empty branch")
	}
	if r, err := deployForm.Accept(&deploy{Branch: "b"}); err != nil || r.Content["branch"] != "b" {
		t.Errorf("Accept: %+v %v", r, err)
	}
}

// A spec that does not read fails every use with ErrSpec, never panics
// and never answers.
func TestFormBadSpec(t *testing.T) {
	bad := &elicitimpl.Form{Type: (*deploy)(nil), Spec: `{"name":"deploy","properties":[{"name":"branch","kind":"text"}]}`}
	var v *deploy
	asked := false
	a := runtime.AskerFunc(func(context.Context, *runtime.Request) (*runtime.Response, error) {
		asked = true
		return &runtime.Response{Action: runtime.ActionAccept}, nil
	})
	if _, err := bad.Ask(context.Background(), a, &v, "?"); !errors.Is(err, elicitimpl.ErrSpec) || asked || v != nil {
		t.Errorf("Ask: %v asked=%t v=%v", err, asked, v)
	}
	if err := bad.Validate(&deploy{Branch: "x"}); !errors.Is(err, elicitimpl.ErrSpec) {
		t.Errorf("Validate: %v", err)
	}
	if _, err := bad.Accept(&deploy{Branch: "x"}); !errors.Is(err, elicitimpl.ErrSpec) {
		t.Errorf("Accept: %v", err)
	}
	if s := bad.Schema(); s.Name != "deploy" || len(s.Properties) != 0 {
		t.Errorf("Schema: %+v", s)
	}
	// A spec naming a field the type lacks is the runtime's mismatch error.
	other := &elicitimpl.Form{Type: (*deploy)(nil), Spec: `{"name":"deploy","properties":[{"name":"x","field":"Missing","kind":"string"}]}`}
	if err := other.Validate(&deploy{}); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("mismatched field: %v", err)
	}
}

// The first use builds the form once, whichever goroutine comes first.
func TestFormFirstUseConcurrent(t *testing.T) {
	d := &elicitimpl.Form{Type: (*deploy)(nil), Spec: deployForm.Spec}
	errs := make(chan error, 8)
	for range 8 {
		go func() { errs <- d.Validate(&deploy{Branch: "main"}) }()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	f1, _ := elicitimpl.Runtime(d)
	f2, _ := elicitimpl.Runtime(d)
	if f1 == nil || f1 != f2 {
		t.Errorf("Runtime returned %p then %p, want one form", f1, f2)
	}
}
