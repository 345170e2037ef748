package sdktest

import (
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestReaskKeepsValidAnswers: over the wire, on every era and both SDKs,
// the form asked again after an invalid answer carries the answers that
// were valid as its defaults, so that the person's client shows them
// filled in (2025-06-18 schemas carry boolean defaults only).
func TestReaskKeepsValidAnswers(t *testing.T) {
	for _, sdk := range sdks {
		for _, version := range versions {
			t.Run(sdk+"/"+version, func(t *testing.T) {
				s := newServer(t, sdk, runtime.UnavailableAuto)
				answer := map[string]any{"branch": "release-7", "env": "prod", "replicas": 3, "confirm": true}
				u := &recorder{f: func(n int, _ question) (*runtime.Response, error) {
					c := map[string]any{}
					for k, v := range answer {
						c[k] = v
					}
					if n == 1 {
						c["bogus"] = 1 // both SDKs let an unknown key through to the runtime
					}
					return &runtime.Response{Action: runtime.ActionAccept, Content: c}, nil
				}}
				c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: u.answer})
				res, err := c.call(callCtx(t), "retry_deploy", nil)
				if err != nil || res.IsError || res.Text != "deployed release-7 to prod x3 confirm=true" {
					t.Fatalf("call = %+v, %v", res, err)
				}
				qs := u.questions()
				if len(qs) != 2 {
					t.Fatalf("asked %d times, want 2", len(qs))
				}
				want := map[string]any{"branch": "release-7", "env": "prod", "replicas": float64(3), "confirm": true}
				if runtime.EraOf(version).LegacySchema() {
					want = map[string]any{"confirm": true}
				}
				props, _ := qs[1].Schema["properties"].(map[string]any)
				for k, v := range want {
					p, _ := props[k].(map[string]any)
					if p["default"] != v {
						t.Errorf("re-asked %s: default %#v, want %#v (schema %v)", k, p["default"], v, qs[1].Schema)
					}
				}
			})
		}
	}
}
