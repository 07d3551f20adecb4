// Package cli is the app's command line: the root command (the window, --headless, or a
// subcommand), the subcommands that manage connections, settings, tokens, plugins, AI clients
// and data from scripts, and the run of the backend they share. The window itself is the
// main package's (it embeds the built frontend); Main takes it as a function.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"app/backend/approval"
	"app/backend/buildinfo"
	"app/backend/config"
	"app/backend/control"
	"app/backend/core"
	"app/backend/driver"
	"app/backend/logging"
	"app/backend/plugins/registry"
)

// Desktop opens the window and blocks until it closes (the main package's runDesktop).
type Desktop func(ctx context.Context, g Globals, mcpPort int) error

// Main runs the command line with os.Args and exits as a command line does: 0 on success or
// when a running app took over, 1 with the error on stderr (as JSON with --json) otherwise.
func Main(desktop Desktop) {
	root := NewRoot(desktop)
	if err := root.Execute(); err != nil {
		var h handedOver
		if errors.As(err, &h) {
			fmt.Fprintln(os.Stderr, "app:", h.msg)
			return
		}
		var printed silentFailure
		if errors.As(err, &printed) {
			os.Exit(1)
		}
		if asJSON, _ := root.PersistentFlags().GetBool("json"); asJSON {
			printError(os.Stderr, err)
		} else {
			fmt.Fprintln(os.Stderr, "app:", err)
		}
		os.Exit(1)
	}
}

