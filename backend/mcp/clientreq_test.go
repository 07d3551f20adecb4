package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// askingTool sends one request to the client with Call.Request and reports its outcome as
// text: "result: <raw>", "client error <code>: <message>", or the error itself.
func askingTool(method string) Tool {
	return Tool{Name: "fake_ask", Description: "asks the client", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			raw, err := CallFrom(ctx).Request(ctx, method, map[string]any{"maxTokens": 10})
			var ce *ClientError
			switch {
			case errors.As(err, &ce):
				return &ToolResult{Text: "client error " + ce.Error()}, nil
			case err != nil:
				return nil, err
			}
			return &ToolResult{Text: "result: " + string(raw)}, nil
		}}
}

// loggingTool logs one message at each level it is given.
func loggingTool(levels ...string) Tool {
	return Tool{Name: "fake_log", Description: "logs", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			for _, l := range levels {
				if err := CallFrom(ctx).Log(l, "test", "at "+l); err != nil {
					return nil, err
				}
			}
			return &ToolResult{Text: "logged"}, nil
		}}
}

func startToolServer(t *testing.T, tools ...Tool) string {
	t.Helper()
	s, err := NewServer(Options{Authenticator: AuthenticatorFunc(bearerPrincipal), Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	port, err := s.Listen(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return "http://127.0.0.1:" + itoa(port) + "/mcp"
}

// initWithCaps opens a 2025-11-25 session declaring caps.
func initWithCaps(t *testing.T, p *legacyPeer, caps map[string]any) string {
	t.Helper()
	r := p.request("", "", "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps,
		"clientInfo": map[string]any{"name": "t", "version": "1"}})
	wantOK(t, r)
	return r.header.Get("Mcp-Session-Id")
}

// openStream posts a legacy tools/call and returns a reader of its SSE data frames.
func openStream(t *testing.T, url, session, token string) (next func() map[string]any, closeFn func()) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fake_ask","arguments":{}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("Content-Type %q, want text/event-stream: %s", ct, b)
	}
	sc := bufio.NewScanner(resp.Body)
	return func() map[string]any {
		t.Helper()
		for sc.Scan() {
			line := sc.Text()
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				var m map[string]any
				if err := json.Unmarshal([]byte(d), &m); err != nil {
					t.Fatalf("frame is not JSON: %q", d)
				}
				return m
			}
		}
		t.Fatalf("stream ended: %v", sc.Err())
		return nil
	}, func() { resp.Body.Close() }
}

func TestCallRequestRoutesTheLegacyClientsResponse(t *testing.T) {
	tests := []struct {
		name     string
		method   string
		answer   func(id any) map[string]any
		wantText string
	}{
		{name: "sampling/createMessage answered with a result", method: "sampling/createMessage",
			answer: func(id any) map[string]any {
				return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"role": "assistant", "model": "m"}}
			},
			wantText: `result: {"model":"m","role":"assistant"}`},
		{name: "elicitation/create answered with a result", method: "elicitation/create",
			answer: func(id any) map[string]any {
				return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"action": "decline"}}
			},
			wantText: `result: {"action":"decline"}`},
		{name: "roots/list answered with an error", method: "roots/list",
			answer: func(id any) map[string]any {
				return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -1, "message": "no roots"}}
			},
			wantText: "client error mcp: the client answered -1: no roots"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := startToolServer(t, askingTool(tc.method))
			p := newLegacyPeer(t, url, "tok-a")
			sid := initWithCaps(t, p, map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}, "roots": map[string]any{}})
			next, done := openStream(t, url, sid, "tok-a")
			defer done()

			req := next()
			if req["method"] != tc.method || req["id"] == nil {
				t.Fatalf("first frame %v, want a %s request", req, tc.method)
			}
			id := req["id"]

			// Nobody else's answer reaches the call: another token, another session, another id.
			other := newLegacyPeer(t, url, "tok-b")
			otherSID := initWithCaps(t, other, map[string]any{})
			wantError(t, other.send(sid, "2025-11-25", tc.answer(id)), http.StatusBadRequest, CodeInvalidRequest)
			wantError(t, p.send(otherSID, "2025-11-25", tc.answer(id)), http.StatusBadRequest, CodeInvalidRequest)
			wantError(t, p.send(sid, "2025-11-25", tc.answer("srv-999999")), http.StatusBadRequest, CodeInvalidRequest)
			wantError(t, p.send("", "2025-11-25", tc.answer(id)), http.StatusBadRequest, CodeInvalidRequest)

			if r := p.send(sid, "2025-11-25", tc.answer(id)); r.status != http.StatusAccepted || len(r.body) != 0 {
				t.Fatalf("the awaited answer got HTTP %d %s, want 202 with no body", r.status, r.body)
			}
			// A request takes one answer: the same one again is a stray response.
			wantError(t, p.send(sid, "2025-11-25", tc.answer(id)), http.StatusBadRequest, CodeInvalidRequest)

			final := next()
			res, _ := final["result"].(map[string]any)
			content, _ := res["content"].([]any)
			if len(content) != 1 || content[0].(map[string]any)["text"] != tc.wantText {
				t.Fatalf("final frame %v, want text %q", final, tc.wantText)
			}
		})
	}
}

