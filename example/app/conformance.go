package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
)

//lint:file-ignore SA1019 the 2026-07-28 scenarios still send sampling and roots requests, deprecated by SEP-2577 but within its deprecation window

// Conformance fixtures: the tools and the prompt that the official MCP
// conformance suites call, each asking a generated form of package forms.
//
//   - @modelcontextprotocol/conformance@0.1.16 (2025-11-25, a session on
//     /mcp, questions pushed as elicitation/create): test_elicitation,
//     test_elicitation_sep1034_defaults, test_elicitation_sep1330_enums.
//   - @modelcontextprotocol/conformance@0.2.0-alpha.12 --spec-version
//     2026-07-28 (stateless requests to /mcp, questions returned as
//     input_required): the test_input_required_result_* tools and the
//     prompt test_input_required_result_prompt; for the server-stateless
//     scenario (SEP-2575), test_missing_capability,
//     test_streaming_elicitation, test_logging_tool and the list-change
//     triggers test_trigger_tool_change and test_trigger_prompt_change.

// Names of the conformance fixtures.
const (
	FixtureElicitation     = "test_elicitation"
	FixtureSEP1034         = "test_elicitation_sep1034_defaults"
	FixtureSEP1330         = "test_elicitation_sep1330_enums"
	FixtureIRRElicitation  = "test_input_required_result_elicitation"
	FixtureIRRRequestState = "test_input_required_result_request_state"
	FixtureIRRMultiple     = "test_input_required_result_multiple_inputs"
	FixtureIRRMultiRound   = "test_input_required_result_multi_round"
	FixtureIRRTampered     = "test_input_required_result_tampered_state"
	FixtureIRRCapabilities = "test_input_required_result_capabilities"
	FixtureIRRPrompt       = "test_input_required_result_prompt"

	// The server-stateless scenario (SEP-2575) of 0.2.0-alpha.12.
	FixtureMissingCapability   = "test_missing_capability"
	FixtureStreamElicitation   = "test_streaming_elicitation"
	FixtureLogging             = "test_logging_tool"
	FixtureTriggerToolChange   = "test_trigger_tool_change"
	FixtureTriggerPromptChange = "test_trigger_prompt_change"
)

// The inputRequests keys the 2026-07-28 scenarios expect.
const (
	keyUserName    = "user_name"
	keyConfirm     = "confirm"
	keyStep1       = "step1"
	keyStep2       = "step2"
	keyUserContext = "user_context"
	keyGreeting    = "greeting"
	keyRoots       = "client_roots"
)

// MessageArgs are the arguments of test_elicitation.
type MessageArgs struct {
	Message string `json:"message" jsonschema:"the message to show the user"`
}

func noArgs() *mcp.Tool { return &mcp.Tool{InputSchema: map[string]any{"type": "object"}} }

