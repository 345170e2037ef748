package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	mgmcp "github.com/mark3labs/mcp-go/mcp"
	mgserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/mcpgo"
)

// localeServer serves one tool, "deploy", that asks testforms.Deploy
// (which has an elicit.ja.json) and answers with the language preference
// its asker carried and the accepted value. Config.Locale reads the
// tool argument "lang", so that a test can set the preference either
// way: SEP-2792's _meta or the hook. With wrap, the handler asks through
// middleware built with runtime.Wrap, which must change nothing.
func localeServer(t *testing.T, sdk string, wrap bool) *server {
	s := newServer(t, sdk, runtime.UnavailableAuto) // for the keys, clock and leak check
	handle := func(ctx context.Context, ask runtime.Asker) (string, error) {
		s.runs.Add(1)
		if wrap {
			ask = s.through(ask)
		}
		out, err := testforms.AskDeploy(ctx, ask, deployMsg)
		if err != nil {
			return "", err
		}
		v, ok := out.Accepted()
		if !ok {
			return string(out.Action), nil
		}
		return fmt.Sprintf("pref=%q %s", runtime.LanguagePreference(ask), describeDeploy(v)), nil
	}
	switch sdk {
	case goSDK:
		s.gs = mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "v0"}, nil)
		cfg := &gosdk.Config{
			Options: adapter.Options{Keys: s.keys, Now: s.clock.Now},
			Locale: func(_ context.Context, req mcp.Request) string {
				if r, ok := req.(*mcp.CallToolRequest); ok {
					var args struct{ Lang string }
					_ = json.Unmarshal(r.Params.Arguments, &args)
					return args.Lang
				}
				return ""
			},
		}
		s.gs.AddTool(&mcp.Tool{Name: "deploy", InputSchema: map[string]any{"type": "object"}},
			gosdk.Handle(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
				text, err := handle(ctx, ask)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			}))
	case mcpGo:
		s.ms = mgserver.NewMCPServer("srv", "v0", mgserver.WithToolCapabilities(false))
		cfg := &mcpgo.Config{
			Options: adapter.Options{Keys: s.keys, Now: s.clock.Now},
			Locale: func(_ context.Context, req mgmcp.CallToolRequest) string {
				return req.GetString("lang", "")
			},
		}
		s.ms.AddTool(mgmcp.NewTool("deploy"),
			mcpgo.Handle(cfg, func(ctx context.Context, _ mgmcp.CallToolRequest, ask runtime.Asker) (*mgmcp.CallToolResult, error) {
				text, err := handle(ctx, ask)
				if err != nil {
					return nil, err
				}
				return mgmcp.NewToolResultText(text), nil
			}))
	}
	return s
}

// callWithMeta calls tool with args and params._meta.
func (c *conn) callWithMeta(ctx context.Context, tool string, args, meta map[string]any) (callResult, error) {
	if c.sdk == goSDK {
		res, err := c.gc.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args, Meta: meta})
		if err != nil {
			return callResult{}, err
		}
		text := ""
		for _, ct := range res.Content {
			if tc, ok := ct.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		return callResult{Text: text, IsError: res.IsError}, nil
	}
	req := mgmcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	if meta != nil {
		req.Params.Meta = &mgmcp.Meta{AdditionalFields: meta}
	}
	res, err := c.mc.CallTool(ctx, req)
	if err != nil {
		return callResult{}, err
	}
	text := ""
	for _, ct := range res.Content {
		if tc, ok := ct.(mgmcp.TextContent); ok {
			text += tc.Text
		}
	}
	return callResult{Text: text, IsError: res.IsError}, nil
}

