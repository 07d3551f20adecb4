package tools

import (
	"context"
	"strings"
	"testing"

	"app/backend/connections"
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
	// Issue 25, item 5: an AI client's disconnect never closes what the person has open.
	t.Run("a connection open in the window stays open; the client's use of it ends", func(t *testing.T) {
		id := e.id("Node")
		if _, _, err := e.manager.Open(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		e.manager.Hold(id, connections.HolderWindow) // what ExplorerAPI.Connect does
		r := e.ok(t, NameDisconnect, map[string]any{"connection": "Node"})
		if !e.manager.IsOpen(id) || structured(t, r)["open"] != true || !strings.HasPrefix(r.Text(), "Left open") {
			t.Fatalf("open %v: %v", e.manager.IsOpen(id), r.Result)
		}
		// The person's own Disconnect closes it.
		if err := e.manager.Disconnect(id); err != nil || e.manager.IsOpen(id) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("disconnect is not read-only and not destructive", func(t *testing.T) {
		a := Disconnect(e.deps).Annotations
		if a.ReadOnlyHint || a.DestructiveHint || !a.IdempotentHint {
			t.Fatalf("%+v", a)
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
