package mcp

import (
	"context"
	"encoding/json"
	"strconv"
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

// SPEC.md B "States and transitions": a revoked token's in-flight requests
// end with -33002 and its legacy sessions are gone (-33001); another
// principal's are untouched.
func TestRevokePrincipalCancelsRequestsAndEndsSessions(t *testing.T) {
	started := make(chan struct{}, 1)
	slow := Tool{Name: "slow", Description: "blocks until cancelled", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			return nil, ctx.Err()
		}}
	s, err := NewServer(Options{Authenticator: AuthenticatorFunc(bearerPrincipal), Tools: []Tool{fixtureListTool(), slow}})
	if err != nil {
		t.Fatal(err)
	}
	port, err := s.Listen(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	revoked, other := newLegacyPeer(t, url, "tok-revoked"), newLegacyPeer(t, url, "tok-other")
	revokedSession, otherSession := revoked.initialize("2025-11-25"), other.initialize("2025-11-25")

	done := make(chan legacyReply, 1)
	go func() {
		done <- revoked.request(revokedSession, "2025-11-25", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}})
	}()
	<-started
	requests, sessions := s.RevokePrincipal("token:tok-revoked")
	t.Run("the in-flight request ends with -33002", func(t *testing.T) {
		if requests != 1 {
			t.Fatalf("%d requests cancelled", requests)
		}
		wantError(t, <-done, 200, CodeRequestCancelled)
	})
	t.Run("its session is gone: -33001", func(t *testing.T) {
		if sessions != 1 {
			t.Fatalf("%d sessions ended", sessions)
		}
		wantError(t, revoked.request(revokedSession, "2025-11-25", "tools/list", nil), 404, CodeSessionNotFound)
	})
	t.Run("another principal's session still works", func(t *testing.T) {
		wantOK(t, other.request(otherSession, "2025-11-25", "tools/list", nil))
	})
}
