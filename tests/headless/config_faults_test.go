package headless

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 25, fault tests: a corrupted settings.json or connections.json does not stop the app.
// It starts on the defaults (settings) or an empty list (connections), says in its log which
// file could not be read, and keeps the file's bytes as <name>.bak.

// Broken the ways a crash mid-write or a hand edit breaks them.
var (
	brokenSettings    = []byte(`{"mcp": {"enabled": true, "port": 0, "requireAuth": fal`)
	brokenConnections = []byte("[{\"id\":\"c1\",\"name\":\"prod\"\x00\xff\xfe garbage")
)

func writeBroken(t *testing.T, dir string) {
	t.Helper()
	for name, data := range map[string][]byte{"settings.json": brokenSettings, "connections.json": brokenConnections} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// keptAsBak fails unless <dir>/<name>.bak holds want exactly and <name> itself is gone.
func keptAsBak(t *testing.T, dir, name string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, name+".bak"))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s.bak = %q (%v), want the original bytes %q", name, got, err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
		t.Fatalf("the broken %s is still in place (%v)", name, err)
	}
}

func TestCorruptConfigFiles(t *testing.T) {
	t.Run("app --headless starts on a corrupted settings.json and connections.json, names each in its log and keeps them as .bak", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		dir := t.TempDir()
		writeBroken(t, dir)
		_, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)

		// The settings are read as the app starts.
		keptAsBak(t, dir, "settings.json", brokenSettings)
		// The name, not the whole path: the log's redactor may mask a test's long temp dir.
		waitFor(t, "the log to name settings.json", func() bool {
			return strings.Contains(logs.String(), "/settings.json could not be read")
		}, logs)
		// The defaults are in force: authentication is required, so MCP is asked with a token.
		tok := createToken(t, dir, "--name", "faults", "--level", "readOnly")
		var status int
		var body string
		waitFor(t, "MCP to answer tools/list with the new token", func() bool {
			a := mcpPost(ctx, h.Port, mcpRequest{Method: "tools/list", Authorization: "Bearer " + tok.Token})
			status, body = a.StatusCode, a.Body
			return status == http.StatusOK
		}, logs)
		if !strings.Contains(body, "list_connections") {
			t.Fatalf("tools/list = %d %s", status, body)
		}
		// The saved connections are read on first use.
		a := mcpPost(ctx, h.Port, mcpRequest{Method: "tools/call", Authorization: "Bearer " + tok.Token,
			Params: map[string]any{"name": "list_connections", "arguments": map[string]any{}}})
		status, body = a.StatusCode, a.Body
		if status != http.StatusOK || !strings.Contains(body, `"connections":[]`) {
			t.Fatalf("list_connections = %d %s; logs:\n%s", status, body, logs)
		}
		keptAsBak(t, dir, "connections.json", brokenConnections)
		waitFor(t, "the log to name connections.json", func() bool {
			return strings.Contains(logs.String(), "/connections.json could not be read")
		}, logs)
		if strings.Contains(logs.String(), "garbage") || strings.Contains(logs.String(), "prod") {
			t.Fatalf("the log quotes a broken file's content:\n%s", logs)
		}
	})
	t.Run("app connection list works on a corrupted connections.json, warns on stderr naming it and keeps it as .bak", func(t *testing.T) {
		dir := t.TempDir()
		writeBroken(t, dir)
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "list", "--json")
		if err != nil {
			t.Fatalf("connection list: %v\nstderr: %s", err, stderr)
		}
		if strings.TrimSpace(out) != "[]" {
			t.Fatalf("connection list --json printed %q, want [] alone on stdout", out)
		}
		for _, name := range []string{"settings.json", "connections.json"} {
			if !strings.Contains(stderr, "/"+name+" could not be read") {
				t.Errorf("stderr does not name %s: %s", name, stderr)
			}
		}
		keptAsBak(t, dir, "settings.json", brokenSettings)
		keptAsBak(t, dir, "connections.json", brokenConnections)
		// And the dir is usable again: a connection saves beside the kept copy.
		cli(t, dir, "", "connection", "add", "--name", "local", "--host", "127.0.0.1", "--port", "8080")
		if list := listConns(t, dir); len(list) != 1 {
			t.Fatalf("after add: %+v", list)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "connections.json.bak")); !bytes.Equal(got, brokenConnections) {
			t.Fatalf("connections.json.bak changed to %q", got)
		}
	})
}
