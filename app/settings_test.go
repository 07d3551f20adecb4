package app

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/core"
	"app/backend/pairing"
)

// Issue 11, Settings, MCP server: changes are validated like `app settings set`, written to
// the settings file and applied by the real MCP service at once; the status line says where
// the server runs or why it does not.
func TestSettingsAPI(t *testing.T) {
	t.Setenv("APP_KEYRING_BACKEND", "file")
	t.Setenv("APP_KEYRING_PASSWORD", "test")
	ctx := context.Background()
	c, err := core.Open(ctx, core.Options{Dir: t.TempDir(), MCPPort: -1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = c.Stop(sctx)
	})
	api := NewSettingsAPI(c.Settings(), c.MCP())

	t.Run("port 0 picks a free port and the status names it", func(t *testing.T) {
		got, err := api.SetMCP("port", "0")
		if err != nil {
			t.Fatal(err)
		}
		if got.BoundPort == 0 || got.Status != fmt.Sprintf("Running on 127.0.0.1:%d", got.BoundPort) || got.Error != "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("require authentication off is written to the settings file", func(t *testing.T) {
		got, err := api.SetMCP("requireAuth", "false")
		if err != nil || got.RequireAuth {
			t.Fatalf("%+v %v", got, err)
		}
		s, _ := c.Settings().Load(ctx)
		if s.MCP.RequireAuth {
			t.Fatal("the file still requires authentication")
		}
	})
	for _, tc := range []struct{ name, key, value string }{
		{"a row limit above 10,000 is invalid_argument", "maxRowLimit", "20000"},
		{"a word for a number is invalid_argument", "queryTimeoutSeconds", "soon"},
		{"a key outside the panel is invalid_argument", "activityRetentionDays", "5"},
		{"an unknown key is invalid_argument", "nope", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := c.Settings().Load(ctx)
			_, err := api.SetMCP(tc.key, tc.value)
			wantCode(t, err, CodeInvalidArgument)
			if after, _ := c.Settings().Load(ctx); after != before {
				t.Fatalf("a refused value changed the file: %+v", after)
			}
		})
	}
	t.Run("a port that is taken falls back, and the notice says so", func(t *testing.T) {
		taken, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer taken.Close()
		port := taken.Addr().(*net.TCPAddr).Port
		got, err := api.SetMCP("port", fmt.Sprint(port))
		if err != nil {
			t.Fatal(err)
		}
		if got.BoundPort == 0 || got.BoundPort == port || !strings.HasPrefix(got.Status, "Running on ") || got.Error != "" ||
			!strings.Contains(got.PortNotice, fmt.Sprintf("Port %d is taken by another program", port)) {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("turning the server off stops it", func(t *testing.T) {
		got, err := api.SetMCP("enabled", "false")
		if err != nil || got.BoundPort != 0 || got.Status != "Stopped (the server is turned off)" {
			t.Fatalf("%+v %v", got, err)
		}
	})
}

// Issue 25, item 10, and the review of issue 25: the stale clients come from the AI clients'
// config files. Reading the settings (MCP) and re-pairing (RepairClients) read those files
// afresh; changing a setting in the panel (SetMCP) reads them again only when the bound port
// changed, and otherwise repeats the last answer.
func TestSettingsAPIReadsTheClientsFilesOnlyWhenTheAnswerMayHaveChanged(t *testing.T) {
	t.Setenv("APP_KEYRING_BACKEND", "file")
	t.Setenv("APP_KEYRING_PASSWORD", "test")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	c, err := core.Open(context.Background(), core.Options{Dir: t.TempDir(), MCPPort: -1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = c.Stop(sctx)
	})
	api := NewSettingsAPI(c.Settings(), c.MCP())
	cursor, err := pairing.Find("cursor")
	if err != nil {
		t.Fatal(err)
	}
	pointCursorAt := func(t *testing.T, port int) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(cursor.ConfigFile()), 0o700); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"mcpServers":{"app":{"url":"http://127.0.0.1:%d/mcp","headers":{"Authorization":"Bearer app_x"}}}}`, port)
		if err := os.WriteFile(cursor.ConfigFile(), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stale := func(d dto.MCPSettingsDTO) string {
		if d.StaleClients == nil {
			return "null"
		}
		var ids []string
		for _, s := range d.StaleClients {
			ids = append(ids, s.Client)
		}
		return "[" + strings.Join(ids, ",") + "]"
	}
	pointCursorAt(t, 1)

	var port int
	t.Run("a new bound port reads the files: Cursor, set up with another port, is stale", func(t *testing.T) {
		got, err := api.SetMCP("port", "0")
		if err != nil || got.BoundPort == 0 || stale(got) != "[cursor]" {
			t.Fatalf("%s %+v %v", stale(got), got, err)
		}
		port = got.BoundPort
	})
	t.Run("another setting on the same port gives the last answer again without reading the files", func(t *testing.T) {
		pointCursorAt(t, port) // as the pairing dialog or `app client config --write` would
		got, err := api.SetMCP("requireAuth", "false")
		if err != nil || got.BoundPort != port || stale(got) != "[cursor]" {
			t.Fatalf("%s %+v %v", stale(got), got, err)
		}
	})
	t.Run("reading the settings reads the files again", func(t *testing.T) {
		got, err := api.MCP()
		if err != nil || stale(got) != "[]" {
			t.Fatalf("%s %+v %v", stale(got), got, err)
		}
	})
	t.Run("re-pairing reads the files again after the repair", func(t *testing.T) {
		pointCursorAt(t, 1)
		if got, _ := api.SetMCP("requireAuth", "true"); stale(got) != "[]" {
			t.Fatalf("SetMCP read the files: %s", stale(got))
		}
		res, err := api.RepairClients()
		if err != nil || len(res.Repaired) != 1 || res.Repaired[0].Title != "Cursor" || res.Repaired[0].Error != "" || stale(res.Settings) != "[]" {
			t.Fatalf("%s %+v %v", stale(res.Settings), res, err)
		}
		if left := pairing.FindStale(port); len(left) != 0 {
			t.Fatalf("still stale on disk: %+v", left)
		}
	})
	t.Run("a stopped server has no stale clients, and starting it again reads the files", func(t *testing.T) {
		got, err := api.SetMCP("enabled", "false")
		if err != nil || got.BoundPort != 0 || stale(got) != "[]" {
			t.Fatalf("%s %+v %v", stale(got), got, err)
		}
		pointCursorAt(t, 1)
		got, err = api.SetMCP("enabled", "true")
		if err != nil || got.BoundPort == 0 || stale(got) != "[cursor]" {
			t.Fatalf("%s %+v %v", stale(got), got, err)
		}
	})
}