func (a *App) addConformance(s *mcp.Server) {
	a.addTaskFixtures(s)
	// 0.1.16: push-era fixtures. Their results are plain text, as the
	// suite describes; a failure to ask is a tool error, never a JSON-RPC
	// error (the adapter's default for 2025-era clients).
	mcp.AddTool(s, &mcp.Tool{Name: FixtureElicitation, Description: "Conformance: asks for a username and an email address."},
		gosdk.HandleFor(a.fixtures, func(ctx context.Context, _ *mcp.CallToolRequest, in MessageArgs, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
			out, err := forms.AskTestElicitation(ctx, ask, in.Message)
			return completed("User response", out, err)
		}))
	add := func(name, desc string, h gosdk.Handler) {
		t := noArgs()
		t.Name, t.Description = name, desc
		s.AddTool(t, gosdk.Handle(a.fixtures, h))
	}
	add(FixtureSEP1034, "Conformance (SEP-1034): a form with a default of every primitive type.",
		func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := forms.AskSEP1034Defaults(ctx, ask, "Please review and update the form fields with defaults")
			res, _, err := completed("Elicitation completed", out, err)
			return res, err
		})
	add(FixtureSEP1330, "Conformance (SEP-1330): a form with all five enum shapes.",
		func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := forms.AskSEP1330Enums(ctx, ask, "Please select options from the enum fields")
			res, _, err := completed("Elicitation completed", out, err)
			return res, err
		})

	// 0.2.0-alpha.12, 2026-07-28: multi round-trip fixtures.
	add(FixtureIRRElicitation, "Conformance (SEP-2322): asks the caller's name (key user_name).",
		func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := forms.AskUserName(ctx, ask, "What is your name?", runtime.WithKey(keyUserName))
			if err != nil {
				return nil, err
			}
			if v, ok := out.Accepted(); ok {
				return &mcp.CallToolResult{Content: text(fmt.Sprintf("Hello, %s!", v.Name))}, nil
			}
			return &mcp.CallToolResult{Content: text("No name given: " + string(out.Action))}, nil
		})
	confirm := func(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
		out, err := forms.AskConfirm(ctx, ask, "Please confirm", runtime.WithKey(keyConfirm))
		if err != nil {
			return nil, err
		}
		v, _ := out.Accepted()
		state := "no requestState"
		if req.Params.RequestState != "" {
			// The adapter opened and verified it before the handler ran.
			state = "state-ok: requestState verified"
		}
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("%s; action=%s ok=%t", state, out.Action, v.OK))}, nil
	}
	add(FixtureIRRRequestState, "Conformance (SEP-2322): a confirmation whose requestState is sealed and verified.", confirm)
	add(FixtureIRRTampered, "Conformance (SEP-2322): rejects a tampered requestState with -32602.", confirm)
	add(FixtureIRRMultiRound, "Conformance (SEP-2322): two rounds (step1: name, step2: color), each with fresh sealed state.",
		func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			one, err := forms.AskStep1(ctx, ask, "Step 1: What is your name?", runtime.WithKey(keyStep1))
			if err != nil {
				return nil, err
			}
			name, ok := one.Accepted()
			if !ok {
				return &mcp.CallToolResult{Content: text("Stopped at step 1: " + string(one.Action))}, nil
			}
			two, err := forms.AskStep2(ctx, ask, "Step 2: What is your favorite color?", runtime.WithKey(keyStep2))
			if err != nil {
				return nil, err
			}
			color, ok := two.Accepted()
			if !ok {
				return &mcp.CallToolResult{Content: text("Stopped at step 2: " + string(two.Action))}, nil
			}
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("Multi-round complete: %s likes %s", name.Name, color.Color))}, nil
		})
	s.AddTool(&mcp.Tool{Name: FixtureIRRMultiple, Description: "Conformance (SEP-2322): elicitation, sampling and roots in one round.", InputSchema: map[string]any{"type": "object"}},
		a.multipleInputs)
	add(FixtureIRRCapabilities, "Conformance (SEP-2322): asks only what the client declared it can answer.", capabilities)
	s.AddPrompt(&mcp.Prompt{Name: FixtureIRRPrompt, Description: "Conformance (SEP-2322): a prompt that first asks for context (key user_context)."},
		gosdk.HandlePrompt(a.fixtures, contextPrompt))

	// 0.2.0-alpha.12, 2026-07-28: server-stateless (SEP-2575).
	s.AddTool(&mcp.Tool{Name: FixtureMissingCapability, Description: "Conformance (SEP-2575): needs the sampling capability; without it, -32021 naming it.", InputSchema: map[string]any{"type": "object"}},
		missingCapability)
	add(FixtureStreamElicitation, "Conformance (SEP-2575): asks the caller's name; the response stream carries only the input_required result, never a request.",
		func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := forms.AskUserName(ctx, ask, "What is your name?", runtime.WithKey(keyUserName))
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text("name: " + string(out.Action))}, nil
		})
	s.AddTool(&mcp.Tool{Name: FixtureLogging, Description: "Conformance (SEP-2575): logs at info level; the message goes out only when the request set _meta logLevel.", InputSchema: map[string]any{"type": "object"}},
		logging)
	toggles := &toggler{}
	// The triggers toggle a placeholder tool and prompt, so that every
	// call changes the list and go-sdk notifies the subscriptions/listen
	// streams of this instance.
	s.AddTool(&mcp.Tool{Name: FixtureTriggerToolChange, Description: "Conformance (SEP-2575): adds or removes the tool test_dynamic_tool.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(toggles.toggle(s, true))}, nil
		})
	s.AddTool(&mcp.Tool{Name: FixtureTriggerPromptChange, Description: "Conformance (SEP-2575): adds or removes the prompt test_dynamic_prompt.", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: text(toggles.toggle(s, false))}, nil
		})
}

