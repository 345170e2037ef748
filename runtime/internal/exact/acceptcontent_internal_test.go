package exact

import (
	"errors"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// A form-mode accept without content is malformed input even when the
// form requires nothing: it never becomes an accept of the defaults. A
// URL-mode accept has no content.
func TestAcceptContent(t *testing.T) {
	form := &runtime.Request{Mode: runtime.ModeForm, Schema: &runtime.Schema{Name: "Prefs"}}
	url := &runtime.Request{Mode: runtime.ModeURL}
	for _, tc := range []struct {
		req  *runtime.Request
		resp *runtime.Response
		bad  bool
	}{
		{form, &runtime.Response{Action: runtime.ActionAccept}, true},
		{form, &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{}}, false},
		{form, &runtime.Response{Action: runtime.ActionDecline}, false},
		{url, &runtime.Response{Action: runtime.ActionAccept}, false},
	} {
		_, err := AcceptContent(tc.req)(tc.resp, nil)
		if got := errors.Is(err, runtime.ErrMalformedInput); got != tc.bad {
			t.Errorf("%s %+v: %v, want malformed=%t", tc.req.Mode, tc.resp, err, tc.bad)
		}
	}
}
