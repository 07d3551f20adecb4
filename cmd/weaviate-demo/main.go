// Command weaviate-demo runs a local weaviate-server with demo data for `make run`.
//
// It starts weaviate-server v1.35.2 (built by scripts/ensure-weaviate.sh) on 127.0.0.1, loads
// the demo collections Article and Author (fixtures.LoadDemo) and the showcase Venue and Paper
// (fixtures.LoadShowcase: 3,000 papers in 8 topic clusters, see docs/demo-data.md) when they do
// not exist yet (so edits made in the app survive a restart when --data-dir is kept; loading
// takes a few seconds the first time), prints one JSON line on stdout when the node is
// ready, and stays in the foreground until SIGINT or SIGTERM, then stops the node. It has no
// detach mode: the caller (the Makefile) backgrounds it. All logs go to stderr; stdout carries
// only the JSON line.
//
// Usage:
//
//	go run ./cmd/weaviate-demo --data-dir DIR [--port 8080] [--variant anonymous] [--verbose]
//
// Flags:
//
//	--data-dir DIR   where the node keeps its data; "" uses a temporary directory removed on exit
//	--port N         HTTP(S) port on 127.0.0.1 (default 8080); 0 picks a free port
//	--variant V      anonymous (default), apikey, tls, tls-apikey or no-graphql
//	--api-key K      the key for the apikey variants (default: generated)
//	--verbose        copy the server's own log to stderr
//
// The JSON line: {"url":"http://127.0.0.1:8080","port":8080,"pid":1234,"serverPid":1240,
// "variant":"anonymous","dataDir":"DIR","demoLoaded":true} (demoLoaded: this run created a demo
// collection), plus "apiKey" for the apikey
// variants (the caller needs it to connect; it is a local demo key) and "caCertFile" for the
// TLS variants. "pid" is this process: send it SIGTERM to stop cleanly. "serverPid" is the
// weaviate-server child, which dies with this process on Linux. Build the binary rather than
// backgrounding `go run`: a signal to `go run` does not reach its child.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

type ready struct {
	URL        string `json:"url"`
	Port       int    `json:"port"`
	PID        int    `json:"pid"`
	ServerPID  int    `json:"serverPid"`
	Variant    string `json:"variant"`
	DataDir    string `json:"dataDir"`
	DemoLoaded bool   `json:"demoLoaded"`
	APIKey     string `json:"apiKey,omitempty"`
	CACertFile string `json:"caCertFile,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "weaviate-demo:", err)
		os.Exit(1)
	}
}

func run() error {
	dataDir := flag.String("data-dir", "", "data directory to keep (\"\" = temporary)")
	port := flag.Int("port", 8080, "port on 127.0.0.1 (0 = free port)")
	variantName := flag.String("variant", "anonymous", "anonymous, apikey, tls, tls-apikey or no-graphql")
	apiKey := flag.String("api-key", "", "API key for the apikey variants (default: generated)")
	verbose := flag.Bool("verbose", false, "copy the server log to stderr")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: all options are flags, see -h", flag.Arg(0))
	}
	variant, err := weaviatenode.ParseVariant(*variantName)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	opts := weaviatenode.Options{Variant: variant, DataDir: *dataDir, Port: *port, APIKey: *apiKey}
	if *verbose {
		opts.Stdout, opts.Stderr = os.Stderr, os.Stderr
	}
	startCtx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	node, err := weaviatenode.Start(startCtx, opts)
	if err != nil {
		return err
	}
	defer node.Stop()

	loadCtx, cancelLoad := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelLoad()
	loaded, err := fixtures.LoadDemo(loadCtx, node)
	if err != nil {
		return fmt.Errorf("load demo data: %w", err)
	}
	showcase, err := fixtures.LoadShowcase(loadCtx, node)
	if err != nil {
		return fmt.Errorf("load the showcase (Venue, Paper): %w", err)
	}
	loaded = loaded || showcase
	line, _ := json.Marshal(ready{URL: node.URL, Port: node.Port, PID: os.Getpid(), ServerPID: node.PID, Variant: variant.String(),
		DataDir: node.DataDir, DemoLoaded: loaded, APIKey: node.APIKey, CACertFile: node.CACertFile})
	fmt.Println(string(line))

	select {
	case <-ctx.Done():
		fmt.Fprintln(os.Stderr, "weaviate-demo: stopping")
		return nil
	case <-node.Exited():
		return fmt.Errorf("weaviate-server (pid %d) exited unexpectedly: rerun with --verbose to see its log", node.PID)
	}
}