// missingCapability is the test_missing_capability fixture: it needs the
// sampling capability and, when the request did not declare it, fails
// with MissingRequiredClientCapabilityError (-32021, HTTP 400 on
// 2026-07-28) whose data.requiredCapabilities is a ClientCapabilities
// object naming sampling.
func missingCapability(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if c := req.ClientCapabilities(); c != nil && c.Sampling != nil {
		return &mcp.CallToolResult{Content: text("the client declared sampling")}, nil
	}
	data, err := json.Marshal(mcp.MissingRequiredClientCapabilityData{RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
	if err != nil {
		return nil, err
	}
	return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "test_missing_capability needs the sampling client capability", Data: data}
}

// logging is the test_logging_tool fixture: go-sdk sends the message only
// when the request's _meta set io.modelcontextprotocol/logLevel (on
// 2026-07-28) at or below info.
func logging(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "elicitgen-example", Data: "test_logging_tool ran"}); err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: text("logged at info")}, nil
}

// Placeholders the change triggers add and remove.
const (
	dynamicTool   = "test_dynamic_tool"
	dynamicPrompt = "test_dynamic_prompt"
)

// toggler adds a placeholder tool (or prompt) to a server when it is
// absent and removes it otherwise.
type toggler struct {
	mu      sync.Mutex
	present map[string]bool
}

// toggle flips the placeholder tool (or prompt) of s and says what it
// did.
func (t *toggler) toggle(s *mcp.Server, tool bool) string {
	name := dynamicPrompt
	if tool {
		name = dynamicTool
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.present == nil {
		t.present = map[string]bool{}
	}
	present := t.present[name]
	t.present[name] = !present
	switch {
	case present && tool:
		s.RemoveTools(name)
	case present:
		s.RemovePrompts(name)
	case tool:
		s.AddTool(&mcp.Tool{Name: name, Description: "Placeholder of test_trigger_tool_change.", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	default:
		s.AddPrompt(&mcp.Prompt{Name: name, Description: "Placeholder of test_trigger_prompt_change."},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{}, nil
			})
	}
	if present {
		return "removed " + name
	}
	return "added " + name
}

// completed is the text result of a push-era fixture: the action and the
// content, or a tool error when asking failed (a JSON-RPC error would
// fail the 0.1.16 checks, which only need the tool to return content).
func completed[T any](label string, out runtime.Outcome[T], err error) (*mcp.CallToolResult, any, error) {
	if errors.Is(err, runtime.ErrInputRequired) {
		return nil, nil, err
	}
	if err != nil {
		return &mcp.CallToolResult{IsError: true, Content: text(label + ": " + err.Error())}, nil, nil
	}
	content := "{}"
	if v, ok := out.Accepted(); ok {
		b, _ := json.Marshal(v)
		content = string(b)
	}
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("%s: action=%s, content=%s", label, out.Action, content))}, nil, nil
}

// greetingRequest and rootsRequest are the non-elicitation input requests
// of the multiple-inputs and capability-check scenarios. elicitgen and its
// adapters only ask forms; these are plain go-sdk values.
func greetingRequest() *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Generate a short greeting"}}},
		MaxTokens: 50,
	}
}

