package core

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
)

func quietLog() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// openCore opens a Core on a fresh config dir with the encrypted-file
// keyring; port 0 picks a free MCP port.
func openCore(t *testing.T, port int) *Core {
	t.Helper()
	t.Setenv("APP_KEYRING_BACKEND", "file")
	t.Setenv("APP_KEYRING_PASSWORD", "core-test")
	c, err := Open(context.Background(), Options{Dir: t.TempDir(), MCPPort: port, Version: "test", Log: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Stop(ctx)
	})
	return c
}

// ARCHITECTURE.md 3, handshake file: written when the MCP server is bound,
// removed on a clean stop; services are reached through accessors.
func TestCoreLifecycle(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, 0)
	t.Run("every service is reachable before Start, and nothing listens", func(t *testing.T) {
		if c.Dir() == "" || c.Log() == nil || c.Settings() == nil || c.Keys() == nil || c.Connections() == nil ||
			c.OpenConnections() == nil || c.MCP() == nil || c.MCP().Port() != 0 || c.MCP().Server() != nil {
			t.Fatal("a service is missing or already running")
		}
	})
	t.Run("Start binds the MCP server and writes the handshake file with its port", func(t *testing.T) {
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		h, err := config.ReadHandshake(c.Dir())
		if err != nil || h.Port == 0 || h.Port != c.MCP().Port() || h.ProtocolVersion != "2026-07-28" {
			t.Fatalf("handshake %+v (%v), port %d", h, err, c.MCP().Port())
		}
	})
	t.Run("a second Start is refused", func(t *testing.T) {
		if err := c.Start(ctx); err == nil {
			t.Fatal("started twice")
		}
	})
	t.Run("Stop stops the server and removes the handshake file", func(t *testing.T) {
		if err := c.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := config.ReadHandshake(c.Dir()); err == nil || c.MCP().Port() != 0 {
			t.Fatalf("handshake still there (%v) or port %d", err, c.MCP().Port())
		}
	})
	t.Run("Stop on a Core that never started (the CLI's) is fine", func(t *testing.T) {
		if err := openCore(t, -1).Stop(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
