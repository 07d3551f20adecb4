package headless

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Issue 25, item 10: when the MCP port of the settings is taken by another program (a port the
// command line demands with --mcp-port is still an error, TestHeadless) the server falls back to
// a free port instead of not starting, says so in its log, announces the port it has in the
// handshake file (the stdio bridge follows it), and `app client repair` points the clients
// set up with the old port at the new one, token and other servers kept, after a backup.
func TestATakenPortFallsBackAndClientsAreRepaired(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port

	home := t.TempDir()
	envv := env("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(cursor), 0o700); err != nil {
		t.Fatal(err)
	}
	oldURL := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	before := `{"mcpServers":{"github":{"url":"https://example.invalid/mcp"},"app":{"url":"` + oldURL + `","headers":{"Authorization":"Bearer app_kept"}}}}`
	if err := os.WriteFile(cursor, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	if _, stderr, err := run(t, envv, "", "--config-dir", dir, "settings", "set", "mcp.port", strconv.Itoa(port)); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	_, h, logs := startApp(t, dir, envv, "--headless", "--config-dir", dir)
	t.Run("the server runs on another port, announced in the handshake file, and the log says why", func(t *testing.T) {
		if h.Port == port || h.Port == 0 {
			t.Fatalf("handshake port %d with %d taken", h.Port, port)
		}
		// Logged before the handshake file is written, but the log reaches logs through exec's
		// copying goroutine: wait for it rather than read it once.
		waitFor(t, "the log to say the port was taken", func() bool {
			return strings.Contains(logs.String(), "the port is taken by another program")
		}, logs)
	})
	t.Run("app client repair points Cursor at the new port and keeps the token and the other server", func(t *testing.T) {
		out, stderr, err := run(t, envv, "", "--config-dir", dir, "client", "repair", "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var res struct {
			Port     int
			Repaired []struct{ Title, File, Backup, Error string }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Port != h.Port || len(res.Repaired) != 1 ||
			res.Repaired[0].Title != "Cursor" || res.Repaired[0].Error != "" {
			t.Fatalf("repair: %v %s", err, out)
		}
		if b, err := os.ReadFile(res.Repaired[0].Backup); err != nil || string(b) != before {
			t.Fatalf("the backup does not hold the file as it was: %v %s", err, b)
		}
		var doc struct {
			MCPServers map[string]struct {
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			} `json:"mcpServers"`
		}
		b, _ := os.ReadFile(cursor)
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		app := doc.MCPServers["app"]
		if app.URL != "http://127.0.0.1:"+strconv.Itoa(h.Port)+"/mcp" || app.Headers["Authorization"] != "Bearer app_kept" || doc.MCPServers["github"].URL == "" {
			t.Fatalf("cursor's config after the repair: %s", b)
		}
		if a := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list", Authorization: "Bearer app_kept"}); a.StatusCode != 401 {
			t.Fatalf("the re-pointed URL does not reach the app (a made-up token must get 401): %d %s", a.StatusCode, a.Body)
		}
	})
	t.Run("a second repair finds nothing to change", func(t *testing.T) {
		out, stderr, err := run(t, envv, "", "--config-dir", dir, "client", "repair")
		if err != nil || !strings.Contains(out, "already points at port "+strconv.Itoa(h.Port)) {
			t.Fatalf("%v: %s %s", err, out, stderr)
		}
	})
}
