package tools

import (
	"strings"
	"testing"
)

// issue 12: disconnect closes an open connection in the manager; closing a closed one is no
// error; it needs no approval (it runs no statement) but the connection must be visible.
func TestDisconnect(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.ok(t, NameConnect, map[string]any{"connection": "Node"})
	t.Run("disconnect closes an open connection", func(t *testing.T) {
		r := e.ok(t, NameDisconnect, map[string]any{"connection": "Node"})
		if e.manager.IsOpen(e.id("Node")) || structured(t, r)["open"] != false || !strings.HasPrefix(r.Text(), "Disconnected Node ") {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("disconnecting a closed connection is not an error and says it was not open", func(t *testing.T) {
		r := e.ok(t, NameDisconnect, map[string]any{"connection": "Node"})
		if !strings.HasPrefix(r.Text(), "Was not open: Node ") {
			t.Fatalf("%q", r.Text())
		}
	})
	t.Run("the next read opens it again", func(t *testing.T) {
		e.ok(t, NameListTables, map[string]any{"connection": "Node"})
		if !e.manager.IsOpen(e.id("Node")) {
			t.Fatal("not reopened")
		}
	})
	t.Run("an alwaysAsk connection is closed without asking anyone", func(t *testing.T) {
		e.ok(t, NameDisconnect, map[string]any{"connection": "Ask"})
	})
	for _, conn := range []string{"Nope", "Blocked"} {
		t.Run("an unknown or blocked connection is not_found: "+conn, func(t *testing.T) {
			e.fails(t, NameDisconnect, map[string]any{"connection": conn}, "not_found")
		})
	}
}
