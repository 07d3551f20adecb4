package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/app/dto"
	"app/backend/auth"
)

// Issue 11, Settings, Connect a client: a token is minted and the client's configuration
// returned for the running server's port; writing asks first; refusals create no token.
func TestPairingAPI(t *testing.T) {
	store := newTokenStore(t)
	port := 23999
	api := NewPairingAPI(store, func() int { return port }, t.TempDir())
	dialog := &answering{}
	api.start(env{confirm: dialog})

	t.Run("the clients are listed with their files; Claude Desktop as stdio only", func(t *testing.T) {
		var desktop *dto.PairingClientDTO
		list := api.Clients()
		for i := range list {
			if list[i].ID == "claude-desktop" {
				desktop = &list[i]
			}
		}
		if len(list) < 5 || desktop == nil || !desktop.StdioOnly || desktop.Unsupported != "" || desktop.File == "" {
			t.Fatalf("%+v", list)
		}
	})
	t.Run("Claude Desktop gets the stdio bridge app-mcp, told this config dir, with the token in its environment", func(t *testing.T) {
		res, err := api.Connect(dto.PairingRequestDTO{Client: "claude-desktop", Level: auth.LevelReadOnly, Expires: "30d"})
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]map[string]any
		if err := json.Unmarshal([]byte(res.Text), &doc); err != nil {
			t.Fatal(err)
		}
		entry := doc["mcpServers"]["app"]
		cmd, _ := entry["command"].(string)
		env, _ := entry["env"].(map[string]any)
		tok, _ := env["APP_MCP_TOKEN"].(string)
		if !strings.HasSuffix(cmd, "app-mcp") || fmt.Sprint(entry["args"]) != fmt.Sprint([]any{"--config-dir", api.configDir}) || !strings.HasPrefix(tok, "app_") {
			t.Fatalf("%+v", entry)
		}
	})
	t.Run("connect returns the configuration with the new token for the running port", func(t *testing.T) {
		res, err := api.Connect(dto.PairingRequestDTO{Client: "other", Level: auth.LevelReadOnly, Expires: "30d"})
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]map[string]any
		if err := json.Unmarshal([]byte(res.Text), &doc); err != nil {
			t.Fatal(err)
		}
		entry := doc["mcpServers"]["app"]
		authz := entry["headers"].(map[string]any)["Authorization"].(string)
		if entry["url"] != "http://127.0.0.1:23999/mcp" || !strings.HasPrefix(authz, "Bearer app_") || res.Token.Level != auth.LevelReadOnly || res.Written != "" {
			t.Fatalf("%+v", res)
		}
		if _, err := store.Get(t.Context(), res.Token.ID); err != nil {
			t.Fatal("the token was not stored")
		}
	})
	before, _ := store.List(t.Context())
	for _, c := range []struct {
		name string
		req  dto.PairingRequestDTO
		port int
		code string
	}{
		{"a stopped MCP server is unavailable", dto.PairingRequestDTO{Client: "cursor", Level: auth.LevelReadOnly}, 0, CodeUnavailable},
		{"an unknown client is invalid_argument", dto.PairingRequestDTO{Client: "emacs", Level: auth.LevelReadOnly}, 23999, CodeInvalidArgument},
		{"an unknown level is invalid_argument", dto.PairingRequestDTO{Client: "cursor", Level: "root"}, 23999, CodeInvalidArgument},
	} {
		t.Run(c.name+", and creates no token", func(t *testing.T) {
			port = c.port
			_, err := api.Connect(c.req)
			wantCode(t, err, c.code)
			if after, _ := store.List(t.Context()); len(after) != len(before) {
				t.Fatalf("%d tokens, before %d", len(after), len(before))
			}
		})
	}
	port = 23999
	t.Run("write asks first; No writes nothing and creates no token", func(t *testing.T) {
		t.Setenv("HOME", t.TempDir())
		res, err := api.Connect(dto.PairingRequestDTO{Client: "cursor", Level: auth.LevelReadOnly, Write: true})
		if err != nil || !res.Declined {
			t.Fatalf("%+v %v", res, err)
		}
		if len(dialog.questions) != 1 || !strings.Contains(dialog.questions[0], filepath.Join(".cursor", "mcp.json")) {
			t.Fatalf("asked %q", dialog.questions)
		}
		if after, _ := store.List(t.Context()); len(after) != len(before) {
			t.Fatal("a declined write created a token")
		}
	})
	t.Run("write after Yes merges into the client's file", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		dialog.yes = true
		res, err := api.Connect(dto.PairingRequestDTO{Client: "cursor", Level: auth.LevelReadOnly, Write: true})
		want := filepath.Join(home, ".cursor", "mcp.json")
		if err != nil || res.Written != want {
			t.Fatalf("%+v %v", res, err)
		}
		if b, err := os.ReadFile(want); err != nil || !strings.Contains(string(b), "Bearer app_") {
			t.Fatalf("%s %v", b, err)
		}
	})
}
