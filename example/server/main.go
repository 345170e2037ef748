// Command server runs the elicitgen example MCP server: five tools whose
// questions to a person are generated forms (see package app).
//
//	go run ./example/server                          # stdio
//	go run ./example/server --http 127.0.0.1:8080    # streamable HTTP
//
// Over HTTP it serves /mcp (stateful: clients that initialize, on
// 2025-06-18 or 2025-11-25) and /mcp/stateless (2026-07-28 clients). It
// listens on loopback addresses only: the example has no authentication.
//
// --conformance adds the fixtures of the official MCP conformance suites
// (see example/conformance/run.sh). ELICITGEN_STATE_KEYS, as
// "id:base64-secret[,id:base64-secret...]", sets the key ring that seals
// the requestState of 2026-07-28 calls (default: a random key per
// process); every instance behind one load balancer needs the same ring.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicitgen/elicitgen/example/app"
	"github.com/elicitgen/elicitgen/runtime"
)

func main() {
	httpAddr := flag.String("http", "", "serve streamable HTTP on this loopback `address` (host:port) instead of stdio")
	conformance := flag.Bool("conformance", false, "also serve the fixtures of the official MCP conformance suites")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("elicitgen-example: ")
	if err := run(*httpAddr, *conformance); err != nil {
		log.Fatal(err)
	}
}

func run(httpAddr string, conformance bool) error {
	opts := app.Options{Conformance: conformance}
	if spec := os.Getenv("ELICITGEN_STATE_KEYS"); spec != "" {
		keys, err := runtime.ParseKeyRing(spec)
		if err != nil {
			return err
		}
		opts.Keys = keys
	}
	s := app.NewServer(opts)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if httpAddr == "" {
		return s.Run(ctx, &mcp.StdioTransport{})
	}
	return serveHTTP(ctx, s, httpAddr)
}

// serveHTTP serves s on addr, which must be a loopback address, until ctx
// ends.
func serveHTTP(ctx context.Context, s *mcp.Server, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--http %q: listen on a loopback address (127.0.0.1, [::1], localhost): the example server has no authentication", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: app.HTTPHandler(s), ReadHeaderTimeout: 10 * time.Second}
	log.Printf("serving http://%s/mcp (stateful) and http://%s/mcp/stateless (2026-07-28)", ln.Addr(), ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
