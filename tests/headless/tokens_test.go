package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// createdToken is `app token create --json`.
type createdToken struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Level       string   `json:"level"`
	Token       string   `json:"token"`
	Connections []string `json:"connections"`
	ExpiresAt   string   `json:"expiresAt"`
}

func createToken(t *testing.T, dir string, args ...string) createdToken {
	t.Helper()
	out, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "token", "create", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("token create %v: %v: %s", args, err, stderr)
	}
	var c createdToken
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("token create --json printed %q: %v", out, err)
	}
	return c
}

// ARCHITECTURE.md 3 "CLI" and issue 11: `app token create --name N --level L [--connections
// a,b] [--expires 30d] [--json]` prints the token once; `app token list [--json]` never does;
// `app token revoke NAME|ID`. A token that raises rights needs confirmation.
func TestTokenCLI(t *testing.T) {
	t.Run("token create --json prints id, name, level and the token; list --json never shows it", func(t *testing.T) {
		dir := t.TempDir()
		c := createToken(t, dir, "--name", "claude", "--level", "readOnly", "--expires", "30d")
		if c.ID == "" || c.Name != "claude" || c.Level != "readOnly" || !strings.HasPrefix(c.Token, "app_") || len(c.Token) != 47 ||
			c.Connections != nil || c.ExpiresAt == "" {
			t.Fatalf("%+v", c)
		}
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "list", "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var list []map[string]any
		if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0]["id"] != c.ID || list[0]["level"] != "readOnly" {
			t.Fatalf("list %q: %v", out, err)
		}
		if strings.Contains(out, c.Token) || strings.Contains(out, c.Token[4:]) || strings.Contains(out, `"token"`) {
			t.Fatalf("list shows the token: %s", out)
		}
		text, _, _ := run(t, env(), "", "--config-dir", dir, "token", "list")
		if !strings.Contains(text, "claude") || strings.Contains(text, c.Token) {
			t.Fatalf("list: %q", text)
		}
	})
	t.Run("without --json the token is printed once with how to use it", func(t *testing.T) {
		dir := t.TempDir()
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "create", "--name", "n", "--level", "readOnly")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		if strings.Count(out, "app_") != 1 || !strings.Contains(out, "only time") || !strings.Contains(out, "Authorization: Bearer") {
			t.Fatalf("%q", out)
		}
	})
	for _, level := range []string{"readWrite", "fullAccess"} {
		t.Run("a "+level+" token without --yes and without a terminal is refused, and nothing is created", func(t *testing.T) {
			dir := t.TempDir()
			_, stderr, err := run(t, env(), "y\n", "--config-dir", dir, "token", "create", "--name", "w", "--level", level)
			if err == nil || !strings.Contains(stderr, "--yes") {
				t.Fatalf("err %v, stderr %q", err, stderr)
			}
			out, _, _ := run(t, env(), "", "--config-dir", dir, "token", "list", "--json")
			if strings.TrimSpace(out) != "[]" {
				t.Fatalf("created anyway: %s", out)
			}
		})
		t.Run("--yes confirms a "+level+" token", func(t *testing.T) {
			if c := createToken(t, t.TempDir(), "--name", "w", "--level", level, "--yes"); c.Level != level {
				t.Fatalf("%+v", c)
			}
		})
	}
	t.Run("--connections names are resolved to ids; an unknown name is an error", func(t *testing.T) {
		dir := t.TempDir()
		var ids []string
		for i, name := range []string{"local", "staging"} {
			out, stderr, err := run(t, env(), "", "--config-dir", dir, "--json", "connection", "add", "--name", name, "--host", "127.0.0.1", "--port", fmt.Sprint(8080+i))
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			var c struct{ ID string }
			_ = json.Unmarshal([]byte(out), &c)
			ids = append(ids, c.ID)
		}
		c := createToken(t, dir, "--name", "some", "--level", "readOnly", "--connections", "staging, local")
		if len(c.Connections) != 2 || !slices.Contains(c.Connections, ids[0]) || !slices.Contains(c.Connections, ids[1]) {
			t.Fatalf("connections %v, want the ids %v", c.Connections, ids)
		}
		_, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "create", "--name", "bad", "--level", "readOnly", "--connections", "local,nope")
		if err == nil || !strings.Contains(stderr, "nope") {
			t.Fatalf("err %v, stderr %q", err, stderr)
		}
	})
	t.Run("bad values are one clear sentence each", func(t *testing.T) {
		dir := t.TempDir()
		createToken(t, dir, "--name", "dup", "--level", "readOnly")
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--name", "x", "--level", "admin"}, "readOnly, readWrite, fullAccess"},
			{[]string{"--name", "x", "--level", "readOnly", "--expires", "yesterday"}, "--expires"},
			{[]string{"--name", "DUP", "--level", "readOnly"}, "exists"},
			{[]string{"--level", "readOnly"}, "name"},
		} {
			_, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "token", "create"}, c.args...)...)
			if err == nil || !strings.Contains(stderr, c.want) {
				t.Errorf("%v: err %v, stderr %q", c.args, err, stderr)
			}
		}
	})
	t.Run("token revoke takes a name or an id; a second revoke fails", func(t *testing.T) {
		dir := t.TempDir()
		a := createToken(t, dir, "--name", "a", "--level", "readOnly")
		b := createToken(t, dir, "--name", "b", "--level", "readOnly")
		for _, ref := range []string{"A", b.ID} {
			if _, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "revoke", ref); err != nil {
				t.Fatalf("revoke %s: %v: %s", ref, err, stderr)
			}
		}
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "revoke", a.ID); err == nil || !strings.Contains(stderr, "not found") {
			t.Fatalf("second revoke: %v %q", err, stderr)
		}
		out, _, _ := run(t, env(), "", "--config-dir", dir, "token", "list", "--json")
		if strings.TrimSpace(out) != "[]" {
			t.Fatalf("left: %s", out)
		}
	})
	t.Run("no token appears in any file of the config dir", func(t *testing.T) {
		dir := t.TempDir()
		var secrets []string
		for _, level := range []string{"readOnly", "readWrite", "fullAccess"} {
			secrets = append(secrets, createToken(t, dir, "--name", level, "--level", level, "--yes").Token)
		}
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			for _, s := range secrets {
				if bytes.Contains(data, []byte(s)) || bytes.Contains(data, []byte(s[4:])) {
					t.Errorf("%s holds a token", p)
				}
			}
			return nil
		})
	})
}

