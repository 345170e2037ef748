package gosdk_test

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/runtime"
	"github.com/elicitgen/elicitgen/runtime/adapter"
	"github.com/elicitgen/elicitgen/runtime/gosdk"
	"github.com/elicitgen/elicitgen/runtime/internal/testforms"
	"github.com/elicitgen/elicitgen/runtime/seal"
)

// TestObservePrompt: a prompt's asks are observed as a tool's are, with
// the method prompts/get and the prompt's own name.
func TestObservePrompt(t *testing.T) {
	for _, version := range []string{runtime.Version20251125, ""} {
		var mu sync.Mutex
		var got []runtime.Event
		obs := runtime.ObserverFunc(func(_ context.Context, e runtime.Event) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, e)
		})
		ctx := context.Background()
		s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "v0"}, nil)
		var runs atomic.Int32
		s.AddPrompt(&mcp.Prompt{Name: "deploy"}, gosdk.HandlePrompt(&gosdk.Config{Options: adapter.Options{Keys: seal.NewRandomKeyRing(), Observer: obs}}, deployPrompt(&runs)))
		answer, _ := testforms.AcceptDeploy(testforms.Deploy{Branch: "main", Env: testforms.EnvProd, Replicas: 1})
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v7"}, &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: answer.Content}, nil
			},
		})
		ct, st := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "deploy", Arguments: map[string]string{"project": "alpha"}}); err != nil {
			t.Fatal(err)
		}
		cs.Close()
		ss.Close()
		var kinds []string
		for _, e := range got {
			kinds = append(kinds, e.Kind.String())
			if e.Method != "prompts/get" || e.Tool != "deploy" || e.ClientName != "c" || e.ClientVersion != "v7" || e.CallID != got[0].CallID {
				t.Errorf("%s: method %q tool %q client %q %q call %q", e.Kind, e.Method, e.Tool, e.ClientName, e.ClientVersion, e.CallID)
			}
		}
		want := []string{"asked", "answered", "call_end"}
		if version == "" {
			want = []string{"asked", "call_end", "answered", "call_end"}
		}
		if !slices.Equal(kinds, want) {
			t.Errorf("%q: events %v, want %v", version, kinds, want)
		}
	}
}
