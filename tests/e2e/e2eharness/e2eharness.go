// Package e2eharness is what tests/e2e and bench/grid share to drive the real UI in Chromium:
// the prerequisites (Wails CLI, Node, Chromium, Xvfb, the npm packages, weaviate-server), a
// CLI build of the app and a saved connection in a throwaway config dir, the driver plugin
// published into a loopback registry, and `wails dev` serving the frontend with working Go
// bindings on a private Xvfb display. Nothing here needs a *testing.T: every function returns
// an error, and every start returns its stop.
package e2eharness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"app/backend/plugins/registry"
	"app/internal/pluginpub"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
)

// KeyringEnv makes the app keep secrets in a file keyring with a fixed password, so no
// desktop keyring is needed.
var KeyringEnv = []string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"}

// RepoRoot walks up from the working directory to the directory whose go.mod declares
// `module app`.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module app") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("cannot find the repository root (a go.mod with `module app`) above the working directory")
		}
		dir = parent
	}
}

// WailsCLI is the Wails CLI on PATH or in $(go env GOPATH)/bin, where
// scripts/ensure-desktop-deps.sh installs it; "" when there is none.
func WailsCLI() string {
	if p, err := exec.LookPath("wails"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "wails")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// Prerequisites returns the Wails CLI and the Chromium binary, and one description per
// missing prerequisite ("" for a present one), in the form testenv.Require takes.
// scripts/setup.sh test installs them all.
func Prerequisites(root string) (wails, chromium string, missing []string) {
	wails = WailsCLI()
	missingWails := ""
	if wails == "" {
		missingWails = "the Wails CLI v2.16.0 (scripts/ensure-desktop-deps.sh installs it)"
	}
	missingNode := testenv.Tool("node", "npm")
	if missingNode != "" {
		missingNode += " (install Node.js 20+ with npm)"
	}
	chromium, _ = exec.LookPath("chromium")
	return wails, chromium, []string{
		harness.MissingTools("Xvfb", "chromium"),
		missingNode,
		missingWails,
		testenv.Dir(filepath.Join(root, "tests", "e2e", "node_modules", "@playwright", "test"), "@playwright/test and playwright-core in tests/e2e/node_modules (npm ci in tests/e2e)"),
		testenv.Dir(filepath.Join(root, "frontend", "node_modules"), "frontend/node_modules (npm ci in frontend)"),
		weaviatetest.MissingBinary(),
	}
}

// FreePort returns a loopback TCP port nothing listens on at the moment.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// BuildCLI builds a plain app binary (no window, so no GTK needed) at out, for the CLI
// commands.
func BuildCLI(root, out string) error {
	build := exec.Command("go", "build", "-o", out, ".")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build the app CLI: %v\n%s", err, b)
	}
	return nil
}

// AddConnection saves a connection named name to host:port (gRPC at grpcPort) in configDir
// with the CLI.
func AddConnection(cli, configDir, name, host string, port, grpcPort int) error {
	// The node's gRPC port too: without it the driver looks at 50051, finds nothing there, and
	// reads over REST (its fallback), which is not the path a user's node serves.
	add := exec.Command(cli, "--config-dir", configDir, "connection", "add", "--name", name, "--host", host, "--port", fmt.Sprint(port),
		"--grpc-port", fmt.Sprint(grpcPort))
	add.Env = append(os.Environ(), KeyringEnv...)
	if out, err := add.CombinedOutput(); err != nil {
		return fmt.Errorf("app connection add: %v\n%s", err, out)
	}
	return nil
}

// ServeRegistry publishes version 1.0.0 of the Weaviate driver plugin into dir and serves it
// over loopback HTTP, as a registry is in the field: the app installs the driver from it
// when the UI opens a saved connection (SPEC A.3). stop closes the server. Every plugin of
// also (pluginpub.Shipped's entries but Weaviate's) is published beside it, signed alike.
func ServeRegistry(ctx context.Context, dir string, also ...registry.Plugin) (reg pluginpub.Dev, stop func(), err error) {
	reg, err = pluginpub.PublishDev(ctx, dir, "1.0.0")
	if err != nil {
		return reg, nil, fmt.Errorf("publish the driver plugin into a dev registry: %w", err)
	}
	for _, p := range also {
		for _, s := range pluginpub.Shipped {
			if s.Plugin.Name != p.Name {
				continue
			}
			if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: dir, Version: "1.0.0", Key: reg.Signer, Plugin: s.Plugin, Package: s.Package}); err != nil {
				return reg, nil, fmt.Errorf("publish the %s plugin into the dev registry: %w", p.Name, err)
			}
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(reg.Dir)))
	reg.URL = srv.URL + "/index.json"
	return reg, srv.Close, nil
}

