package app_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
)

// TestReaskNamesTitles answers deploy_to_production with an environment
// that is not offered, in English and in Japanese (acceptLanguage ja): the
// re-ask names the field by its title in the person's language, never by
// its key, and the tool error after the same answer again names title and
// key, in English, for the model.
func TestReaskNamesTitles(t *testing.T) {
	for _, tc := range []struct {
		lang, person, notPerson string
	}{
		{"", `Environment must be one of "Staging", "Production" ("moon" is not)`, "environment:"},
		{"ja", `「環境」は "ステージング", "本番" のいずれかを選んでください（"moon" は選べません）`, "environment:"},
	} {
		t.Run("lang="+tc.lang, func(t *testing.T) {
			c, store := connect(t, clientOpts{elicit: true, manual: true})
			ctx := callCtx(t)
			params := &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: map[string]any{"service": "billing"}}
			if tc.lang != "" {
				params.Meta = mcp.Meta{runtime.MetaKeyAcceptLanguage: tc.lang}
			}
			res, err := c.cs.CallTool(ctx, params)
			if err != nil || !res.NeedsInput() {
				t.Fatalf("round 1: %+v, %v", res, err)
			}
			bad := mcp.InputResponseMap{"Deploy": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "main", "environment": "moon", "confirmed": true}}}
			for round := 2; round <= 3; round++ {
				params.InputResponses, params.RequestState = bad, res.RequestState
				if res, err = c.cs.CallTool(ctx, params); err != nil {
					t.Fatal(err)
				}
				if round == 2 {
					ir, ok := res.InputRequests["Deploy"].(*mcp.ElicitParams)
					if !ok {
						t.Fatalf("round 2: %+v; want Deploy asked again", res)
					}
					if !strings.Contains(ir.Message, tc.person) || strings.Contains(ir.Message, tc.notPerson) {
						t.Errorf("re-ask message = %q; want it to say %s", ir.Message, tc.person)
					}
					if tc.lang == "ja" && !strings.Contains(ir.Message, "前回の回答は受け付けられませんでした") {
						t.Errorf("re-ask message = %q; want the runtime's sentence in Japanese", ir.Message)
					}
				}
			}
			if !res.IsError || len(res.Content) == 0 {
				t.Fatalf("round 3: %+v; want a tool error", res)
			}
			txt := res.Content[0].(*mcp.TextContent).Text
			if !strings.Contains(txt, `"Environment" (environment): "moon" is not one of "staging", "production"`) {
				t.Errorf("tool error = %q; want it to name title and key", txt)
			}
			if len(store.Deployments()) != 0 {
				t.Error("an invalid answer deployed")
			}
		})
	}
}

// answerRounds calls tool in manual multi round-trip, answering each
// round's one question with the next of answers, and returns the last
// result and the messages of the questions asked.
func answerRounds(t *testing.T, c *client, tool string, args map[string]any, answers ...map[string]any) (*mcp.CallToolResult, []string) {
	t.Helper()
	ctx := callCtx(t)
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	res, err := c.cs.CallTool(ctx, params)
	var msgs []string
	for _, content := range answers {
		if err != nil || !res.NeedsInput() || len(res.InputRequests) != 1 {
			t.Fatalf("%s: %+v, %v; want one question", tool, res, err)
		}
		responses := mcp.InputResponseMap{}
		for key, ir := range res.InputRequests {
			msgs = append(msgs, ir.(*mcp.ElicitParams).Message)
			responses[key] = &mcp.ElicitResult{Action: "accept", Content: content}
		}
		params.InputResponses, params.RequestState = responses, res.RequestState
		res, err = c.cs.CallTool(ctx, params)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, msgs
}

// TestClearedBranchDeploysDefault answers with the branch box cleared
// (branch: "", as the Inspector sends it): the default applies, the
// service's current branch.
func TestClearedBranchDeploysDefault(t *testing.T) {
	for service, branch := range map[string]string{"search": "main", "billing": "release/2.4"} {
		c, store := connect(t, clientOpts{elicit: true, manual: true})
		res, _ := answerRounds(t, c, app.ToolDeploy, map[string]any{"service": service},
			map[string]any{"branch": "", "environment": "staging", "confirmed": true})
		if res.IsError || res.NeedsInput() {
			t.Fatalf("%s: %+v", service, res)
		}
		if d := store.Deployments(); len(d) != 1 || d[0].Branch != branch {
			t.Errorf("%s: deployments %+v, want %s", service, d, branch)
		}
	}
}

// TestClearedRequiredIsReasked: an empty required answer is not absent;
// the environment cleared to "" is asked again.
func TestClearedRequiredIsReasked(t *testing.T) {
	c, store := connect(t, clientOpts{elicit: true, manual: true})
	res, msgs := answerRounds(t, c, app.ToolDeploy, map[string]any{"service": "search"},
		map[string]any{"branch": "main", "environment": "", "confirmed": true},
		map[string]any{"branch": "main", "environment": "staging", "confirmed": true})
	if len(msgs) != 2 || !strings.Contains(msgs[1], `Environment must be one of`) {
		t.Fatalf("questions = %q; want the environment asked again", msgs)
	}
	if res.IsError || len(store.Deployments()) != 1 {
		t.Errorf("%+v: not deployed", res)
	}
}

// TestNoHandlerIsASentence: a go-sdk client that declares elicitation but
// has no handler for it: the model is told what to ask the person, never
// to try again later, and that the confirmation is the person's alone.
func TestNoHandlerIsASentence(t *testing.T) {
	ctx := callCtx(t)
	s := app.NewServer(app.Options{Keys: testKeys(t), Store: app.NewStore()})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "no-handler", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps}).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: runtime.Version20251125})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: map[string]any{"service": "billing"}})
	if err != nil || !res.IsError || len(res.Content) == 0 {
		t.Fatalf("call = %+v, %v; want a tool error", res, err)
	}
	txt := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(txt, "cannot ask them directly") || strings.Contains(txt, "try again later") || !strings.Contains(txt, "a confirmation: only the user can give it") {
		t.Errorf("tool error = %q", txt)
	}
	t.Logf("model reads: %s", txt)
}
