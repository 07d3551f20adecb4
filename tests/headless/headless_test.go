// Package headless tests the app binary from the outside, as scripts and MCP clients use it:
// `app --headless`, the config-dir contract, the handshake file and the CLI.
package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// appBin and bridgeBin are the app and app-mcp binaries, built once into one directory.
var appBin, bridgeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "app-headless-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	appBin = filepath.Join(dir, "app")
	bridgeBin = filepath.Join(dir, "app-mcp") // beside app, where the bridge looks for it
	for out, pkg := range map[string]string{appBin: "app", bridgeBin: "app/cmd/app-mcp"} {
		// Stamped as scripts/build-app.sh stamps a build (version_test.go reads it back).
		build := exec.Command("go", "build", "-ldflags", "-X app/backend/buildinfo.version="+stampedVersion, "-o", out, pkg)
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building", pkg+":", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is a clean environment for the child: a file keyring, no display.
func env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "APP_") || strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, append([]string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"}, extra...)...)
}

func run(t *testing.T, envv []string, stdin string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, appBin, args...)
	cmd.Env = envv
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

type handshake struct {
	Port            int    `json:"port"`
	PID             int    `json:"pid"`
	ProtocolVersion string `json:"protocolVersion"`
	InstanceID      string `json:"instanceId"`
}

// startHeadless starts `app --headless` and waits for its handshake file.
func startHeadless(t *testing.T, dir string, envv []string, args ...string) (*exec.Cmd, handshake, *syncBuffer) {
	t.Helper()
	return startApp(t, dir, envv, append([]string{"--headless", "--mcp-port", "0"}, args...)...)
}

