package tools

import (
	"strings"
	"testing"
)

// issue 12: connection_status tells whether a connection is open and what AI clients may do
// on it, without opening it, approving anything or showing its credential.
func TestConnectionStatus(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		rule, conn    string
		open          bool
		reads, writes string
	}{
		{"a saved connection no tool opened is closed; default policy: reads run, writes ask", "Node", false,
			"run without asking", "approved by the user one by one"},
		{"a connection is found by its name too, case-insensitively", "node", false,
			"run without asking", "approved by the user one by one"},
		{"an alwaysAsk connection says reads need approval, and status itself needs none", "Ask", false,
			"approved by the user one by one", "approved by the user one by one"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r := e.ok(t, NameConnectionStatus, map[string]any{"connection": c.conn})
			s := structured(t, r)
			if s["open"] != c.open || s["reads"] != c.reads || s["writes"] != c.writes || s["port"] != float64(e.node.Port) {
				t.Fatalf("%v", s)
			}
			if !strings.Contains(r.Text(), "closed; reads: "+c.reads) {
				t.Fatalf("text %q", r.Text())
			}
		})
	}
	t.Run("status opens nothing", func(t *testing.T) {
		if e.manager.IsOpen(e.id("Node")) || e.manager.IsOpen(e.id("Ask")) {
			t.Fatal("connection_status opened a connection")
		}
	})
	t.Run("after connect the connection is open", func(t *testing.T) {
		e.ok(t, NameConnect, map[string]any{"connection": e.id("Node")})
		if s := structured(t, e.ok(t, NameConnectionStatus, map[string]any{"connection": e.id("Node")})); s["open"] != true {
			t.Fatalf("%v", s)
		}
	})
	for _, c := range []struct{ rule, conn string }{
		{"an unknown connection is not_found", "no-such-connection"},
		{"a blocked connection answers exactly like an unknown one", "Blocked"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			text := e.fails(t, NameConnectionStatus, map[string]any{"connection": c.conn}, "not_found")
			if text != `not_found: no connection "`+c.conn+`"; call list_connections for the ids` {
				t.Fatalf("%q", text)
			}
		})
	}
	t.Run("a missing connection argument is invalid_argument", func(t *testing.T) {
		e.fails(t, NameConnectionStatus, map[string]any{}, "invalid_argument")
	})
	t.Run("no credential field is in the answer", func(t *testing.T) {
		r := e.ok(t, NameConnectionStatus, map[string]any{"connection": "BadKey"})
		for _, f := range []string{"apiKey", "authMethod", "not-the-key"} {
			if strings.Contains(r.Text(), f) || strings.Contains(mustJSON(t, r.Result), f) {
				t.Fatalf("%s in %v", f, r.Result)
			}
		}
	})
}
