// Command app-mcp is the stdio bridge AI clients launch (SPEC.md B "What the service does"
// 5): MCP on stdin and stdout, forwarded to the running app's loopback endpoint
// (backend/bridge). It finds the app through the handshake file of the config dir and starts
// it when it is not running. stdout carries protocol only; logs go to stderr.
//
// Usage: app-mcp [--config-dir DIR] [--log-level error|warn|info|debug] [--no-start] [--version]
//
// APP_MCP_TOKEN, when set, is the bearer token of its requests; otherwise the short-lived
// bridge token of the handshake file is used (readOnly).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/sirupsen/logrus"

	"app/backend/bridge"
	"app/backend/buildinfo"
	"app/backend/config"
)

func main() {
	configDir := flag.String("config-dir", "", "the app's config dir (default $APP_CONFIG_DIR, else the user config dir/App)")
	level := flag.String("log-level", "warn", "what is logged on stderr: error, warn, info or debug")
	noStart := flag.Bool("no-start", false, "do not start App when it is not running")
	headless := flag.Bool("headless", false, "when App must be started, start app --headless even where there is a display")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println("app-mcp version " + buildinfo.Version())
		return
	}

	log := logrus.New()
	log.SetOutput(os.Stderr)
	lvl, err := logrus.ParseLevel(*level)
	if err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: --log-level %q: %v\n", *level, err)
		os.Exit(2)
	}
	log.SetLevel(lvl)

	dir, err := config.ResolveDir(*configDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: %v\n", err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := bridge.Options{ConfigDir: dir, Token: os.Getenv("APP_MCP_TOKEN"), Log: log}
	if !*noStart {
		opts.Launcher = &bridge.Launcher{ConfigDir: *configDir, Headless: *headless}
	}
	b, err := bridge.New(ctx, opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: %v\n", err)
		os.Exit(1)
	}
	if err := b.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: %v\n", err)
		os.Exit(1)
	}
}
