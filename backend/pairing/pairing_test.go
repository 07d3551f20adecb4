package pairing

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

const (
	url   = "http://127.0.0.1:23817/mcp"
	token = "app_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"
)

// Each client's snippet is JSON in the shape that client's config file documents: its root
// member, the app's server under ServerName, the URL and the Authorization header.
func TestEverySnippetHasItsClientsShape(t *testing.T) {
	urlField := map[string]string{"claude-code": "url", "cursor": "url", "vscode": "url", "windsurf": "serverUrl", "other": "url",
		"gemini": "httpUrl", "copilot": "url", "zed": "url", "goose": "uri", "lmstudio": "url"}
	for _, c := range Clients {
		if c.StdioOnly() {
			continue // TestStdioSnippets
		}
		t.Run(c.ID, func(t *testing.T) {
			s, err := Config(c, Endpoint{URL: url, Token: token})
			if err != nil {
				t.Fatal(err)
			}
			entry := s.Entry
			if entry == nil || entry[urlField[c.ID]] != url {
				t.Fatalf("no %s.%s.%s = %s in %s", c.Root, ServerName, urlField[c.ID], url, s.Text)
			}
			h, _ := entry["headers"].(map[string]any)
			if h["Authorization"] != "Bearer "+token {
				t.Fatalf("headers %v", entry["headers"])
			}
			if c.ID != "other" && s.File == "" {
				t.Fatal("no config file named")
			}
			if c.Proof == "" {
				t.Fatal("no check named that proves the file")
			}
			assertTextHoldsEntry(t, c, s)
		})
	}
	t.Run("an unknown client is refused naming the known ones", func(t *testing.T) {
		if _, err := Find("emacs"); err == nil || !strings.Contains(err.Error(), "cursor") {
			t.Fatalf("%v", err)
		}
	})
}

// assertTextHoldsEntry: the text shown to paste is the file's own format and reads back, in
// that format, as the entry the app writes.
func assertTextHoldsEntry(t *testing.T, c Client, s Snippet) {
	t.Helper()
	got, err := formatOf(c.Format).entry([]byte(s.Text), c.Root, ServerName)
	if err != nil || got == nil {
		t.Fatalf("the %s text does not parse to the entry: %v\n%s", c.FormatName(), err, s.Text)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(s.Entry)
	if string(gb) != string(wb) {
		t.Fatalf("text reads as %s, entry is %s", gb, wb)
	}
}

// Write merges: the client's other servers and members stay, the app's entry is replaced,
// the old file is backed up, and a file that is not JSON is left alone.
func TestWriteMergesWithABackup(t *testing.T) {
	c, _ := Find("cursor")
	s, _ := Config(c, Endpoint{URL: url, Token: token})
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	t.Run("into a new file (directories made, mode 0600, no backup)", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), ".cursor", "mcp.json")
		backup, err := Write(path, s, now)
		if err != nil || backup != "" {
			t.Fatalf("%q %v", backup, err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
	})
	t.Run("into a file with other servers and members", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "mcp.json")
		before := `{"theme":"dark","mcpServers":{"github":{"url":"https://example.invalid/mcp"},"app":{"url":"http://127.0.0.1:1/mcp"}}}`
		if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		backup, err := Write(path, s, now)
		if err != nil || backup != path+".bak-20261123T120000Z" {
			t.Fatalf("%q %v", backup, err)
		}
		if b, _ := os.ReadFile(backup); string(b) != before {
			t.Fatalf("backup holds %s", b)
		}
		var doc map[string]any
		b, _ := os.ReadFile(path)
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		servers := doc["mcpServers"].(map[string]any)
		if doc["theme"] != "dark" || servers["github"] == nil || servers["app"].(map[string]any)["url"] != url {
			t.Fatalf("merged to %s", b)
		}
	})
	for _, bad := range []string{`{not json`, `{"mcpServers": ["a list"]}`} {
		t.Run("a file it cannot merge into is left as it was: "+bad, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mcp.json")
			_ = os.WriteFile(path, []byte(bad), 0o644)
			if _, err := Write(path, s, now); err == nil || !strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("%v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != bad {
				t.Fatalf("changed to %s", b)
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Fatalf("left %d files", len(entries))
			}
		})
	}
}

