package core

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"app/backend/auth"
	"app/backend/config"
	"app/backend/mcp"
)

// postDiscover sends server/discover to the core's server with Authorization auth ("" none)
// and returns the status.
func postDiscover(t *testing.T, c *Core, authz string) int {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": map[string]any{
		"_meta": map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{}}}})
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(c.MCP().Port())+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "server/discover")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// ARCHITECTURE.md 3 "Authentication default" and issue 11: the Core's one access-control
// service is the server's Authenticator; a new config dir requires a token; the settings
// watcher's change of mcp.requireAuth and mcp.externalAccess applies within a second, without
// a restart; the service survives a server restart.
func TestCoreAccessControl(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, 0)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	_, secret, err := c.Tokens().Create(ctx, auth.NewToken{Name: "t", Level: auth.LevelReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	waitStatus := func(t *testing.T, authz string, want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			got := postDiscover(t, c, authz)
			if got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("status %d, want %d within 5 s", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Run("a new config dir requires a token", func(t *testing.T) {
		if got := postDiscover(t, c, ""); got != http.StatusUnauthorized {
			t.Fatalf("anonymous: %d", got)
		}
		if got := postDiscover(t, c, "Bearer "+secret); got != http.StatusOK {
			t.Fatalf("with the token: %d", got)
		}
	})
	t.Run("mcp.requireAuth false set by the CLI lets the anonymous principal in within a second", func(t *testing.T) {
		srv := c.MCP().Server()
		if err := config.SetSetting(ctx, c.Settings(), "mcp.requireAuth", "false"); err != nil {
			t.Fatal(err)
		}
		waitStatus(t, "", http.StatusOK)
		if c.MCP().Server() != srv {
			t.Fatal("the server was restarted for a per-request setting")
		}
	})
	t.Run("mcp.externalAccess false answers every call 403 within a second", func(t *testing.T) {
		if err := config.SetSetting(ctx, c.Settings(), "mcp.externalAccess", "false"); err != nil {
			t.Fatal(err)
		}
		waitStatus(t, "Bearer "+secret, http.StatusForbidden)
		if err := config.SetSetting(ctx, c.Settings(), "mcp.externalAccess", "true"); err != nil {
			t.Fatal(err)
		}
		waitStatus(t, "Bearer "+secret, http.StatusOK)
	})
	t.Run("after the server stops and starts again the same service and settings serve", func(t *testing.T) {
		if err := config.SetSetting(ctx, c.Settings(), "mcp.requireAuth", "true"); err != nil {
			t.Fatal(err)
		}
		waitStatus(t, "", http.StatusUnauthorized)
		on := config.MCPSettings{Enabled: true, Port: 0, RequireAuth: true, ExternalAccess: true}
		off := on
		off.Enabled = false
		if err := c.MCP().Apply(ctx, off); err != nil {
			t.Fatal(err)
		}
		if err := c.MCP().Apply(ctx, on); err != nil {
			t.Fatal(err)
		}
		if postDiscover(t, c, "") != http.StatusUnauthorized || postDiscover(t, c, "Bearer "+secret) != http.StatusOK {
			t.Fatal("access control lost in the restart")
		}
	})
}

// A token revoked outside the window (the CLI's store) leaves the connected-clients list as
// soon as the running app notices the revocation, with its requests and sessions.
func TestARevokedTokenLeavesTheConnectedClients(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, 0)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	tok, secret, err := c.Tokens().Create(ctx, auth.NewToken{Name: "gone", Level: auth.LevelReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	if got := postDiscover(t, c, "Bearer "+secret); got != http.StatusOK {
		t.Fatalf("with the token: %d", got)
	}
	listed := func() bool {
		for _, cl := range c.Activity().Clients().All() {
			if cl.Principal == tok.PrincipalID() {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(5 * time.Second)
	for !listed() {
		if time.Now().After(deadline) {
			t.Fatal("the token's client never appeared among the connected clients")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The CLI's store: another process of App, so it seals what it writes.
	if _, err := auth.NewStore(c.Dir(), c.Keys(), config.Sealed(SealOf(c.Dir()))).Revoke(ctx, tok.ID); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(5 * time.Second)
	for listed() {
		if time.Now().After(deadline) {
			t.Fatal("the revoked token's client is still listed after 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
