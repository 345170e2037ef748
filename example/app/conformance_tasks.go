package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/tasks"
)

// The fixtures of the tasks-* scenarios of
// @modelcontextprotocol/conformance@0.2.0-alpha.12 (the Tasks extension,
// io.modelcontextprotocol/tasks), run with --force.
const (
	FixtureGreet            = "greet"
	FixtureSlowCompute      = "slow_compute"
	FixtureFailingJob       = "failing_job"
	FixtureProtocolErrorJob = "protocol_error_job"
	FixtureConfirmDelete    = "confirm_delete"
	FixtureMultiInput       = "multi_input"
	FixtureToolWithTask     = "test_tool_with_task"
)

// TaskPolicy is how the example's tools become tasks for clients that
// declare the Tasks extension (tasks.HTTPOptions.Tools). A tool that asks
// a person (deploy_to_production, send_campaign, every form fixture)
// keeps the default: it becomes a task when it asks, and waits as a
// record. The conformance fixtures that do work rather than ask run in
// the background.
func TaskPolicy(name string) tasks.Policy {
	switch name {
	case FixtureGreet:
		return tasks.Policy{Mode: tasks.ModeNever}
	case FixtureSlowCompute, FixtureProtocolErrorJob:
		return tasks.Policy{Mode: tasks.ModeBackground}
	case FixtureFailingJob:
		return tasks.Policy{Mode: tasks.ModeBackground, Required: true}
	case FixtureToolWithTask:
		// Its input is asked before the task (tasks-mrtr-composition).
		return tasks.Policy{Mode: tasks.ModeInputFirst, Required: true}
	}
	return tasks.Policy{}
}

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// SlowArgs are the arguments of slow_compute.
type SlowArgs struct {
	Seconds float64 `json:"seconds" jsonschema:"how long to work"`
	Label   string  `json:"label,omitempty" jsonschema:"a label for the result"`
}

// FilenameArgs are the arguments of confirm_delete.
type FilenameArgs struct {
	Filename string `json:"filename" jsonschema:"the file to delete"`
}

// partial is the answer multi_input asks twice.
type partial struct {
	Name    string
	Confirm bool
}

// partialSchema accepts what the tasks-mrtr-input scenario answers.
const partialSchema = `{"type":"object","properties":{"name":{"type":"string","title":"Name"},"confirm":{"type":"boolean","title":"Confirm","default":false}},"required":["name"]}`

func (a *App) addTaskFixtures(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: FixtureGreet, Description: "Conformance (tasks): greets by name; never a task."},
		func(_ context.Context, _ *mcp.CallToolRequest, in GreetArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: text("Hello, " + in.Name + "!")}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: FixtureSlowCompute, Description: "Conformance (tasks): works for the given seconds; a task in the background for clients with the Tasks extension."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SlowArgs) (*mcp.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("computed %s after %gs", in.Label, in.Seconds))}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: FixtureFailingJob, Description: "Conformance (tasks): a task only; ends with a tool error.", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{IsError: true, Content: text("the job failed")}, nil
		})
	s.AddTool(&mcp.Tool{Name: FixtureProtocolErrorJob, Description: "Conformance (tasks): ends with a JSON-RPC error (a failed task).", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the job hit a protocol error"}
		})
	mcp.AddTool(s, &mcp.Tool{Name: FixtureConfirmDelete, Description: "Conformance (tasks): asks to confirm a deletion; a task waiting for input."},
		gosdk.HandleFor(a.fixtures, func(ctx context.Context, _ *mcp.CallToolRequest, in FilenameArgs, ask runtime.Asker) (*mcp.CallToolResult, any, error) {
			out, err := runtime.AskConfirm(ctx, ask, "Delete "+in.Filename+"?")
			if err != nil {
				return nil, nil, err
			}
			if v, ok := out.Accepted(); ok && v {
				return &mcp.CallToolResult{Content: text("deleted " + in.Filename)}, nil, nil
			}
			return &mcp.CallToolResult{Content: text("kept " + in.Filename + " (" + string(out.Action) + ")")}, nil, nil
		}))
	schema, err := runtime.ParseSchema("Partial", []byte(partialSchema))
	if err != nil {
		panic(err) // a constant
	}
	form := runtime.NewForm((*partial)(nil), schema, "Name", "Confirm")
	s.AddTool(&mcp.Tool{Name: FixtureMultiInput, Description: "Conformance (tasks): asks two questions at once.", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(a.fixtures, func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			first, err1 := runtime.Ask[partial](ctx, ask, form, "First part?", runtime.WithKey("partial_1"))
			second, err2 := runtime.Ask[partial](ctx, ask, form, "Second part?", runtime.WithKey("partial_2"))
			if err := errors.Join(err1, err2); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: text(fmt.Sprintf("first %s, second %s", first.Action, second.Action))}, nil
		}))
	s.AddTool(&mcp.Tool{Name: FixtureToolWithTask, Description: "Conformance (tasks): asks a name before the task, then greets in it.", InputSchema: map[string]any{"type": "object"}},
		gosdk.Handle(a.fixtures, func(ctx context.Context, _ *mcp.CallToolRequest, ask runtime.Asker) (*mcp.CallToolResult, error) {
			out, err := forms.AskUserName(ctx, ask, "What is your name?")
			if err != nil {
				return nil, err
			}
			v, ok := out.Accepted()
			if !ok {
				return &mcp.CallToolResult{Content: text("no name (" + string(out.Action) + ")")}, nil
			}
			return &mcp.CallToolResult{Content: text("Hello from the task, " + v.Name + "!")}, nil
		}))
}
