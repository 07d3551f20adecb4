package core

import (
	"context"
	"net"
	"testing"

	"app/backend/config"
)

// The MCP server has one lifetime whether started at boot or after a
// settings change: Apply is the only way in.
func TestMCPServiceApply(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, -1)
	m := c.MCP()
	t.Run("disabled settings start nothing", func(t *testing.T) {
		if err := m.Apply(ctx, config.MCPSettings{Enabled: false, Port: 0}); err != nil || m.Server() != nil {
			t.Fatalf("%v %v", err, m.Server())
		}
	})
	var first int
	t.Run("enabled settings start the server on a free port", func(t *testing.T) {
		if err := m.Apply(ctx, config.MCPSettings{Enabled: true, Port: 0}); err != nil || m.Port() == 0 {
			t.Fatalf("%v port %d", err, m.Port())
		}
		first = m.Port()
	})
	t.Run("the same settings again keep the same server", func(t *testing.T) {
		srv := m.Server()
		if err := m.Apply(ctx, config.MCPSettings{Enabled: true, Port: 0}); err != nil || m.Server() != srv || m.Port() != first {
			t.Fatalf("restarted: %v", err)
		}
	})
	t.Run("another port restarts it there and rewrites the handshake", func(t *testing.T) {
		if err := m.Apply(ctx, config.MCPSettings{Enabled: true, Port: first}); err != nil {
			t.Fatal(err) // the old server released the port before the new one binds
		}
		h, err := config.ReadHandshake(c.Dir())
		if err != nil || h.Port != m.Port() {
			t.Fatalf("%+v %v", h, err)
		}
	})
	t.Run("disabling stops it and removes the handshake", func(t *testing.T) {
		if err := m.Apply(ctx, config.MCPSettings{Enabled: false}); err != nil || m.Server() != nil {
			t.Fatal(err)
		}
		if _, err := config.ReadHandshake(c.Dir()); err == nil {
			t.Fatal("handshake left behind")
		}
	})
	t.Run("Status says running and where, or why not", func(t *testing.T) {
		if err := m.Apply(ctx, config.MCPSettings{Enabled: true, Port: 0}); err != nil {
			t.Fatal(err)
		}
		if st := m.Status(); !st.Enabled || st.Port != m.Port() || st.Err != "" {
			t.Fatalf("running: %+v", st)
		}
		taken, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer taken.Close()
		port := taken.Addr().(*net.TCPAddr).Port
		// Issue 25, item 10: the settings' port, taken, falls back to another and says so.
		if err := m.Apply(ctx, config.MCPSettings{Enabled: true, Port: port}); err != nil {
			t.Fatalf("a taken port did not fall back: %v", err)
		}
		if st := m.Status(); !st.Enabled || st.Port == 0 || st.Port == port || st.Wanted != port || !st.FellBack() || st.Err != "" {
			t.Fatalf("port taken: %+v", st)
		}
		if err := m.Apply(ctx, config.MCPSettings{Enabled: false}); err != nil {
			t.Fatal(err)
		}
		if st := m.Status(); st.Enabled || st.Port != 0 || st.Err != "" {
			t.Fatalf("disabled: %+v", st)
		}
	})
	t.Run("the --mcp-port override wins over the settings", func(t *testing.T) {
		o := openCore(t, 0)
		if err := o.MCP().Apply(ctx, config.MCPSettings{Enabled: true, Port: 1}); err != nil || o.MCP().Port() <= 1 {
			t.Fatalf("%v port %d", err, o.MCP().Port())
		}
	})
}

// Issue 13: while authentication is on, the handshake file carries the bridge token for
// app-mcp and its expiry, and the token works; turning authentication off withdraws it
// without restarting the server.
func TestHandshakeCarriesTheBridgeTokenWhileAuthIsOn(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, -1)
	m := c.MCP()
	on := config.DefaultSettings().MCP
	on.Port = 0
	if err := m.Apply(ctx, on); err != nil {
		t.Fatal(err)
	}
	defer m.Stop(ctx)
	h, err := config.ReadHandshake(c.Dir())
	if err != nil || h.Token == "" || h.ExpiresAt == nil || !h.ExpiresAt.After(h.StartedAt) {
		t.Fatalf("with auth on: %+v %v", h, err)
	}
	if found, expired := c.Auth().MatchBridge(h.Token); !found || expired {
		t.Fatal("the published token is not one the service accepts")
	}
	srv := m.Server()
	off := on
	off.RequireAuth = false
	if err := m.Apply(ctx, off); err != nil || m.Server() != srv {
		t.Fatalf("%v (restarted: %v)", err, m.Server() != srv)
	}
	if h, err := config.ReadHandshake(c.Dir()); err != nil || h.Token != "" || h.ExpiresAt != nil {
		t.Fatalf("with auth off: %+v %v", h, err)
	}
}
