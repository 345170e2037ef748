package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
)

// TestAuditLog: the server's audit log is one JSON line per event, each
// with the tool, form, action, protocol, client, asked and the instance.
func TestAuditLog(t *testing.T) {
	for _, version := range []string{runtime.Version20251125, ""} { // "": the SDK default, 2026-07-28
		var buf bytes.Buffer
		s := app.NewServer(app.Options{Observer: auditObserver(&buf, "test-1")})
		c := mcp.NewClient(&mcp.Implementation{Name: "audit-client", Version: "v9"}, &mcp.ClientOptions{
			ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "hotfix-42", "environment": "production", "confirmed": true}}, nil
			},
		})
		ctx := context.Background()
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: app.ToolDeploy, Arguments: map[string]any{"service": "billing"}})
		cs.Close()
		ss.Close()
		if err != nil || res.IsError {
			t.Fatalf("call = %+v, %v", res, err)
		}
		var answered map[string]any
		lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
		for _, line := range lines {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("not a JSON line: %q", line)
			}
			if m["instance"] != "test-1" || m["tool"] != app.ToolDeploy || m["client"] != "audit-client" || m["protocol"] == "" {
				t.Errorf("record %v", m)
			}
			if m["event"] == "answered" {
				answered = m
			}
		}
		if answered == nil || answered["form"] != "Deploy" || answered["action"] != "accept" || answered["asked"] != true {
			t.Fatalf("answered record %v in\n%s", answered, buf.String())
		}
		if c, _ := answered["content"].(map[string]any); len(c) != 1 || c["environment"] != "production" {
			t.Errorf("content %v, want only the environment (WithAuditFields)", answered["content"])
		}
		if bytes.Contains(buf.Bytes(), []byte("hotfix-42")) {
			t.Error("the branch the user typed is in the audit log")
		}
	}
}
