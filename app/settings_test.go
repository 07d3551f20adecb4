package app

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"app/backend/core"
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