// TestLocaleMatrix asks the same form in English and in Japanese on
// both SDKs and all three eras: the language comes from the request's
// SEP-2792 acceptLanguage or from Config.Locale; the wire schema's
// titles, descriptions and option titles follow it (enumNames on
// 2025-06-18), while the option values and the accepted answer do not.
// Asked through middleware (runtime.Wrap), everything is the same.
func TestLocaleMatrix(t *testing.T) {
	for _, sdk := range []string{goSDK, mcpGo} {
		for _, v := range versions {
			for _, wrap := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/wrapped=%t", sdk, v, wrap), func(t *testing.T) {
					s := localeServer(t, sdk, wrap)
					var mu sync.Mutex
					var seen []question
					answer := func(ctx context.Context, q question) (*runtime.Response, error) {
						mu.Lock()
						seen = append(seen, q)
						mu.Unlock()
						return scripted(ctx, q)
					}
					c := connect(t, s, sdk, clientOpts{version: clientVersion(v), answer: answer})
					cases := []struct {
						name       string
						args, meta map[string]any
						pref       string
						ja         bool
						content    string // the contentLanguage the question reports
					}{
						{"acceptLanguage", nil, map[string]any{runtime.MetaKeyAcceptLanguage: "ja-JP, en;q=0.5"}, "ja-JP, en;q=0.5", true, "ja"},
						{"none", nil, nil, "", false, ""},
						{"english first", nil, map[string]any{runtime.MetaKeyAcceptLanguage: "en-US, ja;q=0.9"}, "en-US, ja;q=0.9", false, "en"},
						{"no catalog for it", nil, map[string]any{runtime.MetaKeyAcceptLanguage: "sv"}, "sv", false, "en"},
						{"hook", map[string]any{"lang": "JA"}, map[string]any{runtime.MetaKeyAcceptLanguage: "en"}, "JA", true, "ja"},
					}
					for _, tc := range cases {
						mu.Lock()
						seen = nil
						mu.Unlock()
						res, err := c.callWithMeta(callCtx(t), "deploy", tc.args, tc.meta)
						want := fmt.Sprintf("pref=%q %s", tc.pref, acceptedText)
						if err != nil || res.IsError || res.Text != want {
							t.Fatalf("%s: call = %+v, %v; want %q", tc.name, res, err, want)
						}
						mu.Lock()
						qs := append([]question(nil), seen...)
						mu.Unlock()
						if len(qs) != 1 {
							t.Fatalf("%s: %d questions, want 1", tc.name, len(qs))
						}
						checkLocaleSchema(t, tc.name, v, qs[0].Schema, tc.ja)
						if qs[0].Language != tc.content {
							t.Errorf("%s: question's _meta contentLanguage = %q, want %q", tc.name, qs[0].Language, tc.content)
						}
					}
					want := int32(len(cases))
					if runtime.EraOf(v).MultiRoundTrip() {
						want *= 2 // each call's handler runs in two rounds
					}
					if n := s.asked.Load(); wrap && n != want {
						t.Errorf("the wrapper saw %d questions, want %d", n, want)
					}
				})
			}
		}
	}
}

// checkLocaleSchema checks the titles of the Deploy schema a client got,
// in Japanese or in English, and that the values are the same.
func checkLocaleSchema(t *testing.T, name, version string, schema map[string]any, ja bool) {
	t.Helper()
	props, _ := schema["properties"].(map[string]any)
	env, _ := props["env"].(map[string]any)
	branch, _ := props["branch"].(map[string]any)
	wantEnv, wantBranch, wantTitles := "Environment", "", "[Staging Production]"
	if ja {
		wantEnv, wantBranch, wantTitles = "環境", "ブランチ", "[ステージング 本番]"
	}
	if env["title"] != wantEnv || fmt.Sprint(branch["title"]) != fmt.Sprint(orNil(wantBranch)) {
		t.Errorf("%s: titles env=%v branch=%v, want %q %q", name, env["title"], branch["title"], wantEnv, wantBranch)
	}
	var values, titles []any
	if version == runtime.Version20250618 {
		values, _ = env["enum"].([]any)
		titles, _ = env["enumNames"].([]any)
	} else {
		oneOf, _ := env["oneOf"].([]any)
		for _, o := range oneOf {
			m, _ := o.(map[string]any)
			values, titles = append(values, m["const"]), append(titles, m["title"])
		}
	}
	if fmt.Sprint(values) != "[staging prod]" || fmt.Sprint(titles) != wantTitles {
		t.Errorf("%s (%s): env options values %v titles %v, want [staging prod] %s", name, version, values, titles, wantTitles)
	}
	if min, _ := props["replicas"].(map[string]any)["minimum"].(float64); min != 1 {
		t.Errorf("%s: replicas bounds changed: %v", name, props["replicas"])
	}
}

func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}
