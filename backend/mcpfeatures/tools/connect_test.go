package tools

import (
	"context"
	"strings"
	"testing"

	"app/backend/approval"
)

// issue 12: connect opens a saved connection through the AI policy (a read statement "open the
// connection"), reports a key or network failure as not_connected with the driver's reason,
// and never shows the key.
func TestConnect(t *testing.T) {
	e := newEnv(t, envOptions{})
	t.Run("connect opens the connection in the manager", func(t *testing.T) {
		r := e.ok(t, NameConnect, map[string]any{"connection": "Node"})
		if !e.manager.IsOpen(e.id("Node")) || structured(t, r)["open"] != true || !strings.HasPrefix(r.Text(), "Connected to Node ") {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("connecting an open connection says it already was, and changes nothing", func(t *testing.T) {
		drv, _ := e.manager.Driver(e.id("Node"))
		r := e.ok(t, NameConnect, map[string]any{"connection": e.id("Node")})
		again, _ := e.manager.Driver(e.id("Node"))
		if !strings.HasPrefix(r.Text(), "Already connected to Node ") || drv != again {
			t.Fatalf("%q", r.Text())
		}
	})
	cases := []struct{ rule, conn, code, prefix string }{
		{"a rejected key is not_connected, Authentication failed:", "BadKey", "not_connected", "not_connected: Authentication failed:"},
		{"a node nobody listens for is not_connected, Connection failed:", "Down", "not_connected", "not_connected: Connection failed:"},
		{"an unknown connection is not_found", "Nope", "not_found", "not_found: "},
		{"a blocked connection is not_found and is not opened", "Blocked", "not_found", "not_found: "},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			text := e.fails(t, NameConnect, map[string]any{"connection": c.conn}, c.code)
			if !strings.HasPrefix(text, c.prefix) {
				t.Fatalf("%q", text)
			}
			if id := e.id(c.conn); id != "" && e.manager.IsOpen(id) {
				t.Fatal("the connection was opened")
			}
		})
	}
}

// issue 12: on an alwaysAsk connection even opening waits for the user's approval.
func TestConnectFollowsTheAIPolicy(t *testing.T) {
	t.Run("with nobody to approve, connect on an alwaysAsk connection is denied and opens nothing", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.fails(t, NameConnect, map[string]any{"connection": "Ask"}, "denied")
		if e.manager.IsOpen(e.id("Ask")) {
			t.Fatal("opened without approval")
		}
	})
	t.Run("the user is asked to approve a read that says it opens the connection", func(t *testing.T) {
		var asked []approval.Question
		e := newEnv(t, envOptions{dialog: approval.DialogFunc(func(_ context.Context, q approval.Question) (approval.Answer, error) {
			asked = append(asked, q)
			return approval.Approve, nil
		})})
		e.ok(t, NameConnect, map[string]any{"connection": "Ask"})
		if len(asked) != 1 || asked[0].Statement != "open the connection" || asked[0].Write || asked[0].Connection != "Ask" {
			t.Fatalf("asked %+v", asked)
		}
		if !e.manager.IsOpen(e.id("Ask")) {
			t.Fatal("not opened after approval")
		}
	})
}
