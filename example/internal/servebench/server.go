// Package servebench measures what serving an approval costs through
// elicitgen against the same tool written on go-sdk alone: the
// deploy_to_production approval of the example server over streamable
// HTTP on loopback, on 2026-07-28 (two rounds: input_required, then the
// retry with inputResponses and requestState) and 2025-11-25 (one call
// with a pushed elicitation/create).
//
// The servers (NewRawHandler, NewHandler) and the load client (Client,
// Run) are shared by the package's Go benchmarks and the load command
// in example/load.
package servebench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/example/forms"
	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/seal"
	"github.com/elicitgen/elicitgen/runtime/serve"
)

// Tool is the name of the measured tool.
const Tool = app.ToolDeploy

// Service is the service every measured call deploys; Branch is its
// current branch, offered as the default.
const (
	Service = "billing"
	Branch  = "release/2.4"
)

// inputKey is the raw tool's key in inputRequests.
const inputKey = "deploy"

// Counter counts the deploys a server made. Safe for concurrent use.
type Counter struct{ n atomic.Int64 }

// Load returns the count.
func (c *Counter) Load() int64 { return c.n.Load() }

func (c *Counter) add() int64 { return c.n.Add(1) }

// deployMessage is the question, as example/app words it in English.
func deployMessage(service, branch string) string {
	return fmt.Sprintf("Deploy %s? It is on branch %s.", service, branch)
}

// branchOf is the services' current branches, as in the example app's
// store.
func branchOf(service string) (string, bool) {
	if service == Service {
		return Branch, true
	}
	return "", false
}

// NewServer returns the elicitgen server: deploy_to_production as
// example/app writes it (a generated form asked through gosdk.HandleFor,
// the branch pre-filled, the answer counting only when this server asked
// first, the environment named for the audit), with replay as its
// replay store. Each deploy is counted in deploys instead of stored.
func NewServer(keys *seal.KeyRing, replay seal.ReplayStore, deploys *Counter) *mcp.Server {
	return NewRecordingServer(keys, replay, deploys, nil)
}

// NewRecordingServer is NewServer with record as adapter.Options.Record
// (a receipt.Recorder): each decided question is recorded before the
// handler sees the answer, as a server with --receipts does.
func NewRecordingServer(keys *seal.KeyRing, replay seal.ReplayStore, deploys *Counter, record func(context.Context, adapter.Decided) error) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "servebench", Version: "v0"}, nil)
	cfg := &gosdk.Config{Options: adapter.Options{Keys: keys, Replay: replay, Record: record}}
	t := &mcp.Tool{Name: Tool, Title: "Deploy a service", Description: "Deploys a service after the user confirms.",
		InputSchema: gosdk.InputSchema[app.DeployArgs](), OutputSchema: outputSchema()}
	mcp.AddTool(s, t, gosdk.HandleFor(cfg, func(ctx context.Context, _ *mcp.CallToolRequest, in app.DeployArgs, ask runtime.Asker) (*mcp.CallToolResult, app.DeployResult, error) {
		res := app.DeployResult{Service: in.Service}
		branch, known := branchOf(in.Service)
		if !known {
			return nil, res, fmt.Errorf("unknown service %q", in.Service)
		}
		out, err := forms.AskDeploy(ctx, ask, deployMessage(in.Service, branch),
			runtime.WithDefault("branch", branch), runtime.WithAuditFields("environment"))
		if err != nil {
			return nil, app.DeployResult{}, err
		}
		res.Outcome = outcome(string(out.Action))
		v, ok := out.Accepted()
		if !ok {
			return &mcp.CallToolResult{Content: text("Not deployed: the user " + res.Outcome + ".")}, res, nil
		}
		return deployed(deploys, res, v.Branch, string(v.Environment), v.Confirmed)
	}))
	return s
}