// printError writes a failed command's error for machines (--json): {"error": {"message",
// "kind"}}, kind being the driver's error kind when a database call failed.
func printError(w io.Writer, err error) {
	e := map[string]any{"message": err.Error()}
	var de *driver.Error
	if errors.As(err, &de) {
		e["kind"] = string(de.Kind)
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// handedOver ends a second launch on a config dir: the running app took over.
type handedOver struct{ msg string }

func (h handedOver) Error() string { return h.msg }

// OneInstance takes the config dir's one-instance lock (issue 20). When another app holds it,
// this launch hands its arguments to that app, which brings its window to the front, and
// ends with handedOver: a second app could not bind the MCP port nor share the config dir.
func OneInstance(ctx context.Context, g Globals) (func(), error) {
	dir, err := config.ResolveDir(g.configDir)
	if err != nil {
		return nil, err
	}
	unlock, err := config.LockInstance(dir)
	if !errors.Is(err, config.ErrRunning) {
		return unlock, err
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	raised, rerr := control.Raise(rctx, dir, os.Args[1:])
	switch {
	case errors.Is(rerr, control.ErrNotRunning):
		return nil, fmt.Errorf("%w (%s), but it does not answer yet (starting, or hung); try again in a moment", config.ErrRunning, dir)
	case rerr != nil:
		return nil, fmt.Errorf("%w (%s), and it could not be asked to show its window: %v", config.ErrRunning, dir, rerr)
	case raised:
		return nil, handedOver{"App is already running on " + dir + ": its window was brought to the front"}
	}
	return nil, handedOver{"App is already running on " + dir + " without a window (app --headless, or a window still opening); stop a headless one to open the window here"}
}

// Globals are the flags every command shares.
type Globals struct {
	configDir string
	json      bool
	// registry and registryKey name a plugin registry other than the official one.
	registry, registryKey string
}

// NewRoot is the root command: the window (desktop) with no subcommand, the backend alone with
// --headless, and every subcommand.
func NewRoot(desktop Desktop) *cobra.Command {
	var g Globals
	var headless bool
	var mcpPort int
	root := &cobra.Command{
		Use:           "app",
		Short:         "A desktop database client for vector databases, with a local MCP endpoint",
		Version:       buildinfo.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if headless {
				return runHeadless(cmd.Context(), g, mcpPort)
			}
			return desktop(cmd.Context(), g, mcpPort)
		},
	}
	root.PersistentFlags().StringVar(&g.configDir, "config-dir", "", "config dir (default $APP_CONFIG_DIR, else the user config dir/App)")
	root.PersistentFlags().BoolVar(&g.json, "json", false, "print results as JSON")
	root.PersistentFlags().StringVar(&g.registry, "registry", "", "plugin registry index URL, http(s) or file (default $APP_PLUGIN_REGISTRY, else the setting plugins.registry, else the official registry)")
	root.PersistentFlags().StringVar(&g.registryKey, "registry-key", "", "public key (ed25519:...) trusted to sign that registry's index, besides the official key")
	root.Flags().BoolVar(&headless, "headless", false, "run the backend (MCP server, connections) without a window")
	root.Flags().IntVar(&mcpPort, "mcp-port", -1, "MCP server port on 127.0.0.1 (0 picks a free port; default from settings)")
	root.AddCommand(newConnectionCmd(&g), newSettingsCmd(&g), newActivityCmd(&g), newTokenCmd(&g), newPluginCmd(&g), newClientCmd(&g), newExportCmd(&g), newImportCmd(&g), newQueryCmd(&g), newIntegrityCmd(&g), newBackupCmd(&g))
	return root
}

// OpenCore resolves the config dir and opens the backend with a logger suited to the mode.
func OpenCore(ctx context.Context, g Globals, headless bool, mcpPort int) (*core.Core, func(), error) {
	dir, err := config.ResolveDir(g.configDir)
	if err != nil {
		return nil, nil, err
	}
	log, closeLog, err := logging.New(logging.Options{Headless: headless, Dir: dir, JSON: g.json})
	if err != nil {
		return nil, nil, err
	}
	officialURL, officialKey := buildinfo.Registry()
	c, err := core.Open(ctx, core.Options{
		Dir: dir, MCPPort: mcpPort, Version: buildinfo.Version(), Log: log,
		Registry: registry.Named{URL: g.registry, Key: g.registryKey},
		Official: registry.Official{URL: officialURL, Key: officialKey},
		Mirror:   bundledMirror(),
	})
	if err != nil {
		_ = closeLog()
		return nil, nil, err
	}
	return c, func() { _ = closeLog() }, nil
}

// runHeadless serves until SIGINT, SIGTERM or SIGHUP, then shuts down cleanly. SIGHUP is the
// terminal it runs in closing: left to its default it would end the process before the
// activity log has written what it holds queued.
func runHeadless(parent context.Context, g Globals, mcpPort int) error {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	unlock, err := OneInstance(ctx, g)
	if err != nil {
		return err
	}
	defer unlock()
	c, done, err := OpenCore(ctx, g, true, mcpPort)
	if err != nil {
		return err
	}
	defer done()
	// With no window, an AI client's write is approved at this terminal, or denied when
	// nobody sits at one (ARCHITECTURE.md 3, Approvals).
	dialog := approval.Terminal(os.Stdin, os.Stderr)
	c.Approvals().SetDialog(dialog)
	if !approval.CanAsk(dialog) {
		c.Log().Warn("no terminal and no window: AI clients' writes that need approval are refused (nobody can be asked); run app --headless at a terminal, or the app with its window, to approve them")
	}
	if err := c.Start(ctx); err != nil {
		return err
	}
	c.Log().WithField("configDir", c.Dir()).Info("running headless; stop with Ctrl-C")
	<-ctx.Done()
	c.Log().Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.Stop(shutdownCtx)
}

// ErrNoDisplay explains why the window cannot open and what to run instead.
var ErrNoDisplay = errors.New("no display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open: run `app --headless` for the MCP server and connections without a window, or start the app under a display (for example `xvfb-run make run`)")

// HasDisplay tells whether a window can open; only Linux and the BSDs need a display server.
func HasDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// bundledMirror is the signed registry mirror a package installs beside the program, or "".
func bundledMirror() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Join(filepath.Dir(exe), registry.MirrorDir)
	if _, err := os.Stat(filepath.Join(dir, "index.json")); err != nil {
		return ""
	}
	return dir
}
