package mcp

import (
	"encoding/json"
	"testing"
)

// SPEC.md B "States": notifications/cancelled cancels the same principal's
// request, which ends with -33002; the notification is answered 202.
func TestCancellation(t *testing.T) {
	stopped := make(chan error, 2)
	ts := startServer(t, Options{Tools: []Tool{fakeSlowTool(stopped)}})
	params := map[string]any{"name": "fake_slow", "arguments": map[string]any{}}
	done := make(chan httpReply, 1)
	go func() { done <- ts.call(t, "req-9", "tools/call", params) }()
	// Wait until the request is in flight.
	for i := 0; i < 100; i++ {
		ts.inflight.mu.Lock()
		n := len(ts.inflight.m)
		ts.inflight.mu.Unlock()
		if n > 0 {
			break
		}
		sleepMs(10)
	}
	cancel := func(id string) httpReply {
		b := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user"}}`)
		return ts.post(t, modernHeaders("notifications/cancelled", nil), b)
	}
	t.Run("a cancel for another id is answered 202 and changes nothing", func(t *testing.T) {
		if r := cancel(`"other"`); r.status != 202 {
			t.Fatalf("status %d", r.status)
		}
	})
	t.Run("the matching cancel ends the request with -33002 (HTTP 200)", func(t *testing.T) {
		if r := cancel(`"req-9"`); r.status != 202 {
			t.Fatalf("status %d", r.status)
		}
		r := <-done
		if r.status != 200 || r.code() != CodeRequestCancelled || string(r.rpc.ID) != `"req-9"` {
			t.Fatalf("status %d body %s", r.status, r.body)
		}
		<-stopped
	})
	t.Run("another principal cannot cancel the request", func(t *testing.T) {
		if ts.inflight.cancel("someone-else", json.RawMessage(`"req-9"`)) {
			t.Fatal("cancelled across principals")
		}
	})
}