// Issue 11, with the built binary: a new config dir requires a token; a token created by the
// CLI while the app runs is served on its first request; one revoked by the CLI is refused
// within a second; mcp.requireAuth false set by the CLI lets the anonymous principal in.
func TestAccessControlWhileRunning(t *testing.T) {
	dir := t.TempDir()
	_, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)
	t.Run("a new config dir requires a token: 401 -33009 with WWW-Authenticate Bearer realm=\"App\"", func(t *testing.T) {
		resp := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list"})
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != `Bearer realm="App"` {
			t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	})
	var tok createdToken
	t.Run("a token created by the CLI while the app runs is served on its first request", func(t *testing.T) {
		tok = createToken(t, dir, "--name", "live", "--level", "readOnly")
		if resp := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list", Authorization: "Bearer " + tok.Token}); resp.StatusCode != 200 {
			t.Fatalf("first request: %d; logs:\n%s", resp.StatusCode, logs)
		}
	})
	t.Run("a token revoked by the CLI while the app runs is refused within a second", func(t *testing.T) {
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "token", "revoke", "live"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		waitFor(t, "the revoked token to be refused", func() bool {
			resp := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list", Authorization: "Bearer " + tok.Token})
			return resp.StatusCode == 401 && resp.Header.Get("WWW-Authenticate") == `Bearer error="invalid_token"`
		}, logs)
	})
	t.Run("mcp.requireAuth false set by the CLI lets the anonymous principal in within a second", func(t *testing.T) {
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "settings", "set", "mcp.requireAuth", "false", "--yes"); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		waitFor(t, "anonymous access", func() bool { return mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/list"}).StatusCode == 200 }, logs)
	})
}
