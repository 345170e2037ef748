package sdktest

import (
	"sync"
	"testing"

	"github.com/elicitgen/elicitgen/runtime"
)

// TestMixedClients connects a go-sdk client and an mcp-go client to the
// same server, for a server of each SDK and on each era, and runs the
// two-step tool from both clients at once: one handler body, one key
// ring, two client SDKs.
//
// Transports: a go-sdk server gets its go-sdk client over the in-memory
// transport and its mcp-go client over pipes; an mcp-go server gets its
// go-sdk client over pipes (its stdio server is a process-wide
// singleton) and its mcp-go client in process.
func TestMixedClients(t *testing.T) {
	for _, serverSDK := range []string{goSDK, mcpGo} {
		for _, v := range versions {
			t.Run(serverSDK+"_server/"+v, func(t *testing.T) {
				s := newServer(t, serverSDK, runtime.UnavailableAuto)
				clients := map[string]*conn{
					goSDK: connect(t, s, goSDK, clientOpts{version: clientVersion(v), answer: scripted}),
					mcpGo: connect(t, s, mcpGo, clientOpts{version: clientVersion(v), answer: scripted, inProcess: serverSDK == mcpGo}),
				}
				var wg sync.WaitGroup
				for name, c := range clients {
					wg.Go(func() {
						res, err := c.call(callCtx(t), "deploy2", map[string]any{"client": name})
						if want := acceptedText + ` approved=true note="ship it"`; err != nil || res.Text != want {
							t.Errorf("%s client: call = %+v, %v; want %q", name, res, err, want)
						}
					})
				}
				wg.Wait()
				want := int32(2) // push era: each call runs the handler once
				if runtime.EraOf(v).MultiRoundTrip() {
					want = 2 * 3 // two asks: input_required twice, then complete
				}
				if got := s.runs.Load(); got != want {
					t.Errorf("handler runs = %d, want %d", got, want)
				}
			})
		}
	}
}