// DevOptions configure StartDev.
type DevOptions struct {
	Root, Wails string
	Display     *harness.Display
	// ConfigDir is the app's --config-dir.
	ConfigDir string
	// Env is added to the dev app's environment (after KeyringEnv), e.g. the registry's.
	Env []string
	// LogPath receives wails dev's output.
	LogPath string
	// Optimized builds the app as `wails build` does, with the compiler's optimizations:
	// `wails dev` turns them off (-gcflags "all=-N -l", for a debugger), which makes the app's
	// Go several times slower than the one users run. Benchmarks set it.
	Optimized bool
}

// Dev is a running `wails dev`.
type Dev struct {
	// URL is the dev server, http://127.0.0.1:<port>.
	URL     string
	LogPath string
	cmd     *exec.Cmd
	exited  chan struct{}
}

// StartDev starts `wails dev` on the display and waits, within ctx, until its dev server
// serves the app's page. On an error it has stopped what it started; the error carries the
// tail of the log.
func StartDev(ctx context.Context, o DevOptions) (*Dev, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(o.LogPath)
	if err != nil {
		return nil, err
	}
	d := &Dev{URL: fmt.Sprintf("http://127.0.0.1:%d", port), LogPath: o.LogPath, exited: make(chan struct{})}
	var compiler []string
	if o.Optimized {
		c, err := optimizingCompiler(filepath.Dir(o.LogPath))
		if err != nil {
			logf.Close()
			return nil, err
		}
		compiler = []string{"-compiler", c}
	}
	// -m: never `go mod tidy` the shared go.mod; -s/-skipbindings: the frontend and the
	// committed bindings are used as they are; the Vite dev server serves the frontend.
	d.cmd = exec.Command(o.Wails, append(append([]string{"dev", "-m", "-nosyncgomod", "-s", "-skipbindings", "-noreload", "-nogorebuild",
		"-nocolour", "-loglevel", "Warning", "-tags", "webkit2_41", "-devserver", fmt.Sprintf("127.0.0.1:%d", port)}, compiler...),
		"-appargs", fmt.Sprintf("--config-dir %s --mcp-port 0", o.ConfigDir))...)
	d.cmd.Dir = o.Root
	d.cmd.Env = o.Display.Env(append(append(append([]string{}, KeyringEnv...), o.Env...), "GDK_BACKEND=x11", "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")...)
	d.cmd.Stdout, d.cmd.Stderr = logf, logf
	d.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := d.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start wails dev: %v", err)
	}
	go func() { _ = d.cmd.Wait(); logf.Close(); close(d.exited) }()
	if err := waitServing(ctx, d.URL, d.exited); err != nil {
		d.Stop()
		return nil, fmt.Errorf("%v\nwails dev log (%s):\n%s", err, d.LogPath, d.LogTail())
	}
	return d, nil
}

// Stop interrupts wails dev and kills what is left of its process group (the Vite watcher and
// the dev app run in it).
func (d *Dev) Stop() {
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGINT)
	select {
	case <-d.exited:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
		<-d.exited
	}
	// The Vite watcher and the dev app run in the same process group.
	_ = syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
}

// LogTail is the last 4,000 bytes of wails dev's output.
func (d *Dev) LogTail() string {
	b, _ := os.ReadFile(d.LogPath)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// waitServing polls the dev server until it serves the app's index page.
func waitServing(ctx context.Context, url string, exited <-chan struct{}) error {
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(`id="root"`)) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not serve the app: %w", url, ctx.Err())
		case <-exited:
			return fmt.Errorf("wails dev exited before %s served the app", url)
		case <-time.After(time.Second):
		}
	}
}

// optimizingCompiler writes, into dir, the "compiler" wails dev is given with -compiler: go
// itself, minus the -gcflags "all=-N -l" that wails dev adds to every build.
func optimizingCompiler(dir string) (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "go-optimized")
	script := `#!/usr/bin/env bash
# go, without the "-gcflags all=-N -l" of wails dev (optimizations off, for a debugger)
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "-gcflags" ] && [ "${2:-}" = "all=-N -l" ]; then shift 2; continue; fi
  args+=("$1"); shift
done
exec ` + strconv.Quote(goBin) + ` "${args[@]}"
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		return "", err
	}
	return path, nil
}