// startApp is startHeadless with the app's arguments as given (no --mcp-port 0: the settings'
// port applies).
func startApp(t *testing.T, dir string, envv []string, args ...string) (*exec.Cmd, handshake, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(appBin, args...)
	cmd.Env = envv
	// Read while the app writes it (a test waits for a log line): a locked buffer.
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(filepath.Join(dir, "mcp-handshake.json"))
		if err == nil {
			var h handshake
			if json.Unmarshal(data, &h) == nil && h.Port > 0 && h.PID == cmd.Process.Pid {
				return cmd, h, logs
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no handshake file in %s; logs:\n%s", dir, logs.String())
	return nil, handshake{}, nil
}

// mcpRequest is one request to the app's MCP endpoint as a client of the stateless revision
// 2026-07-28 sends it: a JSON-RPC POST to /mcp with the revision's _meta and headers.
type mcpRequest struct {
	// Method is the JSON-RPC method ("tools/list", "tools/call", ...), also sent as Mcp-Method.
	Method string
	// Authorization is the header's value ("Bearer app_..."); "" sends none.
	Authorization string
	// Params go beside the revision's _meta: a "name" (a tool's) is also sent as Mcp-Name, and
	// the entries of a "_meta" (clientInfo, progressToken) join the revision's.
	Params map[string]any
	// OnLine, when set, sees each line of the answer as it arrives (an event stream's frames),
	// while the request is still open.
	OnLine func(line string)
}

// mcpAnswer is the app's answer to an mcpRequest. A request that got no answer has StatusCode
// 0 and the transport error's text as Body.
type mcpAnswer struct {
	StatusCode int
	Header     http.Header
	Body       string
}

// mcpPost sends r to the app's MCP endpoint on port and reads the whole answer: the one way
// these tests speak HTTP to it.
func mcpPost(ctx context.Context, port int, r mcpRequest) mcpAnswer {
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	params := map[string]any{"_meta": meta}
	for k, v := range r.Params {
		if k == "_meta" {
			maps.Copy(meta, v.(map[string]any))
		} else {
			params[k] = v
		}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": r.Method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), bytes.NewReader(body))
	if err != nil {
		return mcpAnswer{Body: err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", r.Method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	if r.Authorization != "" {
		req.Header.Set("Authorization", r.Authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return mcpAnswer{Body: err.Error()}
	}
	defer resp.Body.Close()
	var all strings.Builder
	lines := bufio.NewReader(resp.Body)
	for {
		line, err := lines.ReadString('\n')
		all.WriteString(line)
		if r.OnLine != nil && line != "" {
			r.OnLine(strings.TrimSuffix(line, "\n"))
		}
		if err != nil { // io.EOF at the end; a cancelled request keeps what came before
			break
		}
	}
	return mcpAnswer{StatusCode: resp.StatusCode, Header: resp.Header, Body: all.String()}
}

func TestHeadless(t *testing.T) {
	// SIGHUP is a closed terminal: headless mode lives in one, and its hangup must end it as
	// cleanly as ^C does, the activity log written.
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(fmt.Sprintf("app --headless exits cleanly on %v and removes the handshake file", sig), func(t *testing.T) {
			dir := t.TempDir()
			cmd, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)
			if h.ProtocolVersion != "2026-07-28" || h.InstanceID == "" {
				t.Fatalf("handshake %+v", h)
			}
			st, _ := os.Stat(filepath.Join(dir, "mcp-handshake.json"))
			if st.Mode().Perm() != 0o600 {
				t.Fatalf("handshake mode %v, want 0600", st.Mode().Perm())
			}
			// The server answers on the port the handshake names.
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("GET /mcp = %d, want 405", resp.StatusCode)
			}
			_ = cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("exit: %v; logs:\n%s", err, logs)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("did not exit within 15 s")
			}
			if _, err := os.Stat(filepath.Join(dir, "mcp-handshake.json")); !os.IsNotExist(err) {
				t.Fatal("handshake file left behind after a clean exit")
			}
		})
	}
	t.Run("APP_CONFIG_DIR chooses the config dir when no flag does", func(t *testing.T) {
		dir := t.TempDir()
		startHeadless(t, dir, env("APP_CONFIG_DIR="+dir))
	})
	t.Run("a port in use is one clear sentence", func(t *testing.T) {
		dir := t.TempDir()
		_, h, _ := startHeadless(t, dir, env(), "--config-dir", dir)
		other := t.TempDir()
		_, stderr, err := run(t, env(), "", "--headless", "--config-dir", other, "--mcp-port", fmt.Sprint(h.Port))
		if err == nil || !strings.Contains(stderr, fmt.Sprintf("127.0.0.1:%d", h.Port)) {
			t.Fatalf("err %v, stderr %q", err, stderr)
		}
	})
}

func TestDesktopWithoutDisplay(t *testing.T) {
	t.Run("without a display the app says so and points to --headless, with no GTK panic", func(t *testing.T) {
		_, stderr, err := run(t, env(), "", "--config-dir", t.TempDir())
		if err == nil {
			t.Fatal("exited 0 without a display")
		}
		if !strings.Contains(stderr, "no display") || !strings.Contains(stderr, "app --headless") || strings.Contains(stderr, "panic") {
			t.Fatalf("stderr %q", stderr)
		}
	})
}

func TestCLI(t *testing.T) {
	t.Run("connection add, list and remove round-trip with --json", func(t *testing.T) {
		dir := t.TempDir()
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "add", "--name", "local", "--host", "127.0.0.1", "--port", "8080"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "list", "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var list []struct {
			Name     string `json:"name"`
			Settings struct {
				Port    int    `json:"port"`
				SSLMode string `json:"sslMode"`
			} `json:"settings"`
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0].Name != "local" || list[0].Settings.SSLMode != "Disabled" {
			t.Fatalf("list %q: %v", out, err)
		}
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "remove", "local"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		out, _, _ = run(t, env(), "", "--config-dir", dir, "connection", "list", "--json")
		if strings.TrimSpace(out) != "[]" {
			t.Fatalf("after remove: %q", out)
		}
	})
	t.Run("an API key from stdin goes to the keyring, not to any config file", func(t *testing.T) {
		dir := t.TempDir()
		_, stderr, err := run(t, env(), "k-3f9a-secret\n", "--config-dir", dir, "connection", "add", "--name", "cloud", "--host", "h.example", "--port", "443", "--ssl-mode", "Required", "--auth-method", "API Key", "--api-key-stdin")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || strings.Contains(p, string(filepath.Separator)+"keyring"+string(filepath.Separator)) {
				return nil
			}
			data, _ := os.ReadFile(p)
			if bytes.Contains(data, []byte("k-3f9a-secret")) {
				t.Errorf("%s holds the API key", p)
			}
			return nil
		})
	})
	t.Run("a wrong keyring password is one clear sentence", func(t *testing.T) {
		dir := t.TempDir()
		if _, stderr, err := run(t, env(), "key1\n", "--config-dir", dir, "connection", "add", "--name", "c", "--host", "h", "--port", "1", "--auth-method", "API Key", "--api-key-stdin"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		_, stderr, err := run(t, append(env(), "APP_KEYRING_PASSWORD=wrong"), "key2\n", "--config-dir", dir, "connection", "add", "--name", "d", "--host", "h", "--port", "1", "--auth-method", "API Key", "--api-key-stdin")
		if err == nil || !strings.Contains(stderr, "APP_KEYRING_PASSWORD does not open") {
			t.Fatalf("err %v, stderr %q", err, stderr)
		}
	})
	t.Run("settings set is read back by settings get", func(t *testing.T) {
		dir := t.TempDir()
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "settings", "set", "mcp.requireAuth", "true"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		out, _, err := run(t, env(), "", "--config-dir", dir, "settings", "get", "mcp.requireAuth")
		if err != nil || strings.TrimSpace(out) != "true" {
			t.Fatalf("got %q, %v", out, err)
		}
	})
}