// Issue 13: a client that only launches local programs (Claude Desktop) gets the stdio bridge
// app-mcp as a command, told the config dir, with the token in APP_MCP_TOKEN (never on the
// command line); every client that takes a command gets the same when the bridge is asked
// for, in its own shape.
func TestStdioSnippets(t *testing.T) {
	e := Endpoint{URL: url, Token: token, Stdio: true, Bridge: "/opt/app/app-mcp", ConfigDir: "/home/me/.config/App"}
	typed := map[string]bool{"claude-code": true, "vscode": true, "copilot": true, "goose": true}
	for _, c := range Clients {
		if c.Project {
			continue // TestProjectSnippetHoldsNoToken
		}
		t.Run(c.ID, func(t *testing.T) {
			s, err := Config(c, e)
			if err != nil {
				t.Fatal(err)
			}
			entry := s.Entry
			cmdKey, envKey := "command", "env"
			if c.ID == "goose" {
				cmdKey, envKey = "cmd", "envs"
			}
			args, _ := entry["args"].([]any)
			env, _ := entry[envKey].(map[string]any)
			if entry[cmdKey] != e.Bridge || len(args) != 2 || args[0] != "--config-dir" || args[1] != e.ConfigDir || env["APP_MCP_TOKEN"] != token {
				t.Fatalf("entry %v", entry)
			}
			if strings.Contains(argsText(args), token) || entry["url"] != nil || entry["headers"] != nil {
				t.Fatalf("the token is on the command line, or the HTTP entry is mixed in: %v", entry)
			}
			if typed[c.ID] != (entry["type"] == "stdio") {
				t.Fatalf("type %v", entry["type"])
			}
			assertTextHoldsEntry(t, c, s)
		})
	}
	for _, id := range []string{"claude-desktop", "codex"} {
		t.Run(id+" gets the bridge without asking, in its own config file", func(t *testing.T) {
			c, _ := Find(id)
			s, err := Config(c, Endpoint{URL: url, Token: token, Bridge: "app-mcp"})
			if err != nil || s.Entry["command"] != "app-mcp" || s.Entry["url"] != nil || s.File == "" {
				t.Fatalf("%v %s %s", err, s.Text, s.File)
			}
		})
	}
}

// A project's .mcp.json is shared with the project: it starts app-mcp by name with no token
// and no config dir, so each person's own app answers with its readOnly bridge token.
func TestProjectSnippetHoldsNoToken(t *testing.T) {
	c, _ := Find("claude-code-project")
	dir := t.TempDir()
	s, err := Config(c, Endpoint{URL: url, Token: token, Bridge: "/opt/app/app-mcp", ConfigDir: "/home/me/.config/App", Project: dir})
	if err != nil {
		t.Fatal(err)
	}
	if c.NeedsToken() || !s.Tokenless || s.File != filepath.Join(dir, ".mcp.json") || s.Entry["command"] != "app-mcp" ||
		s.Entry["type"] != "stdio" || strings.Contains(s.Text, token) || strings.Contains(s.Text, "config-dir") || s.Entry["env"] != nil {
		t.Fatalf("%+v", s)
	}
}

func argsText(a []any) string {
	var b strings.Builder
	for _, x := range a {
		b.WriteString(" ")
		b.WriteString(x.(string))
	}
	return b.String()
}