func samplingText(m mcp.InputResponseMap, key string) (string, bool) {
	r, ok := m[key].(*mcp.CreateMessageWithToolsResult)
	if !ok || r == nil {
		return "", false
	}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text, true
		}
	}
	return "", true
}

func rootsCount(m mcp.InputResponseMap, key string) (int, bool) {
	r, ok := m[key].(*mcp.ListRootsResult)
	if !ok || r == nil {
		return 0, false
	}
	return len(r.Roots), true
}

// multipleInputs asks the user_name form through the adapter and adds a
// sampling and a roots request to the same input_required result. It
// drives gosdk.NewAsker and Finish itself (instead of gosdk.Handle) so
// that it can add those entries: the adapter's Finish only knows forms.
func (a *App) multipleInputs(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ask, err := gosdk.NewAsker(ctx, a.fixtures, req)
	if err != nil {
		return nil, err // tampered or expired state: -32602
	}
	out, err := forms.AskUserName(ctx, ask, "What is your name?", runtime.WithKey(keyUserName))
	greeting, hasGreeting := samplingText(req.Params.InputResponses, keyGreeting)
	roots, hasRoots := rootsCount(req.Params.InputResponses, keyRoots)
	var res *mcp.CallToolResult
	if err == nil {
		v, _ := out.Accepted()
		res = &mcp.CallToolResult{Content: text(fmt.Sprintf("%s %s (%s), %d root(s) visible", greeting, v.Name, out.Action, roots))}
	}
	res, err = ask.Finish(res, err)
	if err != nil || !runtime.EraOf(req.ProtocolVersion()).MultiRoundTrip() {
		return res, err
	}
	missing := mcp.InputRequestMap{}
	if !hasGreeting {
		missing[keyGreeting] = greetingRequest()
	}
	if !hasRoots {
		missing[keyRoots] = &mcp.ListRootsParams{}
	}
	switch {
	case len(missing) == 0:
		return res, nil
	case res.InputRequests == nil:
		// The form is answered (its answer rides in the sealed state);
		// only the other inputs are still missing.
		return ask.InputRequired(missing)
	}
	for k, v := range missing {
		res.InputRequests[k] = v
	}
	return res, nil
}

// capabilities asks the user_name form when the client declared
// elicitation; otherwise (the capability-check scenario declares only
// sampling) it asks what the client can answer instead, and only when it
// can answer nothing does the adapter's -32021 go out.
func capabilities(ctx context.Context, req *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
	if t, ok := samplingText(req.Params.InputResponses, keyGreeting); ok {
		return &mcp.CallToolResult{Content: text("Greeting from sampling: " + t)}, nil
	}
	if n, ok := rootsCount(req.Params.InputResponses, keyRoots); ok {
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("%d root(s) visible", n))}, nil
	}
	out, err := forms.AskUserName(ctx, ask, "What is your name?", runtime.WithKey(keyUserName))
	if err == nil {
		v, _ := out.Accepted()
		return &mcp.CallToolResult{Content: text(fmt.Sprintf("Hello, %s! (%s)", v.Name, out.Action))}, nil
	}
	if !errors.Is(err, runtime.ErrUnavailable) {
		return nil, err
	}
	caps := req.ClientCapabilities()
	alt := mcp.InputRequestMap{}
	if caps != nil && caps.Sampling != nil {
		alt[keyGreeting] = greetingRequest()
	}
	if caps != nil && (caps.RootsV2 != nil || caps.Roots.ListChanged) {
		alt[keyRoots] = &mcp.ListRootsParams{}
	}
	if len(alt) == 0 || !runtime.EraOf(req.ProtocolVersion()).MultiRoundTrip() {
		return nil, err
	}
	return &mcp.CallToolResult{InputRequests: alt}, nil
}