func TestCallRequestRefusals(t *testing.T) {
	t.Run("a capability the session did not declare is -32021 naming it", func(t *testing.T) {
		url := startToolServer(t, askingTool("sampling/createMessage"))
		p := newLegacyPeer(t, url, "")
		sid := initWithCaps(t, p, map[string]any{"roots": map[string]any{}})
		r := p.send(sid, "2025-11-25", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": "fake_ask", "arguments": map[string]any{}}})
		wantError(t, r, http.StatusBadRequest, CodeMissingCapability)
		if _, ok := r.err.Data["requiredCapabilities"].(map[string]any)["sampling"]; !ok {
			t.Errorf("data = %v", r.err.Data)
		}
	})
	tests := []struct {
		name string
		call *Call
	}{
		{"a modern call (input_required is its channel)", &Call{Era: EraModern, SessionID: "s", clientReqs: newClientRequests(), stream: &sseStream{},
			sessionCaps: map[string]json.RawMessage{"sampling": json.RawMessage("{}")}}},
		{"a legacy call without a response stream", &Call{Era: EraLegacy, SessionID: "s", clientReqs: newClientRequests(),
			sessionCaps: map[string]json.RawMessage{"sampling": json.RawMessage("{}")}}},
		{"a legacy call without a session", &Call{Era: EraLegacy, clientReqs: newClientRequests(), stream: &sseStream{},
			sessionCaps: map[string]json.RawMessage{"sampling": json.RawMessage("{}")}}},
		{"no call at all", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name+": ErrNoClientChannel", func(t *testing.T) {
			if _, err := tc.call.Request(context.Background(), "sampling/createMessage", nil); !errors.Is(err, ErrNoClientChannel) {
				t.Errorf("err = %v", err)
			}
		})
	}
	t.Run("a method a client cannot be asked: ErrNoClientChannel", func(t *testing.T) {
		c := &Call{Era: EraLegacy, SessionID: "s", clientReqs: newClientRequests(), stream: &sseStream{}}
		if _, err := c.Request(context.Background(), "tools/call", nil); !errors.Is(err, ErrNoClientChannel) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a response nobody awaits is still -32600", func(t *testing.T) {
		url := startToolServer(t)
		p := newLegacyPeer(t, url, "")
		sid := initWithCaps(t, p, map[string]any{})
		wantError(t, p.send(sid, "2025-11-25", map[string]any{"jsonrpc": "2.0", "id": "srv-1", "result": map[string]any{}}),
			http.StatusBadRequest, CodeInvalidRequest)
	})
	t.Run("the call ending while it waits frees the request", func(t *testing.T) {
		table := newClientRequests()
		_, _, forget := table.open("s", "p")
		forget()
		if len(table.waiting) != 0 {
			t.Errorf("waiting = %v", table.waiting)
		}
	})
}

func TestCallLogSendsOnlyWhatTheClientAskedFor(t *testing.T) {
	tool := loggingTool("debug", "info", "error")
	tests := []struct {
		name     string
		legacy   bool
		setLevel string         // legacy: logging/setLevel before the call
		meta     map[string]any // modern: extra _meta
		want     []string       // the levels that arrive, in order; nil: a plain JSON answer
	}{
		{name: "modern without _meta logLevel: none, and the answer stays JSON"},
		{name: "modern with logLevel info", meta: map[string]any{MetaLogLevel: "info"}, want: []string{"info", "error"}},
		{name: "modern with logLevel debug", meta: map[string]any{MetaLogLevel: "debug"}, want: []string{"debug", "info", "error"}},
		{name: "modern with an unknown logLevel: none", meta: map[string]any{MetaLogLevel: "loud"}},
		{name: "legacy before logging/setLevel: every level", legacy: true, want: []string{"debug", "info", "error"}},
		{name: "legacy after logging/setLevel warning", legacy: true, setLevel: "warning", want: []string{"error"}},
		{name: "legacy after logging/setLevel emergency: none", legacy: true, setLevel: "emergency"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var frames [][]byte
			var ct string
			if tc.legacy {
				url := startToolServer(t, tool)
				p := newLegacyPeer(t, url, "")
				sid := initWithCaps(t, p, map[string]any{})
				if tc.setLevel != "" {
					wantOK(t, p.request(sid, "2025-11-25", "logging/setLevel", map[string]any{"level": tc.setLevel}))
				}
				h := http.Header{"Content-Type": {"application/json"}, "Mcp-Session-Id": {sid}}
				r := doRequest(t, http.MethodPost, url, h,
					[]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fake_log"}}`))
				frames, ct = r.frames, r.header.Get("Content-Type")
			} else {
				ts := startServer(t, Options{Tools: []Tool{tool}})
				params := map[string]any{"name": "fake_log"}
				body := modernBody(1, "tools/call", params)
				if tc.meta != nil {
					var m map[string]any
					_ = json.Unmarshal(body, &m)
					meta := m["params"].(map[string]any)["_meta"].(map[string]any)
					for k, v := range tc.meta {
						meta[k] = v
					}
					body, _ = json.Marshal(m)
				}
				r := ts.post(t, modernHeaders("tools/call", params), body)
				frames, ct = r.frames, r.header.Get("Content-Type")
			}
			if tc.want == nil {
				if ct != "application/json" {
					t.Fatalf("Content-Type %q, want application/json (no log message)", ct)
				}
				return
			}
			if ct != "text/event-stream" || len(frames) != len(tc.want)+1 {
				t.Fatalf("Content-Type %q with %d frames, want %d log frames and the result", ct, len(frames), len(tc.want))
			}
			for i, lvl := range tc.want {
				var n struct {
					Method string `json:"method"`
					Params struct {
						Level  string `json:"level"`
						Logger string `json:"logger"`
						Data   string `json:"data"`
					} `json:"params"`
				}
				_ = json.Unmarshal(frames[i], &n)
				if n.Method != "notifications/message" || n.Params.Level != lvl || n.Params.Logger != "test" || n.Params.Data != "at "+lvl {
					t.Errorf("frame %d = %s, want a %s log message", i, frames[i], lvl)
				}
			}
			if !bytes.Contains(frames[len(frames)-1], []byte(`"logged"`)) {
				t.Errorf("last frame = %s, want the result", frames[len(frames)-1])
			}
		})
	}
}

func TestLegacyProgressTokenStreamsProgress(t *testing.T) {
	url := startToolServer(t, fakeProgressTool([]float64{0.1, 0.5, 1}))
	p := newLegacyPeer(t, url, "")
	sid := initWithCaps(t, p, map[string]any{})
	tests := []struct {
		name       string
		meta       map[string]any
		wantFrames int
		wantCode   int
	}{
		{name: "with a progressToken: three progress frames and the result", meta: map[string]any{"progressToken": "p1"}, wantFrames: 4},
		{name: "an integer progressToken", meta: map[string]any{"progressToken": 7}, wantFrames: 4},
		{name: "without one: plain JSON", meta: map[string]any{}, wantFrames: 0},
		{name: "a fractional progressToken is -32602", meta: map[string]any{"progressToken": 1.5}, wantCode: CodeInvalidParams},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
				"params": map[string]any{"name": "fake_progress", "_meta": tc.meta}})
			r := doRequest(t, http.MethodPost, url, http.Header{"Content-Type": {"application/json"}, "Mcp-Session-Id": {sid}}, b)
			if tc.wantCode != 0 {
				if r.rpc.Error == nil || r.rpc.Error.Code != tc.wantCode {
					t.Fatalf("got HTTP %d %s", r.status, r.body)
				}
				return
			}
			if len(r.frames) != tc.wantFrames {
				t.Fatalf("%d frames (%s), want %d", len(r.frames), r.body, tc.wantFrames)
			}
			for _, f := range r.frames[:max(0, len(r.frames)-1)] {
				if !bytes.Contains(f, []byte(`"notifications/progress"`)) {
					t.Errorf("frame %s is not a progress notification", f)
				}
			}
		})
	}
}
