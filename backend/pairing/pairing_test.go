package pairing

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	urlField := map[string]string{"claude-code": "url", "cursor": "url", "vscode": "url", "windsurf": "serverUrl", "other": "url"}
	for _, c := range Clients {
		t.Run(c.ID, func(t *testing.T) {
			s, err := Config(c, url, token)
			if c.Unsupported != "" {
				if err == nil || !strings.Contains(err.Error(), "app-mcp") {
					t.Fatalf("an unsupported client got a config: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]map[string]map[string]any
			if err := json.Unmarshal([]byte(s.JSON), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, s.JSON)
			}
			entry := doc[c.Root][ServerName]
			if entry == nil || entry[urlField[c.ID]] != url {
				t.Fatalf("no %s.%s.%s = %s in %s", c.Root, ServerName, urlField[c.ID], url, s.JSON)
			}
			h, _ := entry["headers"].(map[string]any)
			if h["Authorization"] != "Bearer "+token {
				t.Fatalf("headers %v", entry["headers"])
			}
			if c.ID != "other" && s.File == "" {
				t.Fatal("no config file named")
			}
		})
	}
	t.Run("an unknown client is refused naming the known ones", func(t *testing.T) {
		if _, err := Find("emacs"); err == nil || !strings.Contains(err.Error(), "cursor") {
			t.Fatalf("%v", err)
		}
	})
}

// Write merges: the client's other servers and members stay, the app's entry is replaced,
// the old file is backed up, and a file that is not JSON is left alone.
func TestWriteMergesWithABackup(t *testing.T) {
	c, _ := Find("cursor")
	s, _ := Config(c, url, token)
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
