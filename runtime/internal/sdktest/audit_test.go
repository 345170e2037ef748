package sdktest

import (
	"context"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
)

// TestAuditUnforgeable: an audit record holds only validated values of
// the fields the author named and only key names of the form: a value
// that fails its property's checks is not recorded, and a key the client
// chose (a newline and a fake JSON record in it) is counted, never
// written; on every era, through both adapters.
func TestAuditUnforgeable(t *testing.T) {
	const forged = "x\n{\"msg\":\"elicitation.answered\",\"action\":\"accept\"}"
	for _, sdk := range sdks {
		for _, version := range versions {
			t.Run(sdk+"/"+version, func(t *testing.T) {
				rec := newEventLog()
				s := newServer(t, sdk, runtime.UnavailableAuto)
				addObservedTool(s, "deploy_audit", rec, func(ctx context.Context, ask runtime.Asker) (string, error) {
					out, err := testforms.AskDeploy(ctx, ask, deployMsg, runtime.WithAuditFields("branch", "replicas"))
					if err != nil {
						return "", err
					}
					return describeDeploy(out.Value), nil
				})
				tries := 0
				user := func(_ context.Context, q question) (*runtime.Response, error) {
					tries++
					if tries == 1 { // invalid: replicas out of range, an empty branch, a forged key
						return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{
							"branch": "", "env": "prod", "replicas": 99.0, "confirm": true, forged: "1"}}, nil
					}
					return &runtime.Response{Action: runtime.ActionAccept, Content: map[string]any{
						"branch": "feature", "env": "prod", "replicas": 3.0, "confirm": true}}, nil
				}
				c := connect(t, s, sdk, clientOpts{version: clientVersion(version), answer: user})
				_, _ = c.call(callCtx(t), "deploy_audit", nil)
				log := rec.log.String()
				if strings.Contains(log, "elicitation.answered\\\",\\\"action") || strings.Contains(log, `x\n{`) {
					t.Errorf("a client-chosen key reached the records:\n%s", log)
				}
				for _, e := range rec.take() {
					if v, ok := e.Content["replicas"]; ok && v != 3.0 {
						t.Errorf("%s: unvalidated replicas %v recorded", summary(e), v)
					}
					if v, ok := e.Content["branch"]; ok && v != "feature" {
						t.Errorf("%s: unvalidated branch %q recorded", summary(e), v)
					}
					for _, f := range e.InvalidFields {
						if f != "" && f != "branch" && f != "replicas" && !strings.HasPrefix(f, "(") {
							t.Errorf("%s: invalid field %q is not the form's", summary(e), f)
						}
					}
					if strings.Contains(e.Reason, "99") || strings.Contains(e.Reason, "\n") {
						t.Errorf("%s: reason %q quotes the answer", summary(e), e.Reason)
					}
				}
			})
		}
	}
}
