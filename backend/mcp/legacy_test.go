package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"app/backend/mcp/internal/wire"

	"app/backend/mcp/session"
)

// legacyPeer is a raw HTTP client for the legacy era against a real listener on 127.0.0.1:0.
// It speaks the wire directly so each test sees exact statuses, headers and bodies.
type legacyPeer struct {
	t      *testing.T
	url    string
	token  string // Authorization: Bearer <token> when set
	client *http.Client
}

type legacyReply struct {
	status int
	header http.Header
	body   []byte
	result map[string]any
	err    *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
}

// startLegacyServer starts a Server on 127.0.0.1:0 whose principal is the bearer token (or the
// anonymous principal without one), so tests can speak as different tokens.
func startLegacyServer(t *testing.T) (*Server, string) {
	t.Helper()
	s, err := NewServer(Options{Name: "app-test", Version: "1.2.3", Authenticator: AuthenticatorFunc(bearerPrincipal),
		Tools: []Tool{fixtureListTool()}})
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
	return s, "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
}

// bearerPrincipal is a test Authenticator: the token text is the principal ID.
func bearerPrincipal(r *http.Request) (Principal, error) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return AnonymousPrincipal(), nil
	}
	return Principal{ID: "token:" + tok, Scopes: []string{ScopeToolsRead, ScopeResourcesRead}}, nil
}

func newLegacyPeer(t *testing.T, url, token string) *legacyPeer {
	return &legacyPeer{t: t, url: url, token: token, client: &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}}
}

