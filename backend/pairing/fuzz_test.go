package pairing

import (
	"encoding/json"
	"testing"
)

// A config file is the person's own, in whatever state they left it: whatever its bytes, an
// edit either refuses (and the caller changes nothing) or yields a file in which the app's
// entry reads back exactly as written, and from which it can be removed again.
func FuzzEditsReadBackOrRefuse(f *testing.F) {
	for _, seed := range []string{
		"", "{}", "// c\n{\"mcpServers\": {\"x\": {}},}\n", "{\"mcpServers\": []}",
		"model = \"o3\"\n[mcp_servers.app]\ncommand = \"x\"\n[mcp_servers.app.env]\nA = \"b\"\n# c\n[p]\nq = 1\n",
		"[mcp_servers.\"app\"]\n", "mcp_servers = { app = { command = \"x\" } }\n", "[a\n",
		"extensions:\n  app: null\n", "extensions: [1]\n", "# c\nx: 1\n", ": : :\n",
	} {
		f.Add(seed)
	}
	e := map[string]any{"command": "/opt/app/app-mcp", "args": []any{"--config-dir", "/x \"y\""}, "env": map[string]any{"APP_MCP_TOKEN": token}}
	want, _ := json.Marshal(e)
	f.Fuzz(func(t *testing.T, in string) {
		for _, fm := range []format{jsonFormat{}, tomlFormat{}, yamlFormat{}} {
			out, err := fm.put([]byte(in), "mcp_servers", ServerName, e)
			if err != nil {
				continue
			}
			got, err := fm.entry(out, "mcp_servers", ServerName)
			if err != nil {
				t.Fatalf("%s: the edited file does not read: %v\n%q", fm.name(), err, out)
			}
			gb, _ := json.Marshal(got)
			if string(gb) != string(want) {
				t.Fatalf("%s: entry reads %s, wrote %s\n%q", fm.name(), gb, want, out)
			}
			back, ok, err := fm.remove(out, "mcp_servers", ServerName)
			if err != nil || !ok {
				t.Fatalf("%s: remove after put: %v %v\n%q", fm.name(), ok, err, out)
			}
			if again, _ := fm.entry(back, "mcp_servers", ServerName); again != nil {
				t.Fatalf("%s: still there after remove\n%q", fm.name(), back)
			}
		}
	})
}
