package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"app/interop/fixture"
)

var (
	appOnce    sync.Once
	appURL     string
	appToken   string // the token created for the app this package started
	appFixture *fixture.Fixture
	appErr     error
	appStop    func()
)

// TestMain stops the app this package started, if any.
func TestMain(m *testing.M) {
	code := m.Run()
	if appStop != nil {
		appStop()
	}
	os.Exit(code)
}

// endpoint returns the MCP endpoint URL of a running `app --headless` and the bearer token to
// send: $APP_MCP_URL and $APP_MCP_TOKEN when scripts/mcp-interop.sh runs this test, else an app
// this package starts (authentication on, the default for a new config dir) with a readOnly
// token it creates through the app's own CLI.
func endpoint(t *testing.T) (url, token string) {
	t.Helper()
	if u := os.Getenv("APP_MCP_URL"); u != "" {
		return u, os.Getenv("APP_MCP_TOKEN")
	}
	start(t)
	return appURL, appToken
}

func start(t *testing.T) {
	t.Helper()
	appOnce.Do(func() { appURL, appToken, appFixture, appStop, appErr = startApp() })
	if appErr != nil {
		t.Fatalf("start app --headless: %v", appErr)
	}
}

// weaviateFixture returns the weaviate fixture the app under test was prepared with: the one in
// $APP_MCP_FIXTURE when scripts/mcp-interop.sh runs this test, else the one this package set
// up for the app it started (interop/fixture).
func weaviateFixture(t *testing.T) *fixture.Fixture {
	t.Helper()
	if os.Getenv("APP_MCP_URL") != "" {
		raw := os.Getenv("APP_MCP_FIXTURE")
		if raw == "" {
			t.Fatal("$APP_MCP_URL is set but $APP_MCP_FIXTURE is not: scripts/mcp-interop.sh sets both for the app it starts (interop/fixture)")
		}
		var f fixture.Fixture
		if err := json.Unmarshal([]byte(raw), &f); err != nil {
			t.Fatalf("$APP_MCP_FIXTURE: %v", err)
		}
		return &f
	}
	start(t)
	return appFixture
}

// startApp prepares a config dir (a readOnly token, and the weaviate fixture of
// interop/fixture), then starts the app on it with no terminal on stdin.
func startApp() (string, string, *fixture.Fixture, func(), error) {
	dir, err := os.MkdirTemp("", "app-gosdk-*")
	if err != nil {
		return "", "", nil, nil, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	bin := os.Getenv("APP_BIN")
	if bin == "" {
		root, err := moduleRoot()
		if err != nil {
			cleanup()
			return "", "", nil, nil, err
		}
		bin = filepath.Join(dir, "app")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			cleanup()
			return "", "", nil, nil, fmt.Errorf("go build of the app failed: %v\n%s", err, out)
		}
	}
	cfg := filepath.Join(dir, "config")
	env := append(os.Environ(), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=interop-test")
	create := exec.Command(bin, "--config-dir", cfg, "token", "create", "--name", "gosdk", "--level", "readOnly", "--json")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		cleanup()
		return "", "", nil, nil, fmt.Errorf("app token create: %w", err)
	}
	var created struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(out, &created); err != nil || created.Token == "" {
		cleanup()
		return "", "", nil, nil, fmt.Errorf("app token create --json printed no token (%v)", err)
	}
	setupCtx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	fx, err := fixture.Setup(setupCtx, bin, cfg, env)
	cancel()
	if err != nil {
		cleanup()
		return "", "", nil, nil, err
	}
	stopFixture := cleanup
	cleanup = func() { fx.Stop(); stopFixture() }
	cmd := exec.Command(bin, "--headless", "--config-dir", cfg, "--mcp-port", "0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = env
	cmd.Stdin = nil // no terminal: the approval dialog of app --headless answers No
	if err := cmd.Start(); err != nil {
		cleanup()
		return "", "", nil, nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		cleanup()
	}
	port, err := waitForPort(filepath.Join(cfg, "mcp-handshake.json"), exited)
	if err != nil {
		stop()
		return "", "", nil, nil, err
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port), created.Token, fx, stop, nil
}

// waitForPort polls the handshake file until it names a port, for at most 30 s.
func waitForPort(path string, exited <-chan error) (int, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return 0, fmt.Errorf("app exited before writing %s: %v", path, err)
		default:
		}
		if b, err := os.ReadFile(path); err == nil {
			var hs struct {
				Port int `json:"port"`
			}
			if json.Unmarshal(b, &hs) == nil && hs.Port > 0 {
				return hs.Port, nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0, fmt.Errorf("no port in %s after 30s", path)
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the app module")
	}
	return filepath.Dir(mod), nil
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
