package pairing

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

var entry = map[string]any{"url": url, "headers": map[string]any{"Authorization": "Bearer " + token}}

// Issue 41, item 1: a JSON config file with comments and trailing commas (Zed's settings.json,
// VS Code's mcp.json) keeps every comment, every other member and its indentation; the app's
// member is added after its neighbours, replaced where it stands, and removed alone.
func TestJSONEditKeepsCommentsAndNeighbours(t *testing.T) {
	f := jsonFormat{}
	cases := []struct {
		name, before string
		keep         []string
	}{
		{"an empty file", "", nil},
		{"a file without the root", "{\n    \"theme\": \"One Dark\"\n}\n", []string{"\"theme\": \"One Dark\""}},
		{"comments and a trailing comma", "// Zed settings\n{\n  // the theme\n  \"theme\": \"One Dark\",\n  \"context_servers\": {\n    \"other\": {\"command\": \"x\"}, // keep me\n  },\n}\n",
			[]string{"// Zed settings", "// the theme", "\"other\": {\"command\": \"x\"}", "// keep me"}},
		{"the app's member already there", "{\n  \"context_servers\": {\n    \"app\": {\"url\": \"http://127.0.0.1:1/mcp\"}, // mine\n    \"z\": {}\n  }\n}\n",
			[]string{"// mine", "\"z\": {}"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := f.put([]byte(c.before), "context_servers", ServerName, entry)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range c.keep {
				if !strings.Contains(string(out), k) {
					t.Fatalf("lost %q:\n%s", k, out)
				}
			}
			got, err := f.entry(out, "context_servers", ServerName)
			if err != nil || got["url"] != url {
				t.Fatalf("%v %v\n%s", got, err, out)
			}
			if strings.Count(string(out), `"app"`) != 1 {
				t.Fatalf("the app's member twice:\n%s", out)
			}
			if strings.Contains(c.before, "\n    \"theme\"") && !strings.Contains(string(out), "\n    \"context_servers\": {\n        \"app\": {") {
				t.Fatalf("not indented like the file (four spaces):\n%s", out)
			}
			back, ok, err := f.remove(out, "context_servers", ServerName)
			if err != nil || !ok || strings.Contains(string(back), `"app"`) {
				t.Fatalf("remove: %v %v\n%s", ok, err, back)
			}
			for _, k := range c.keep {
				if k != "// mine" && !strings.Contains(string(back), k) {
					t.Fatalf("remove lost %q:\n%s", k, back)
				}
			}
		})
	}
	t.Run("a strict JSON file stays strict JSON", func(t *testing.T) {
		out, err := f.put([]byte(`{"numStartups": 3, "mcpServers": {"x": {"url": "http://x"}}}`), "mcpServers", ServerName, entry)
		var doc map[string]any
		if err != nil || json.Unmarshal(out, &doc) != nil || doc["numStartups"] != 3.0 {
			t.Fatalf("%v\n%s", err, out)
		}
	})
	for _, bad := range []string{`{not json`, `["a list"]`, `{"mcpServers": ["a list"]}`} {
		t.Run("refused: "+bad, func(t *testing.T) {
			if _, err := f.put([]byte(bad), "mcpServers", ServerName, entry); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// Issue 41, item 1: Codex's config.toml: comments, other settings and other servers stay byte
// for byte; the app's table and its sub-tables are replaced; an inline definition is refused
// rather than rewritten; the edit parses.
func TestTOMLEditKeepsCommentsAndOtherTables(t *testing.T) {
	f := tomlFormat{}
	e := map[string]any{"command": "/opt/app/app-mcp", "args": []any{"--config-dir", `C:\Users\me "quoted"`}, "env": map[string]any{"APP_MCP_TOKEN": token}}
	before := `# my Codex settings
model = "o3" # the model

[mcp_servers.github]
command = "gh-mcp"

[mcp_servers.app]
command = "old"

[mcp_servers.app.env]
APP_MCP_TOKEN = "app_old"

# profiles below
[profiles.fast]
model = "o4-mini"
`
	out, err := f.put([]byte(before), "mcp_servers", ServerName, e)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"# my Codex settings\nmodel = \"o3\" # the model\n", "[mcp_servers.github]\ncommand = \"gh-mcp\"\n", "# profiles below\n[profiles.fast]\nmodel = \"o4-mini\"\n"} {
		if !strings.Contains(string(out), keep) {
			t.Fatalf("lost %q:\n%s", keep, out)
		}
	}
	if strings.Contains(string(out), "app_old") || strings.Contains(string(out), `command = "old"`) {
		t.Fatalf("the old table stayed:\n%s", out)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
			Env     map[string]string
		} `toml:"mcp_servers"`
		Profiles map[string]map[string]string
	}
	if _, err := toml.Decode(string(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	app := doc.MCPServers["app"]
	if app.Command != "/opt/app/app-mcp" || app.Args[1] != `C:\Users\me "quoted"` || app.Env["APP_MCP_TOKEN"] != token ||
		doc.MCPServers["github"].Command != "gh-mcp" || doc.Profiles["fast"]["model"] != "o4-mini" {
		t.Fatalf("%+v", doc)
	}
	t.Run("a quoted header names the same table", func(t *testing.T) {
		out, err := f.put([]byte("[mcp_servers.\"app\"]\ncommand = \"old\"\n"), "mcp_servers", ServerName, e)
		if err != nil || strings.Contains(string(out), "old") {
			t.Fatalf("%v\n%s", err, out)
		}
	})
	t.Run("remove takes the table and its sub-tables only", func(t *testing.T) {
		back, ok, err := f.remove([]byte(before), "mcp_servers", ServerName)
		if err != nil || !ok || strings.Contains(string(back), "mcp_servers.app") || strings.Contains(string(back), "app_old") ||
			!strings.Contains(string(back), "[mcp_servers.github]") || !strings.Contains(string(back), "[profiles.fast]") {
			t.Fatalf("%v %v\n%s", ok, err, back)
		}
	})
	for name, inline := range map[string]string{
		"an inline table":  "mcp_servers = { app = { command = \"x\" } }\n",
		"dotted keys":      "[mcp_servers]\napp.command = \"x\"\n",
		"not TOML at all:": "[mcp_servers\n",
	} {
		t.Run("refused, nothing changed: "+name, func(t *testing.T) {
			if _, err := f.put([]byte(inline), "mcp_servers", ServerName, e); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// Issue 41, item 1: Goose's config.yaml keeps its comments and other extensions; the app's
// extension is added, replaced and removed.
func TestYAMLEditKeepsComments(t *testing.T) {
	f := yamlFormat{}
	c, _ := Find("goose")
	s, err := Config(c, Endpoint{URL: url, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	before := "# Goose settings\nGOOSE_PROVIDER: anthropic # the provider\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n"
	out, err := f.put([]byte(before), "extensions", ServerName, s.Entry)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"# Goose settings", "# the provider", "developer:"} {
		if !strings.Contains(string(out), keep) {
			t.Fatalf("lost %q:\n%s", keep, out)
		}
	}
	var doc struct {
		Extensions map[string]map[string]any `yaml:"extensions"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	app := doc.Extensions["app"]
	if app["uri"] != url || app["type"] != "streamable_http" || app["enabled"] != true || app["name"] != "app" ||
		app["headers"].(map[string]any)["Authorization"] != "Bearer "+token || doc.Extensions["developer"]["type"] != "builtin" {
		t.Fatalf("%s", out)
	}
	again, err := f.put(out, "extensions", ServerName, s.Entry)
	if err != nil || strings.Count(string(again), "app:") != 1 {
		t.Fatalf("%v\n%s", err, again)
	}
	back, ok, err := f.remove(again, "extensions", ServerName)
	if err != nil || !ok || strings.Contains(string(back), "streamable_http") || !strings.Contains(string(back), "# Goose settings") {
		t.Fatalf("%v %v\n%s", ok, err, back)
	}
}

// Issue 41, item 1: `app client remove` undoes `--write`: the entry leaves the file after a
// backup, the rest stays, and the token it held is named so it can be revoked; two edits in
// one second keep both backups.
func TestRemoveTakesOnlyTheAppsEntryWithABackup(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for _, id := range []string{"cursor", "codex", "goose", "zed"} {
		t.Run(id, func(t *testing.T) {
			c, _ := Find(id)
			path := filepath.Join(t.TempDir(), "config")
			s, err := Config(c, Endpoint{URL: url, Token: token, Bridge: "/opt/app/app-mcp"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Write(path, s, now); err != nil {
				t.Fatal(err)
			}
			if !Configured(c, path) {
				t.Fatal("not configured after the write")
			}
			if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v", st.Mode().Perm())
			}
			written, _ := os.ReadFile(path)
			r, err := Remove(c, path, now)
			if err != nil || r.Token != token || r.Backup == "" {
				t.Fatalf("%+v %v", r, err)
			}
			if b, _ := os.ReadFile(r.Backup); !bytes.Equal(b, written) {
				t.Fatalf("the backup is not the file as it was")
			}
			if Configured(c, path) {
				t.Fatal("still configured")
			}
			if _, err := Remove(c, path, now); err == nil {
				t.Fatal("a second removal found an entry")
			}
			if _, err := Write(path, s, now); err != nil {
				t.Fatal(err)
			}
			backups, _ := filepath.Glob(path + ".bak-*")
			if len(backups) != 2 {
				t.Fatalf("backups %v: one per edit in the same second", backups)
			}
		})
	}
}

// Issue 41, item 1: the Claude Desktop bundle: a zip of a valid 0.3 manifest and the bridge,
// executable, at the manifest's entry point; the token is a sensitive, required user setting
// that reaches the bridge as APP_MCP_TOKEN; no secret inside.
func TestBundleHoldsTheBridgeAndAsksForTheToken(t *testing.T) {
	bridge := filepath.Join(t.TempDir(), "app-mcp")
	if err := os.WriteFile(bridge, []byte("#!/bin/sh\necho bridge\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteBundle(&buf, bridge, "1.4.2+abc", time.Now()); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]any
	files := map[string]*zip.File{}
	for _, f := range z.File {
		files[f.Name] = f
	}
	mf, ok := files["manifest.json"]
	if !ok {
		t.Fatal("no manifest.json")
	}
	r, _ := mf.Open()
	if err := json.NewDecoder(r).Decode(&manifest); err != nil {
		t.Fatal(err)
	}
	server := manifest["server"].(map[string]any)
	entryPoint := server["entry_point"].(string)
	cfg := server["mcp_config"].(map[string]any)
	tok := manifest["user_config"].(map[string]any)["token"].(map[string]any)
	if manifest["manifest_version"] != "0.3" || manifest["version"] != "1.4.2" || server["type"] != "binary" ||
		cfg["command"] != "${__dirname}/"+entryPoint || cfg["env"].(map[string]any)["APP_MCP_TOKEN"] != "${user_config.token}" ||
		tok["sensitive"] != true || tok["required"] != true {
		t.Fatalf("%v", manifest)
	}
	bf, ok := files[entryPoint]
	if !ok || (runtime.GOOS != "windows" && bf.Mode().Perm() != 0o755) {
		t.Fatalf("the entry point %s is not in the bundle as a program: %v", entryPoint, files)
	}
}
