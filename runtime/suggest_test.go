package runtime

import (
	"context"
	"strings"
	"testing"
)

// TestWithOptionsSuggestsProperty: WithOptions given the Go field name
// (or a near miss) names the property to use instead; a name close to
// nothing lists the fields that take options.
func TestWithOptionsSuggestsProperty(t *testing.T) {
	ask := AskerFunc(func(context.Context, *Request) (*Response, error) { return &Response{Action: ActionDecline}, nil })
	for _, tc := range []struct{ field, want string }{
		{"KR", `WithOptions: no such field; did you mean "kr"?`},
		{"kR_", `did you mean "kr"?`},
		{"priority", `WithOptions: no such field; the field that takes options is "kr"`},
	} {
		_, err := Ask[triage](context.Background(), ask, triageForm(), "pick", WithOptions(tc.field, Option{Value: "a"}))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("WithOptions(%q): %v, want it to say %q", tc.field, err, tc.want)
		}
	}
	_, err := Ask[triage](context.Background(), ask, triageForm(), "pick", WithOptions("kr", Option{Value: "a"}), WithDefault("Kr", "a"))
	if err == nil || !strings.Contains(err.Error(), `WithDefault: no such field; did you mean "kr"?`) {
		t.Errorf("WithDefault(%q): %v", "Kr", err)
	}
}