// NewRawServer returns the same tool written on go-sdk alone: on
// 2026-07-28 it returns inputRequests with a hand-written schema and an
// opaque requestState, and reads the answer from inputResponses; on
// earlier versions it asks with ServerSession.Elicit (which validates
// the answer against the schema). The answer's fields are read with
// type assertions. It has none of elicitgen's guarantees (no sealed or
// single-use state, no check that the server asked first).
func NewRawServer(deploys *Counter) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "servebench-raw", Version: "v0"}, nil)
	t := &mcp.Tool{Name: Tool, Title: "Deploy a service", Description: "Deploys a service after the user confirms.",
		OutputSchema: outputSchema()}
	mcp.AddTool(s, t, func(ctx context.Context, req *mcp.CallToolRequest, in app.DeployArgs) (*mcp.CallToolResult, app.DeployResult, error) {
		res := app.DeployResult{Service: in.Service}
		branch, known := branchOf(in.Service)
		if !known {
			return nil, res, fmt.Errorf("unknown service %q", in.Service)
		}
		ask := &mcp.ElicitParams{Mode: "form", Message: deployMessage(in.Service, branch), RequestedSchema: rawSchema(branch)}
		var answer *mcp.ElicitResult
		if runtime.EraOf(req.ProtocolVersion()).MultiRoundTrip() {
			r, _ := req.Params.InputResponses[inputKey].(*mcp.ElicitResult)
			if r == nil || req.Params.RequestState != inputKey {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{inputKey: ask}, RequestState: inputKey}, app.DeployResult{}, nil
			}
			answer = r
		} else {
			r, err := req.Session.Elicit(ctx, ask)
			if err != nil {
				return nil, app.DeployResult{}, err
			}
			answer = r
		}
		res.Outcome = outcome(answer.Action)
		if answer.Action != "accept" {
			return &mcp.CallToolResult{Content: text("Not deployed: the user " + res.Outcome + ".")}, res, nil
		}
		b, _ := answer.Content["branch"].(string)
		env, _ := answer.Content["environment"].(string)
		confirmed, _ := answer.Content["confirmed"].(bool)
		if b == "" {
			b = branch
		}
		if len(b) > 100 || (env != "staging" && env != "production") {
			return nil, app.DeployResult{}, fmt.Errorf("invalid answer")
		}
		return deployed(deploys, res, b, env, confirmed)
	})
	return s
}

// rawSchema is the requested schema a hand-written tool sends: the
// Deploy form's, with the branch's default set per call.
func rawSchema(branch string) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"branch": map[string]any{"type": "string", "title": "Branch", "description": "The git branch to deploy.",
				"minLength": 1, "maxLength": 100, "default": branch},
			"environment": map[string]any{"type": "string", "title": "Environment", "description": "Where the branch goes.",
				"oneOf": []any{
					map[string]any{"const": "staging", "title": "Staging"},
					map[string]any{"const": "production", "title": "Production"},
				}},
			"confirmed": map[string]any{"type": "boolean", "title": "I confirm this deploy",
				"description": "I understand that the deploy reaches live traffic.", "default": false},
		},
		"required": []any{"environment", "confirmed"},
	}
}

// deployed is the tool's result once the user answered.
func deployed(deploys *Counter, res app.DeployResult, branch, env string, confirmed bool) (*mcp.CallToolResult, app.DeployResult, error) {
	res.Branch, res.Environment, res.Confirmed = branch, env, confirmed
	if !confirmed {
		return &mcp.CallToolResult{Content: text("Not deployed: the user did not confirm.")}, res, nil
	}
	id := fmt.Sprintf("dep-%d", deploys.add())
	res.Deployed, res.Deployment = true, id
	return &mcp.CallToolResult{Content: text(fmt.Sprintf("Deployed %s@%s to %s (%s).", res.Service, branch, env, id))}, res, nil
}

func outcome(action string) string {
	switch action {
	case "accept":
		return app.OutcomeAccepted
	case "decline":
		return app.OutcomeDeclined
	}
	return app.OutcomeCancelled
}

func text(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }

// outputSchema is the example app's output schema of DeployResult.
func outputSchema() *jsonschema.Schema {
	s, err := jsonschema.For[app.DeployResult](nil)
	if err != nil {
		panic(err) // a fixed type: a failure is a bug
	}
	p := s.Properties["outcome"]
	for _, o := range app.Outcomes {
		p.Enum = append(p.Enum, o)
	}
	return s
}

// NewHandler serves s as elicitgen's users do: gosdk.NewHTTPHandler with
// the default bounds, every era at one URL, except the per-client
// session budget: the load generator, on one host, stands for every
// client, as a proxy would (see serve.Options).
func NewHandler(s *mcp.Server) http.Handler {
	return gosdk.NewHTTPHandler(s, &serve.Options{MaxSessionsPerClient: -1})
}

// NewRawHandler serves s as a go-sdk user serving both eras does: the
// stateless handler for 2026-07-28 requests (go-sdk serves that era only
// statelessly) and the stateful one for the others, routed by the
// MCP-Protocol-Version header.
func NewRawHandler(s *mcp.Server) http.Handler {
	get := func(*http.Request) *mcp.Server { return s }
	stateful := mcp.NewStreamableHTTPHandler(get, nil)
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if runtime.EraOf(r.Header.Get("MCP-Protocol-Version")).MultiRoundTrip() {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
}

// Serve serves h at http://<loopback>/mcp on a new listener until ctx
// ends, as gosdk.ListenAndServe does (gosdk.NewHTTPServer on a bounded
// listener), and returns the URL.
func Serve(ctx context.Context, h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	// One load generator on one host stands for every client: the
	// per-host connection budget would close its idle keep-alive
	// connections early, as it would a proxy's (see serve.Options).
	o := (&serve.Options{MaxConnsPerClient: -1}).Resolved()
	go func() { _ = serve.Serve(ctx, gosdk.NewHTTPServer(mux, &o), ln, o) }()
	return "http://" + ln.Addr().String() + "/mcp", nil
}
