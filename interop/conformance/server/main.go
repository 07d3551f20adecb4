// Command server is the conformance server: the real protocol core (backend/mcp) mounted
// with the fixtures the official MCP conformance suite (@modelcontextprotocol/conformance)
// drives, so that the protocol mechanics the app's own tools do not reach (images, audio,
// embedded resources, log messages, sampling/elicitation/roots requests to legacy clients,
// multi-round input_required) are proven against the suite too. scripts/mcp-interop.sh
// builds it and runs the suite's server scenarios of 2025-06-18, 2025-11-25 and 2026-07-28
// against it with no expected-failures baseline (interop/ts/conformance-server.mjs).
//
// It is test-only: nothing in the app imports it, and `go list -deps app` does not list it.
// The fixtures are written here from the suite's scenario descriptions; none is copied from
// the suite or an SDK.
//
// It serves exactly as the app does: /mcp on 127.0.0.1, the same Host and Origin guard, the
// same pipeline. Authentication is off the way the app's is when mcp.requireAuth is false: no
// Authenticator, so every loopback caller is the anonymous principal (tools:read,
// resources:read), which is all the fixtures need (none has a scope of its own).
//
// Usage: server [--port N] [--port-file FILE]
//
//	--port N          port to bind on 127.0.0.1 (0, the default, picks a free one)
//	--port-file FILE  write the bound port there (the runner reads it; never hardcode it)
//
// It prints "listening on http://127.0.0.1:PORT/mcp" and serves until SIGINT or SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/mcp"
)

func main() {
	port := flag.Int("port", 0, "port to bind on 127.0.0.1 (0 picks a free one)")
	portFile := flag.String("port-file", "", "write the bound port to this file")
	verbose := flag.Bool("v", false, "log every request to stderr")
	flag.Parse()
	if err := run(*port, *portFile, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "conformance server:", err)
		os.Exit(1)
	}
}

func run(port int, portFile string, verbose bool) error {
	log := logrus.New()
	log.SetOutput(os.Stderr)
	log.SetLevel(logrus.WarnLevel)
	if verbose {
		log.SetLevel(logrus.DebugLevel)
	}
	f, err := newFixtures()
	if err != nil {
		return err
	}
	srv, err := mcp.NewServer(mcp.Options{
		Name:              "app-conformance-fixtures",
		Version:           "test",
		Logger:            log,
		Tools:             f.tools(),
		Resources:         f.resources(),
		ResourceTemplates: f.resourceTemplates(),
		Prompts:           f.prompts(),
	})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bound, err := srv.Listen(ctx, port)
	if err != nil {
		return err
	}
	if portFile != "" {
		if err := os.WriteFile(portFile, []byte(strconv.Itoa(bound)+"\n"), 0o600); err != nil {
			return err
		}
	}
	fmt.Printf("listening on http://127.0.0.1:%d/mcp\n", bound)
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
