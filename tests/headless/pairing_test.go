package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientConfig is `app client config --json`.
type clientConfig struct {
	Client, URL, File, Written, Backup string
	Config                             map[string]map[string]map[string]any
	Token                              *struct{ ID, Name, Level string }
}

// Issue 11, pairing: `app client config CLIENT` mints a token and prints that client's
// configuration for the running app's endpoint; the token in it works, and --write merges it
// into the client's config file after a backup.
func TestClientConfigCLI(t *testing.T) {
	dir := t.TempDir()
	_, h, _ := startHeadless(t, dir, env(), "--config-dir", dir)
	run1 := func(t *testing.T, args ...string) clientConfig {
		t.Helper()
		out, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "--json", "client", "config"}, args...)...)
		if err != nil {
			t.Fatalf("client config %v: %v: %s", args, err, stderr)
		}
		var c clientConfig
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatalf("printed %q: %v", out, err)
		}
		return c
	}

	t.Run("the configuration names the running app's port and a readOnly token that the endpoint accepts", func(t *testing.T) {
		c := run1(t, "other")
		entry := c.Config["mcpServers"]["app"]
		wantURL := fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port)
		if c.URL != wantURL || entry["url"] != wantURL || entry["type"] != "http" || c.Token.Level != "readOnly" {
			t.Fatalf("%+v", c)
		}
		authz, _ := entry["headers"].(map[string]any)["Authorization"].(string)
		if !strings.HasPrefix(authz, "Bearer app_") {
			t.Fatalf("Authorization %q", authz)
		}
		if resp := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list", Authorization: authz}); resp.StatusCode != http.StatusOK {
			t.Fatalf("tools/list with the configured header: %d", resp.StatusCode)
		}
		out, _, _ := run(t, env(), "", "--config-dir", dir, "token", "list")
		if !strings.Contains(out, c.Token.Name) || strings.Contains(out, strings.TrimPrefix(authz, "Bearer ")) {
			t.Fatalf("token list: %s", out)
		}
	})
	t.Run("Claude Desktop's configuration starts app-mcp beside the app, and a real stdio client runs it as written", func(t *testing.T) {
		c := run1(t, "claude-desktop")
		entry := c.Config["mcpServers"]["app"]
		command, _ := entry["command"].(string)
		var args []string
		for _, a := range entry["args"].([]any) {
			args = append(args, a.(string))
		}
		env0, _ := entry["env"].(map[string]any)
		if command != bridgeBin || strings.Join(args, " ") != "--config-dir "+dir || !strings.HasPrefix(fmt.Sprint(env0["APP_MCP_TOKEN"]), "app_") ||
			!strings.HasSuffix(c.File, filepath.Join("Claude", "claude_desktop_config.json")) {
			t.Fatalf("%+v", c)
		}
		// The Go SDK's command transport runs the entry as Claude Desktop would.
		cmd := exec.Command(command, args...)
		cmd.Env = append(env(), "APP_MCP_TOKEN="+fmt.Sprint(env0["APP_MCP_TOKEN"]))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-desktop-config", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_connections", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("--write --yes merges into the client's file, keeping its other servers, after a backup", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "mcp.json")
		if err := os.WriteFile(file, []byte(`{"mcpServers":{"other-server":{"url":"http://127.0.0.1:1/mcp"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		c := run1(t, "cursor", "--write", "--yes", "--file", file)
		if c.Written != file || c.Backup == "" {
			t.Fatalf("%+v", c)
		}
		var doc map[string]map[string]map[string]any
		b, _ := os.ReadFile(file)
		if err := json.Unmarshal(b, &doc); err != nil || doc["mcpServers"]["other-server"] == nil || doc["mcpServers"]["app"]["url"] != c.URL {
			t.Fatalf("%s %v", b, err)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"an unknown client is refused naming the known ones", []string{"emacs"}, "choose one of claude-code, claude-code-project, claude-desktop, codex, gemini"},
		{"a readWrite token without --yes or a terminal is refused", []string{"cursor", "--level", "readWrite"}, "--yes"},
		{"--write without --yes or a terminal is refused", []string{"cursor", "--write", "--file", filepath.Join(t.TempDir(), "x.json")}, "--yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The token ids, not the whole list: an earlier subtest's tokens get their
			// lastUsedAt written by the running app at any moment.
			ids := func() string {
				out, _, _ := run(t, env(), "", "--config-dir", dir, "--json", "token", "list")
				var list []struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal([]byte(out), &list); err != nil {
					t.Fatalf("token list: %v: %s", err, out)
				}
				var s []string
				for _, tok := range list {
					s = append(s, tok.ID)
				}
				return strings.Join(s, ",")
			}
			before := ids()
			_, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "client", "config"}, tc.args...)...)
			if err == nil || !strings.Contains(stderr, tc.want) {
				t.Fatalf("err %v, stderr %q, want %q", err, stderr, tc.want)
			}
			if after := ids(); after != before {
				t.Fatalf("a refused pairing created a token: ids %s, before %s", after, before)
			}
		})
	}
}