// Issue 25, item 10: after the server fell back from a taken port, the clients whose config
// files point at the old port are found, and re-pointed to the new one with everything else
// kept (the token in the headers, other servers, other members); a stdio entry and another
// machine's URL are never touched.
func TestStaleClientsAreFoundAndRepointed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	write := func(path, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cursor, _ := Find("cursor")
	windsurf, _ := Find("windsurf")
	vscode, _ := Find("vscode")
	claude, _ := Find("claude-code")
	write(cursor.ConfigFile(), `{"mcpServers":{"github":{"url":"https://example.invalid/mcp"},"app":{"url":"http://127.0.0.1:23817/mcp","headers":{"Authorization":"Bearer `+token+`"}}}}`)
	write(windsurf.ConfigFile(), `{"mcpServers":{"app":{"serverUrl":"http://localhost:23817/mcp"}}}`)
	write(vscode.ConfigFile(), `{"servers":{"app":{"type":"stdio","command":"/opt/app/app-mcp"}}}`)
	write(claude.ConfigFile(), `{"mcpServers":{"app":{"type":"http","url":"http://127.0.0.1:23818/mcp"}},"theme":"dark"}`)

	stale := FindStale(23818)
	t.Run("the clients on the old port are stale; the one on the new port and a stdio entry are not", func(t *testing.T) {
		var ids []string
		for _, s := range stale {
			ids = append(ids, s.Client)
		}
		if strings.Join(ids, ",") != "cursor,windsurf" {
			t.Fatalf("stale: %v", ids)
		}
	})
	t.Run("re-pointing changes the port only, keeps the token and the other servers, and backs up", func(t *testing.T) {
		now := time.Date(2026, 11, 26, 7, 0, 0, 0, time.UTC)
		for _, s := range stale {
			backup, err := Repoint(s, 23818, now)
			if err != nil || backup == "" {
				t.Fatalf("%s: %q %v", s.Client, backup, err)
			}
		}
		if left := FindStale(23818); len(left) != 0 {
			t.Fatalf("still stale: %+v", left)
		}
		var doc map[string]map[string]map[string]any
		b, _ := os.ReadFile(cursor.ConfigFile())
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		app := doc["mcpServers"]["app"]
		if app["url"] != "http://127.0.0.1:23818/mcp" || doc["mcpServers"]["github"] == nil ||
			app["headers"].(map[string]any)["Authorization"] != "Bearer "+token {
			t.Fatalf("cursor after re-pointing: %s", b)
		}
		if b, _ := os.ReadFile(windsurf.ConfigFile()); !strings.Contains(string(b), `"serverUrl": "http://localhost:23818/mcp"`) {
			t.Fatalf("windsurf after re-pointing: %s", b)
		}
	})
}

// Issue 41, item 4: VS Code may reach the app over its Unix socket (unix:///path#/mcp, the
// token in the header as over HTTP); a client that takes no socket is refused.
func TestSocketSnippet(t *testing.T) {
	vscode, _ := Find("vscode")
	s, err := Config(vscode, Endpoint{URL: url, Token: token, Socket: "/home/me/.config/App/mcp.sock"})
	if err != nil || s.Entry["url"] != "unix:///home/me/.config/App/mcp.sock#/mcp" || s.Entry["type"] != "http" ||
		s.Entry["headers"].(map[string]any)["Authorization"] != "Bearer "+token {
		t.Fatalf("%v %+v", err, s.Entry)
	}
	cursor, _ := Find("cursor")
	if _, err := Config(cursor, Endpoint{URL: url, Token: token, Socket: "/x.sock"}); err == nil {
		t.Fatal("cursor got a socket")
	}
}

// Issue 41, item 3: the clients with no program here are held to their documented shape: the
// file (under HOME), the root member, and exactly the members their docs give an HTTP server.
func TestSchemaCheckedClientsWriteTheirDocumentedEntry(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, tc := range []struct {
		id, file, root string
		keys           string
		fixed          map[string]any
	}{
		{"vscode", ".config/Code/User/mcp.json", "servers", "headers type url", map[string]any{"type": "http"}},
		{"cursor", ".cursor/mcp.json", "mcpServers", "headers url", nil},
		{"windsurf", ".codeium/windsurf/mcp_config.json", "mcpServers", "headers serverUrl", nil},
		{"zed", ".config/zed/settings.json", "context_servers", "headers url", nil},
		{"goose", ".config/goose/config.yaml", "extensions", "description enabled env_keys envs headers name timeout type uri",
			map[string]any{"type": "streamable_http", "enabled": true, "name": "app", "timeout": 300.0}},
		{"lmstudio", ".lmstudio/mcp.json", "mcpServers", "headers url", nil},
	} {
		t.Run(tc.id, func(t *testing.T) {
			c, _ := Find(tc.id)
			s, err := Config(c, Endpoint{URL: url, Token: token})
			if err != nil {
				t.Fatal(err)
			}
			if s.File != filepath.Join(home, tc.file) || s.Root != tc.root || c.Proof != proofSchema {
				t.Fatalf("file %s root %s proof %q", s.File, s.Root, c.Proof)
			}
			var keys []string
			for k := range s.Entry {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if strings.Join(keys, " ") != tc.keys {
				t.Fatalf("members %v, documented %s", keys, tc.keys)
			}
			for k, v := range tc.fixed {
				if s.Entry[k] != v {
					t.Fatalf("%s = %v, documented %v", k, s.Entry[k], v)
				}
			}
		})
	}
}