func TestSettingsPickedUpWhileRunning(t *testing.T) {
	t.Run("a CLI change to mcp.enabled made while the app runs is picked up by the running app", func(t *testing.T) {
		dir := t.TempDir()
		_, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "settings", "set", "mcp.enabled", "false"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		waitFor(t, "the server to stop", func() bool {
			_, err := os.Stat(filepath.Join(dir, "mcp-handshake.json"))
			if !os.IsNotExist(err) {
				return false
			}
			_, err = http.Get(fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port))
			return err != nil
		}, logs)
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "settings", "set", "mcp.enabled", "true"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		waitFor(t, "the server to start again", func() bool {
			_, err := os.Stat(filepath.Join(dir, "mcp-handshake.json"))
			return err == nil
		}, logs)
	})
}

func waitFor(t *testing.T, what string, cond func() bool, logs *syncBuffer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; logs:\n%s", what, logs)
}

// Issue 20, item 4: one app per config dir. A second launch hands over to the running app and
// exits at once, successfully, saying so; the first stays the only one serving the port.
func TestASecondLaunchHandsOverToTheRunningApp(t *testing.T) {
	dir := t.TempDir()
	first, h, _ := startHeadless(t, dir, env(), "--config-dir", dir)
	start := time.Now()
	_, stderr, err := run(t, env(), "", "--headless", "--config-dir", dir, "--mcp-port", "0")
	if err != nil || !strings.Contains(stderr, "App is already running on "+dir+" without a window") {
		t.Fatalf("second launch: %v, stderr %q", err, stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the second launch took %v to hand over", d)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "mcp-handshake.json"))
	var now handshake
	if err != nil || json.Unmarshal(raw, &now) != nil || now.PID != first.Process.Pid || now.Port != h.Port {
		t.Fatalf("the handshake file changed: %s (%v)", raw, err)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port))
	if err != nil {
		t.Fatalf("the first app stopped serving: %v", err)
	}
	resp.Body.Close()
	t.Run("the command line still runs beside the app", func(t *testing.T) {
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "list"); err != nil {
			t.Fatalf("%v %s", err, stderr)
		}
	})
}
