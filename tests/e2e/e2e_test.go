// Package e2e runs the real UI against the real Go backend: `wails dev` on a private Xvfb
// display serves the frontend with working bindings, and headless Chromium (playwright-core,
// ui.mjs) checks what a user sees, against a real weaviate-server loaded with the demo data.
// Slow (wails dev compiles the app): about a minute warm. Its prerequisites (Xvfb, Chromium,
// Node, the Wails CLI, the npm packages of tests/e2e and frontend, weaviate-server) come from
// scripts/setup.sh test; without them it skips in a plain `go test` and fails under `make
// test` (app/internal/testenv).
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/fixtures"
	"app/internal/pluginpub"
	"app/internal/testenv"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
	"app/tests/desktop/harness"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

var keyringEnv = []string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"}

// wailsCLI is the Wails CLI on PATH or in $(go env GOPATH)/bin, where
// scripts/ensure-desktop-deps.sh installs it; "" when there is none.
func wailsCLI() string {
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

// requireE2E ends the test, naming everything missing in one line, when a prerequisite is
// missing: a skip in a plain `go test`, a failure under `make test` (app/internal/testenv).
// scripts/setup.sh test installs them all. It returns the Wails CLI and the Chromium binary.
func requireE2E(t *testing.T, root string) (wails, chromium string) {
	t.Helper()
	wails = wailsCLI()
	missingWails := ""
	if wails == "" {
		missingWails = "the Wails CLI v2.16.0 (scripts/ensure-desktop-deps.sh installs it)"
	}
	missingNode := testenv.Tool("node", "npm")
	if missingNode != "" {
		missingNode += " (install Node.js 20+ with npm)"
	}
	chromium, _ = exec.LookPath("chromium")
	testenv.Require(t,
		harness.MissingTools("Xvfb", "chromium"),
		missingNode,
		missingWails,
		testenv.Dir(filepath.Join(root, "tests", "e2e", "node_modules", "playwright-core"), "playwright-core in tests/e2e/node_modules (npm ci in tests/e2e)"),
		testenv.Dir(filepath.Join(root, "frontend", "node_modules"), "frontend/node_modules (npm ci in frontend)"),
		weaviatetest.MissingBinary(),
	)
	return wails, chromium
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
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

type checkResult struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

func TestUIAgainstTheRealBackend(t *testing.T) {
	root := harness.RepoRoot(t)
	wails, chromium := requireE2E(t, root)
	art := harness.ArtifactDir(t)

	// A plain binary for the CLI commands (no window, so no GTK needed).
	cli := filepath.Join(t.TempDir(), "app")
	build := exec.Command("go", "build", "-o", cli, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build the app CLI: %v\n%s", err, out)
	}
	// A real node with the demo data of `make run` (Article, Author), and a saved
	// connection to it.
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	loadCtx, loadCancel := context.WithTimeout(context.Background(), time.Minute)
	if _, err := fixtures.LoadDemo(loadCtx, node); err != nil {
		t.Fatalf("load the demo data: %v", err)
	}
	loadCancel()
	// A node that requires an API key, for the form's Test (Authentication failed:).
	keyNode := weaviatetest.Start(t, weaviatenode.APIKey)
	configDir := t.TempDir()
	add := exec.Command(cli, "--config-dir", configDir, "connection", "add", "--name", "Demo Weaviate", "--host", node.Host, "--port", fmt.Sprint(node.Port))
	add.Env = append(os.Environ(), keyringEnv...)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("app connection add: %v\n%s", err, out)
	}

	// The Weaviate driver is a plugin: the app installs it from this registry when the UI
	// opens the saved connection (SPEC A.3).
	pubCtx, pubCancel := context.WithTimeout(context.Background(), 3*time.Minute)
	reg, err := pluginpub.PublishDev(pubCtx, t.TempDir(), "1.0.0")
	pubCancel()
	if err != nil {
		t.Fatalf("publish the driver plugin into a dev registry: %v", err)
	}
	// Served over loopback HTTP, as a registry is in the field.
	regSrv := httptest.NewServer(http.FileServer(http.Dir(reg.Dir)))
	t.Cleanup(regSrv.Close)
	reg.URL = regSrv.URL + "/index.json"

	d := harness.StartXvfb(t, 1440, 900)
	port := freePort(t)
	devURL := fmt.Sprintf("http://127.0.0.1:%d", port)
	logPath := filepath.Join(art, "wails-dev.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	// -m: never `go mod tidy` the shared go.mod; -s/-skipbindings: the frontend and the
	// committed bindings are used as they are; the Vite dev server serves the frontend.
	dev := exec.Command(wails, "dev", "-m", "-nosyncgomod", "-s", "-skipbindings", "-noreload", "-nogorebuild",
		"-nocolour", "-loglevel", "Warning", "-tags", "webkit2_41", "-devserver", fmt.Sprintf("127.0.0.1:%d", port),
		"-appargs", fmt.Sprintf("--config-dir %s --mcp-port 0", configDir))
	dev.Dir = root
	dev.Env = d.Env(append(append(keyringEnv, reg.Env()...), "GDK_BACKEND=x11", "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")...)
	dev.Stdout, dev.Stderr = logf, logf
	dev.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := dev.Start(); err != nil {
		t.Fatalf("start wails dev: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = dev.Wait(); logf.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-dev.Process.Pid, syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-dev.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		// The Vite watcher and the dev app run in the same process group.
		_ = syscall.Kill(-dev.Process.Pid, syscall.SIGKILL)
	})
	logTail := func() string {
		b, _ := os.ReadFile(logPath)
		if len(b) > 4000 {
			b = b[len(b)-4000:]
		}
		return string(b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	if err := waitServing(ctx, devURL, exited); err != nil {
		t.Fatalf("%v\nwails dev log (%s):\n%s", err, logPath, logTail())
	}

	run := exec.CommandContext(ctx, "node", "ui.mjs")
	run.Dir = filepath.Join(root, "tests", "e2e")
	run.Env = append(os.Environ(), "APP_E2E_URL="+devURL, "APP_E2E_CLI="+cli, "APP_E2E_CONFIG_DIR="+configDir,
		fmt.Sprintf("APP_E2E_DEMO_ADDR=%s:%d", node.Host, node.Port), "APP_E2E_UNREACHABLE_PORT="+fmt.Sprint(freePort(t)),
		fmt.Sprintf("APP_E2E_APIKEY_ADDR=%s:%d", keyNode.Host, keyNode.Port), "APP_E2E_DISPLAY="+d.Name,
		"APP_E2E_ARTIFACTS="+art, "CHROMIUM="+chromium)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, runErr := run.Output()
	var results []checkResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r checkResult
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Check != "" {
			results = append(results, r)
		}
	}
	if len(results) == 0 {
		t.Fatalf("ui.mjs reported no checks (%v)\nstdout: %s\nstderr: %s\nwails dev log:\n%s", runErr, out, stderr.String(), logTail())
	}
	for _, r := range results {
		t.Run(r.Check, func(t *testing.T) {
			if !r.OK {
				t.Fatal(r.Error)
			}
		})
	}
	if runErr != nil && !t.Failed() {
		t.Fatalf("ui.mjs: %v\nstderr: %s", runErr, stderr.String())
	}
	t.Logf("screenshots in %s", art)
}
