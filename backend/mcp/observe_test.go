package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// recorder collects the Records an Observer gets.
type recorder struct {
	mu   sync.Mutex
	recs []Record
}

func (r *recorder) observe(rec Record) {
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.mu.Unlock()
}

func (r *recorder) last(t *testing.T) Record {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.recs) == 0 {
		t.Fatal("nothing observed")
	}
	return r.recs[len(r.recs)-1]
}

// Every answered POST /mcp is told to the Observer (the activity log is fed
// from it): who, which client, which method and tool, and the outcome.
func TestObserverSeesEveryAnsweredRequest(t *testing.T) {
	rec := &recorder{}
	var released atomic.Int64
	auth := AuthenticatorFunc(func(r *http.Request) (Principal, error) {
		if r.Header.Get("Authorization") != "Bearer good" {
			return Principal{}, NewError(CodeUnauthenticated, "unauthenticated", nil)
		}
		return Principal{ID: "tok-1", Name: "laptop", Level: "readOnly", Scopes: []string{ScopeToolsRead, ScopeResourcesRead},
			Release: func() { released.Add(1) }}, nil
	})
	failing := Tool{Name: "fake_fail", Description: "fails", InputSchema: objectSchema(),
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) {
			return nil, NewToolError(ToolErrNotFound, "no such table")
		}}
	ts := startServer(t, Options{Authenticator: auth, Observer: rec.observe, Tools: []Tool{failing}})
	authed := func(method string, params map[string]any) http.Header {
		h := modernHeaders(method, params)
		h.Set("Authorization", "Bearer good")
		return h
	}
	t.Run("a tool call: principal, client, method, tool name and arguments", func(t *testing.T) {
		p := map[string]any{"name": "fixture_list", "arguments": map[string]any{}}
		ts.post(t, authed("tools/call", p), modernBody(1, "tools/call", p))
		r := rec.last(t)
		if r.Principal.ID != "tok-1" || r.Principal.Name != "laptop" || r.Method != "tools/call" || r.Name != "fixture_list" ||
			string(r.Arguments) != "{}" || r.ErrorCode != 0 || r.ToolError != "" || r.Era != EraModern ||
			r.Client == nil || r.Client.Name != "test" || r.Duration <= 0 || r.Start.IsZero() {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("the W3C traceparent of _meta reaches the Observer as sent", func(t *testing.T) {
		const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		p := map[string]any{"name": "fixture_list", "arguments": map[string]any{}}
		body := modernBody(5, "tools/call", p)
		body = []byte(strings.Replace(string(body), `"_meta":{`, `"_meta":{"traceparent":"`+tp+`",`, 1))
		ts.post(t, authed("tools/call", p), body)
		if r := rec.last(t); r.Traceparent != tp {
			t.Fatalf("traceparent %q, want %q", r.Traceparent, tp)
		}
	})
	t.Run("a failed tool: its tool error code", func(t *testing.T) {
		p := map[string]any{"name": "fake_fail", "arguments": map[string]any{}}
		ts.post(t, authed("tools/call", p), modernBody(2, "tools/call", p))
		if r := rec.last(t); r.ToolError != ToolErrNotFound || r.ErrorCode != 0 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a protocol error: its code", func(t *testing.T) {
		p := map[string]any{"name": "nope", "arguments": map[string]any{}}
		ts.post(t, authed("tools/call", p), modernBody(3, "tools/call", p))
		if r := rec.last(t); r.ErrorCode != CodeInvalidParams || r.Name != "nope" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a refused token: -33009 and no principal", func(t *testing.T) {
		ts.post(t, modernHeaders("tools/list", nil), modernBody(4, "tools/list", nil))
		if r := rec.last(t); r.ErrorCode != CodeUnauthenticated || r.Principal.ID != "" || r.Method != "tools/list" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a body that is not JSON: -32700 and no method", func(t *testing.T) {
		ts.post(t, authed("tools/list", nil), []byte("{"))
		if r := rec.last(t); r.ErrorCode != CodeParseError || r.Method != "" {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("a notification", func(t *testing.T) {
		ts.post(t, authed("notifications/initialized", nil), []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
		if r := rec.last(t); !r.Notification || r.Method != "notifications/initialized" || r.ErrorCode != 0 {
			t.Fatalf("%+v", r)
		}
	})
	t.Run("Release is called once for every authenticated request", func(t *testing.T) {
		// Authenticated so far: the three tool calls, the unknown tool, the
		// bad body (authentication comes after the envelope: never reached)
		// and the notification.
		if got := released.Load(); got != 5 {
			t.Fatalf("released %d times", got)
		}
	})
}

// SPEC.md B "Authentication" 5: error text is redacted before it leaves the
// process: a failed tool's text and a protocol error's message pass through
// Options.Redact.
func TestErrorTextIsRedacted(t *testing.T) {
	const secret = "sk-live-0123456789"
	scrub := func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	echo := Tool{Name: "echo_fail", Description: "fails echoing a secret", InputSchema: objectSchema(),
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) {
			return nil, NewToolError(ToolErrQueryFailed, "the server said: bad key %s", secret)
		}}
	ts := startServer(t, Options{Redact: scrub, Tools: []Tool{echo}})
	t.Run("a failed tool's text", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "echo_fail", "arguments": map[string]any{}})
		if strings.Contains(string(r.body), secret) || !strings.Contains(string(r.body), "query_failed: the server said: bad key [redacted]") {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("a protocol error's message", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "tool-" + secret, "arguments": map[string]any{}})
		if r.code() != CodeInvalidParams || strings.Contains(string(r.body), secret) {
			t.Fatalf("%s", r.body)
		}
	})
}