// send posts one JSON-RPC message. session and version go into Mcp-Session-Id and
// MCP-Protocol-Version when not empty.
func (p *legacyPeer) send(session, version string, msg map[string]any) legacyReply {
	p.t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		p.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, p.url, bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	r := legacyReply{status: resp.StatusCode, header: resp.Header, body: body}
	if len(body) > 0 {
		var env struct {
			Result map[string]any `json:"result"`
			Error  *struct {
				Code    int            `json:"code"`
				Message string         `json:"message"`
				Data    map[string]any `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &env); err != nil {
			p.t.Fatalf("response is not JSON: %q", body)
		}
		r.result, r.err = env.Result, env.Error
	}
	return r
}

func (p *legacyPeer) request(session, version, method string, params map[string]any) legacyReply {
	p.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "id": 1, "method": method}
	if params != nil {
		msg["params"] = params
	}
	return p.send(session, version, msg)
}

func legacyInitParams(version string) map[string]any {
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    map[string]any{"roots": map[string]any{"listChanged": true}},
		"clientInfo":      map[string]any{"name": "legacy-test", "version": "0.1"},
	}
}

// initialize opens a session and returns its ID, failing the test otherwise.
func (p *legacyPeer) initialize(version string) string {
	p.t.Helper()
	r := p.request("", "", "initialize", legacyInitParams(version))
	if r.status != http.StatusOK || r.err != nil {
		p.t.Fatalf("initialize %s: HTTP %d %s", version, r.status, r.body)
	}
	id := r.header.Get("Mcp-Session-Id")
	if id == "" {
		p.t.Fatalf("initialize %s: no Mcp-Session-Id", version)
	}
	if n := p.send(id, version, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); n.status != http.StatusAccepted {
		p.t.Fatalf("notifications/initialized: HTTP %d", n.status)
	}
	return id
}

// wantError checks an error reply's HTTP status and JSON-RPC code.
func wantError(t *testing.T, r legacyReply, status, code int) {
	t.Helper()
	if r.status != status || r.err == nil || r.err.Code != code {
		t.Fatalf("got HTTP %d %s, want HTTP %d with code %d", r.status, r.body, status, code)
	}
}

func wantOK(t *testing.T, r legacyReply) {
	t.Helper()
	if r.status != http.StatusOK || r.err != nil || r.result == nil {
		t.Fatalf("got HTTP %d %s, want a result", r.status, r.body)
	}
}

func TestLegacyInitializeAcceptsOnly20251125And20250618(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	tests := []struct {
		name    string
		params  map[string]any
		status  int
		code    int // 0: success
		version string
	}{
		{name: "2025-11-25 opens a session", params: legacyInitParams("2025-11-25"), status: 200, version: "2025-11-25"},
		{name: "2025-06-18 opens a session", params: legacyInitParams("2025-06-18"), status: 200, version: "2025-06-18"},
		{name: "2025-03-26 is -32022 (it needs JSON-RPC batching)", params: legacyInitParams("2025-03-26"), status: 400, code: CodeUnsupportedVersion},
		{name: "2024-11-05 is -32022", params: legacyInitParams("2024-11-05"), status: 400, code: CodeUnsupportedVersion},
		{name: "2026-07-28 is -32022 (the modern revision has no initialize)", params: legacyInitParams("2026-07-28"), status: 400, code: CodeUnsupportedVersion},
		{name: "an unknown version is -32022", params: legacyInitParams("1.0.0"), status: 400, code: CodeUnsupportedVersion},
		{name: "an empty version is -32602", params: legacyInitParams(""), status: 400, code: CodeInvalidParams},
		{name: "a missing version is -32602", params: map[string]any{"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "x", "version": "1"}}, status: 400, code: CodeInvalidParams},
		{name: "a non-string version is -32602", params: map[string]any{"protocolVersion": 20251125, "capabilities": map[string]any{}}, status: 400, code: CodeInvalidParams},
		{name: "non-object capabilities are -32602", params: map[string]any{"protocolVersion": "2025-11-25", "capabilities": []any{}}, status: 400, code: CodeInvalidParams},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.request("", "", "initialize", tc.params)
			if tc.code != 0 {
				wantError(t, r, tc.status, tc.code)
				if r.header.Get("Mcp-Session-Id") != "" {
					t.Errorf("a refused initialize issued Mcp-Session-Id")
				}
				if tc.code == CodeUnsupportedVersion {
					got, _ := json.Marshal(r.err.Data["supported"])
					want, _ := json.Marshal(SupportedVersions())
					if !bytes.Equal(got, want) {
						t.Errorf("data.supported = %s, want the live list %s", got, want)
					}
					if r.err.Data["requested"] != tc.params["protocolVersion"] {
						t.Errorf("data.requested = %v", r.err.Data["requested"])
					}
				}
				return
			}
			wantOK(t, r)
			if r.result["protocolVersion"] != tc.version {
				t.Errorf("protocolVersion = %v, want %s", r.result["protocolVersion"], tc.version)
			}
		})
	}
}

func TestLegacyInitializeResultAndSessionHeader(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	r := p.request("", "", "initialize", legacyInitParams("2025-11-25"))
	wantOK(t, r)

	t.Run("the response carries a visible-ASCII Mcp-Session-Id", func(t *testing.T) {
		id := r.header.Get("Mcp-Session-Id")
		if len(id) < 32 || strings.IndexFunc(id, func(c rune) bool { return c < 0x21 || c > 0x7e }) >= 0 {
			t.Errorf("Mcp-Session-Id = %q", id)
		}
	})
	t.Run("the result has protocolVersion, capabilities, serverInfo and instructions only", func(t *testing.T) {
		var keys []string
		for k := range r.result {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"capabilities", "instructions", "protocolVersion", "serverInfo"}; !slices.Equal(keys, want) {
			t.Errorf("result keys = %v, want %v", keys, want)
		}
	})
	t.Run("capabilities: resources.subscribe false, the other flags as the spec lists", func(t *testing.T) {
		got, _ := json.Marshal(r.result["capabilities"])
		var caps map[string]any
		_ = json.Unmarshal(got, &caps)
		want := map[string]any{
			"tools":       map[string]any{"listChanged": false},
			"resources":   map[string]any{"subscribe": false, "listChanged": true},
			"prompts":     map[string]any{"listChanged": false},
			"completions": map[string]any{},
			"logging":     map[string]any{},
		}
		if !reflect.DeepEqual(caps, want) {
			t.Errorf("capabilities = %s", got)
		}
	})
	t.Run("serverInfo names the server", func(t *testing.T) {
		si, _ := r.result["serverInfo"].(map[string]any)
		if si["name"] != "app-test" || si["version"] != "1.2.3" {
			t.Errorf("serverInfo = %v", r.result["serverInfo"])
		}
	})
	t.Run("instructions are the same text as server/discover returns", func(t *testing.T) {
		d := discover(t, url)
		if r.result["instructions"] != d["instructions"] || r.result["instructions"] != Instructions() {
			t.Errorf("initialize instructions %q differ from server/discover %q", r.result["instructions"], d["instructions"])
		}
	})
}

// discover calls server/discover in the modern era and returns its result.
func discover(t *testing.T, url string) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": map[string]any{
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    ProtocolVersion,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		},
	}})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	req.Header.Set("Mcp-Method", "server/discover")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Result map[string]any `json:"result"`
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(b, &env) != nil || env.Result == nil {
		t.Fatalf("server/discover: HTTP %d %s", resp.StatusCode, b)
	}
	return env.Result
}

func TestLegacyRequestsCarryMcpSessionId(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	tests := []struct {
		name    string
		session string
		status  int
		code    int
	}{
		{name: "a request with its session is served", session: id, status: 200},
		{name: "a request without Mcp-Session-Id is 400 -32600", session: "", status: 400, code: CodeInvalidRequest},
		{name: "an unknown session is 404 -33001", session: "no-such-session", status: 404, code: CodeSessionNotFound},
		{name: "a session ID with one character changed is 404 -33001", session: id[:len(id)-1] + string(id[len(id)-1]^1), status: 404, code: CodeSessionNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.request(tc.session, "2025-11-25", "tools/list", nil)
			if tc.code == 0 {
				wantOK(t, r)
				return
			}
			wantError(t, r, tc.status, tc.code)
		})
	}
}

func TestLegacySessionUsedUnderAnotherTokenIsNotFound(t *testing.T) {
	_, url := startLegacyServer(t)
	alice := newLegacyPeer(t, url, "alice")
	id := alice.initialize("2025-06-18")
	tests := []struct {
		name  string
		token string
		ok    bool
	}{
		{name: "the token that opened the session is served", token: "alice", ok: true},
		{name: "another token gets 404 -33001", token: "bob"},
		{name: "the anonymous loopback principal gets 404 -33001", token: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newLegacyPeer(t, url, tc.token).request(id, "2025-06-18", "ping", nil)
			if tc.ok {
				wantOK(t, r)
				return
			}
			wantError(t, r, http.StatusNotFound, CodeSessionNotFound)
		})
	}
	t.Run("the foreign attempt did not end the owner's session", func(t *testing.T) {
		wantOK(t, alice.request(id, "2025-06-18", "ping", nil))
	})
}

func TestLegacyStoreHoldsAtMost16SessionsLeastRecentlyUsedEvicted(t *testing.T) {
	s, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	var ids []string
	for range 16 {
		ids = append(ids, p.initialize("2025-11-25"))
	}
	// Session 0 is used again, so session 1 is now the least recently used.
	wantOK(t, p.request(ids[0], "2025-11-25", "ping", nil))
	newest := p.initialize("2025-11-25")

	tests := []struct {
		name string
		id   string
		gone bool
	}{
		{name: "the least recently used session is evicted: 404 -33001", id: ids[1], gone: true},
		{name: "the oldest session, used again, is kept", id: ids[0]},
		{name: "a session in the middle is kept", id: ids[8]},
		{name: "the 17th session is served", id: newest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.request(tc.id, "2025-11-25", "ping", nil)
			if tc.gone {
				wantError(t, r, http.StatusNotFound, CodeSessionNotFound)
				return
			}
			wantOK(t, r)
		})
	}
	t.Run("the store holds 16", func(t *testing.T) {
		if n := s.legacy.sessions.Len(); n != 16 {
			t.Errorf("sessions = %d, want 16", n)
		}
	})
	t.Run("an evicted client that initializes again is served", func(t *testing.T) {
		id := p.initialize("2025-11-25")
		wantOK(t, p.request(id, "2025-11-25", "tools/list", nil))
	})
}

func TestLegacySessionsEndWhenTheServerStops(t *testing.T) {
	s, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("the stopped server holds no session", func(t *testing.T) {
		if n := s.legacy.sessions.Len(); n != 0 {
			t.Errorf("sessions = %d after Shutdown", n)
		}
	})
	t.Run("the old session ID is no longer found, and no new session can be opened in the stopped store", func(t *testing.T) {
		if _, err := s.legacy.sessions.Get(id, AnonymousPrincipal().ID); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("Get(old session) after Shutdown = %v, want ErrNotFound", err)
		}
		if _, err := s.legacy.sessions.Create(AnonymousPrincipal().ID, "2025-11-25", session.ClientInfo{}, nil); !errors.Is(err, session.ErrClosed) {
			t.Errorf("Create after Shutdown = %v, want ErrClosed", err)
		}
	})
	t.Run("a restarted server does not know the old session: 404 -33001", func(t *testing.T) {
		_, url2 := startLegacyServer(t)
		p2 := newLegacyPeer(t, url2, "")
		wantError(t, p2.request(id, "2025-11-25", "tools/list", nil), http.StatusNotFound, CodeSessionNotFound)
		wantOK(t, p2.request(p2.initialize("2025-11-25"), "2025-11-25", "tools/list", nil))
	})
}

func TestLegacyIdleSessionStillWorksWhileInTheStore(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	// Time does not end a session (backend/mcp/session proves it with a fake clock over days);
	// what changes for an idle client on the wire is its TCP connection, closed after the 30 s
	// idle timeout. The session must not depend on it.
	for i := range 3 {
		t.Run(fmt.Sprintf("after the connection is dropped (%d)", i+1), func(t *testing.T) {
			p.client.CloseIdleConnections()
			wantOK(t, p.request(id, "2025-11-25", "tools/list", nil))
		})
	}
	t.Run("over a brand-new HTTP client", func(t *testing.T) {
		wantOK(t, newLegacyPeer(t, url, "").request(id, "2025-11-25", "ping", nil))
	})
}

func TestLegacyPingAndLoggingSetLevelWork(t *testing.T) {
	s, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	tests := []struct {
		name   string
		method string
		params map[string]any
		code   int
	}{
		{name: "ping answers an empty object", method: "ping"},
		{name: "ping with empty params answers an empty object", method: "ping", params: map[string]any{}},
		{name: "logging/setLevel info answers an empty object", method: "logging/setLevel", params: map[string]any{"level": "info"}},
		{name: "logging/setLevel emergency answers an empty object", method: "logging/setLevel", params: map[string]any{"level": "emergency"}},
		{name: "logging/setLevel with an unknown level is -32602", method: "logging/setLevel", params: map[string]any{"level": "verbose"}, code: CodeInvalidParams},
		{name: "logging/setLevel without a level is -32602", method: "logging/setLevel", params: map[string]any{}, code: CodeInvalidParams},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.request(id, "2025-11-25", tc.method, tc.params)
			if tc.code != 0 {
				wantError(t, r, http.StatusBadRequest, tc.code)
				return
			}
			wantOK(t, r)
			if len(r.result) != 0 {
				t.Errorf("result = %v, want {}", r.result)
			}
		})
	}
	t.Run("the level is kept on the session", func(t *testing.T) {
		got, err := s.legacy.sessions.Get(id, AnonymousPrincipal().ID)
		if err != nil || got.LogLevel != "emergency" {
			t.Errorf("session level = %q (%v), want emergency", got.LogLevel, err)
		}
	})
}

func TestLegacyModernOnlyMethodsAreNotFound(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-06-18")
	for _, method := range []string{"server/discover", "subscriptions/listen", "no/such/method"} {
		for _, session := range []string{id, ""} {
			name := method + " in a session is 404 -32601"
			if session == "" {
				name = method + " without a session is 404 -32601"
			}
			t.Run(name, func(t *testing.T) {
				wantError(t, p.request(session, "2025-06-18", method, nil), http.StatusNotFound, CodeMethodNotFound)
			})
		}
	}
}

func TestLegacyResultsCarryNoResultTypeCacheHintsOrServerInfo(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	tests := []struct {
		method string
		params map[string]any
	}{
		{method: "tools/list"},
		{method: "tools/call", params: map[string]any{"name": "fixture_list", "arguments": map[string]any{}}},
		{method: "resources/list"},
		{method: "resources/templates/list"},
		{method: "prompts/list"},
		{method: "ping"},
	}
	for _, tc := range tests {
		t.Run(tc.method, func(t *testing.T) {
			r := p.request(id, "2025-11-25", tc.method, tc.params)
			wantOK(t, r)
			for _, k := range []string{"resultType", "ttlMs", "cacheScope"} {
				if _, ok := r.result[k]; ok {
					t.Errorf("legacy %s result carries %s: %s", tc.method, k, r.body)
				}
			}
			if meta, ok := r.result["_meta"].(map[string]any); ok {
				if _, ok := meta["io.modelcontextprotocol/serverInfo"]; ok {
					t.Errorf("legacy %s result carries _meta serverInfo", tc.method)
				}
			}
		})
	}
}

func TestRequestWithNoMetaProtocolVersionIsLegacy(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	t.Run("without _meta or a session it is a legacy request: the session is required", func(t *testing.T) {
		wantError(t, p.request("", "", "tools/list", nil), http.StatusBadRequest, CodeInvalidRequest)
	})
	t.Run("with _meta but no protocol version, in a session, it is served as legacy", func(t *testing.T) {
		r := p.request(id, "2025-11-25", "tools/list", map[string]any{"_meta": map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}})
		wantOK(t, r)
		if _, ok := r.result["resultType"]; ok {
			t.Errorf("served as modern: %s", r.body)
		}
	})
}

func TestLegacyNotificationsAreAnswered202(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-11-25")
	tests := []struct {
		name    string
		session string
		method  string
	}{
		{name: "notifications/initialized in the session", session: id, method: "notifications/initialized"},
		{name: "notifications/initialized without a session", method: "notifications/initialized"},
		{name: "notifications/roots/list_changed in the session", session: id, method: "notifications/roots/list_changed"},
		{name: "notifications/cancelled for nothing in flight", session: id, method: "notifications/cancelled"},
		{name: "an unknown notification with an unknown session", session: "gone", method: "notifications/whatever"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.send(tc.session, "2025-11-25", map[string]any{"jsonrpc": "2.0", "method": tc.method, "params": map[string]any{"requestId": 99}})
			if r.status != http.StatusAccepted || len(r.body) != 0 {
				t.Errorf("got HTTP %d %q, want 202 with no body", r.status, r.body)
			}
		})
	}
}

func TestLegacyProtocolVersionHeaderMustMatchTheSession(t *testing.T) {
	_, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	id := p.initialize("2025-06-18")
	tests := []struct {
		name    string
		version string
		status  int
		code    int
	}{
		{name: "the session's version is served", version: "2025-06-18", status: 200},
		{name: "no header is served (the session knows the version)", version: "", status: 200},
		{name: "another legacy version is -32020", version: "2025-11-25", status: 400, code: CodeHeaderMismatch},
		{name: "an unsupported version is -32022", version: "2025-03-26", status: 400, code: CodeUnsupportedVersion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := p.request(id, tc.version, "tools/list", nil)
			if tc.code == 0 {
				wantOK(t, r)
				return
			}
			wantError(t, r, tc.status, tc.code)
		})
	}
}

func TestLegacySessionsAreSafeUnderConcurrentClients(t *testing.T) {
	s, url := startLegacyServer(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			p := newLegacyPeer(t, url, fmt.Sprintf("tok%d", g%3))
			for range 5 {
				r := p.request("", "", "initialize", legacyInitParams("2025-11-25"))
				if r.status != 200 {
					t.Errorf("initialize: HTTP %d", r.status)
					return
				}
				id := r.header.Get("Mcp-Session-Id")
				// A concurrent client may have evicted it already: 200 or 404 -33001, never anything else.
				r = p.request(id, "2025-11-25", "tools/list", nil)
				if r.status != 200 && (r.status != 404 || r.err == nil || r.err.Code != CodeSessionNotFound) {
					t.Errorf("tools/list: HTTP %d %s", r.status, r.body)
				}
			}
		})
	}
	wg.Wait()
	if n := s.legacy.sessions.Len(); n > 16 {
		t.Errorf("sessions = %d > 16", n)
	}
}

func TestLegacyCallsNeverEnableServerToClientRequests(t *testing.T) {
	s, url := startLegacyServer(t)
	p := newLegacyPeer(t, url, "")
	r := p.request("", "", "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities": map[string]any{
			"elicitation":  map[string]any{"form": map[string]any{}},
			"sampling":     map[string]any{},
			"roots":        map[string]any{"listChanged": true},
			"experimental": map[string]any{"x": map[string]any{}},
		},
		"clientInfo": map[string]any{"name": "caps-test", "title": "Caps", "version": "9"},
	})
	wantOK(t, r)
	id := r.header.Get("Mcp-Session-Id")

	// The gate fills the call the handlers see; run it as the transport does.
	call := &Call{Era: EraLegacy, Principal: AnonymousPrincipal(), Method: "tools/call", SessionID: id,
		RequestHeader: http.Header{}, ResponseHeader: http.Header{},
		msg: &wire.Message{ID: json.RawMessage("1"), Method: "tools/call"}}
	if err := s.legacyGate(call); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		capability string
		want       bool
	}{
		{capability: "elicitation"}, // never input_required in the legacy era: the app's dialog decides
		{capability: "sampling"},
		{capability: "roots"},
		{capability: "experimental", want: true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s declared at initialize is seen by handlers: %v", tc.capability, tc.want), func(t *testing.T) {
			if got := call.HasCapability(tc.capability); got != tc.want {
				t.Errorf("HasCapability(%q) = %v", tc.capability, got)
			}
		})
	}
	t.Run("the call knows the client from its session", func(t *testing.T) {
		if call.ClientInfo == nil || call.ClientInfo.Name != "caps-test" || call.ClientInfo.Title != "Caps" || call.ProtocolVersion != "2025-11-25" {
			t.Errorf("ClientInfo = %+v, ProtocolVersion = %q", call.ClientInfo, call.ProtocolVersion)
		}
	})
	t.Run("the session keeps the capabilities the client sent", func(t *testing.T) {
		ss, err := s.legacy.sessions.Get(id, AnonymousPrincipal().ID)
		if err != nil || !strings.Contains(string(ss.Capabilities), "elicitation") {
			t.Errorf("session capabilities = %s (%v)", ss.Capabilities, err)
		}
	})
}
