package servebench

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestApprovals runs a few approvals through each server on each era and
// checks that each deployed once.
func TestApprovals(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	keys := seal.NewRandomKeyRing()
	for _, version := range []string{runtime.Version20260728, runtime.Version20251125} {
		for _, kind := range []string{"raw", "elicitgen"} {
			t.Run(version+"/"+kind, func(t *testing.T) {
				var deploys Counter
				h := NewRawHandler(NewRawServer(&deploys))
				if kind == "elicitgen" {
					h = NewHandler(NewServer(keys, seal.NewMemoryReplayStore(0), &deploys))
				}
				url, err := Serve(ctx, h)
				if err != nil {
					t.Fatal(err)
				}
				r, err := Run(ctx, Load{URL: url, Version: version, Clients: 3, Approvals: 12})
				if err != nil {
					t.Fatal(err)
				}
				if r.Errors != 0 || r.Approvals != 12 || deploys.Load() != 12 {
					t.Fatalf("%d approvals, %d deploys, %d errors (first: %v)", r.Approvals, deploys.Load(), r.Errors, r.FirstErr)
				}
			})
		}
	}
}

// TestStateSpentOnce checks that the measured elicitgen server refuses a
// retry whose requestState already carried its answer: the benchmark
// measures the single-use claim, not a path without it.
func TestStateSpentOnce(t *testing.T) {
	ctx := context.Background()
	var deploys Counter
	h := NewHandler(NewServer(seal.NewRandomKeyRing(), seal.NewMemoryReplayStore(0), &deploys))
	c, err := NewClient(&http.Client{Transport: HandlerTransport(h)}, "http://127.0.0.1/mcp", runtime.Version20260728)
	if err != nil {
		t.Fatal(err)
	}
	tool := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": Tool}
	args := `"name":"` + Tool + `","arguments":{"service":"` + Service + `"}`
	res, err := c.post(ctx, tool, c.request("tools/call", "{"+meta2026+","+args+"}"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.result(res, c.id, nil)
	if err != nil {
		t.Fatal(err)
	}
	var first struct {
		RequestState string `json:"requestState"`
	}
	if err := json.Unmarshal(r, &first); err != nil || first.RequestState == "" {
		t.Fatalf("round 1: %s %v", r, err)
	}
	st, _ := json.Marshal(first.RequestState)
	retry := "{" + meta2026 + "," + args + `,"inputResponses":{"Deploy":` + answer + `},"requestState":` + string(st) + "}"
	for i, want := range []string{"", "JSON-RPC error -32602"} {
		res, err := c.post(ctx, tool, c.request("tools/call", retry))
		if err != nil {
			t.Fatal(err)
		}
		r, err := c.result(res, c.id, nil)
		switch {
		case want == "" && err != nil:
			t.Fatalf("retry %d: %v", i+1, err)
		case want == "" && checkDeployed(r) != nil:
			t.Fatalf("retry %d: %v", i+1, checkDeployed(r))
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Fatalf("retry %d: got %s, %v; want %s", i+1, r, err, want)
		}
	}
	if deploys.Load() != 1 {
		t.Fatalf("%d deploys, want 1", deploys.Load())
	}
}

// TestRunCountsFailures checks that an approval the server does not
// complete is counted as an error, not as an approval: a refused request,
// and a result that did not deploy.
func TestRunCountsFailures(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	refuse := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusServiceUnavailable)
	})
	notDeployed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"resultType":"complete","content":[],"structuredContent":{"deployed":false}}}`))
	})
	for name, h := range map[string]http.Handler{"refused": refuse, "not deployed": notDeployed} {
		url, err := Serve(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(ctx, Load{URL: url, Version: runtime.Version20260728, Clients: 2, Approvals: 4})
		if err != nil {
			t.Fatal(err)
		}
		if r.Errors != 4 || r.Approvals != 0 || r.FirstErr == nil {
			t.Errorf("%s: %d approvals, %d errors (first: %v)", name, r.Approvals, r.Errors, r.FirstErr)
		}
	}
}

// TestCheckLoopback checks that only loopback http URLs are driven.
func TestCheckLoopback(t *testing.T) {
	for url, ok := range map[string]bool{
		"http://127.0.0.1:8080/mcp": true, "http://localhost/mcp": true, "http://[::1]:9/mcp": true,
		"http://10.0.0.1/mcp": false, "https://127.0.0.1/mcp": false, "http://example.com/mcp": false,
	} {
		if err := CheckLoopback(url); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q) = %v", url, err)
		}
	}
}
