package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 41, item 4: besides 127.0.0.1 the running app serves MCP on a Unix socket in its
// config dir, mode 0600, named in the handshake file; the same tokens apply (none: 401); and
// `app client config vscode --socket` points VS Code at it with a token that works there.
func TestTheAppServesMCPOnAUnixSocketOfItsOwnUser(t *testing.T) {
	dir := shortTempDir(t)
	startHeadless(t, dir, env(), "--config-dir", dir)
	var h struct {
		Socket string `json:"socket"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "mcp-handshake.json"))
	if err := json.Unmarshal(b, &h); err != nil || h.Socket != filepath.Join(dir, "mcp.sock") {
		t.Fatalf("handshake %s", b)
	}
	st, err := os.Stat(h.Socket)
	if err != nil || st.Mode()&os.ModeSocket == 0 || st.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", st, err)
	}
	out, stderr, err := run(t, env(), "", "--config-dir", dir, "--json", "client", "config", "vscode", "--socket")
	if err != nil {
		t.Fatalf("%v %s", err, stderr)
	}
	var c clientConfig
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	entry := c.Config["servers"]["app"]
	url, _ := entry["url"].(string)
	authz, _ := entry["headers"].(map[string]any)["Authorization"].(string)
	if url != "unix://"+h.Socket+"#/mcp" || !strings.HasPrefix(authz, "Bearer app_") {
		t.Fatalf("%+v", entry)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(url, "unix://"), "#/mcp")
	if got := socketPost(t, path, ""); got != http.StatusUnauthorized {
		t.Fatalf("no token over the socket: %d", got)
	}
	if got := socketPost(t, path, authz); got != http.StatusOK {
		t.Fatalf("the configured token over the socket: %d", got)
	}
	// The same log: the socket's request is recorded with the client and the token.
	var entries []activityEntry
	waitFor(t, "the socket's request in the activity log", func() bool {
		out, _, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--json", "--client", "vscode-socket", "--outcome", "ok")
		return err == nil && json.Unmarshal([]byte(out), &entries) == nil && len(entries) == 1
	}, nil)
	if e := entries[0]; e.Method != "tools/list" || !strings.HasPrefix(e.Principal, "token:") {
		t.Fatalf("%+v", e)
	}
}

// shortTempDir is a temporary directory whose path fits a Unix socket's 108 bytes.
func shortTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "app-sock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// socketPost sends tools/list of the 2026-07-28 revision over the socket and returns the status.
func socketPost(t *testing.T, path, authorization string) int {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": map[string]any{
		"_meta": map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
			"io.modelcontextprotocol/clientInfo": map[string]any{"name": "vscode-socket", "version": "1"}, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}}})
	req, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Method", "tools/list")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusUnauthorized {
		t.Logf("%d %s", resp.StatusCode, b)
	}
	return resp.StatusCode
}
