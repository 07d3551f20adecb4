package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
)

// SPEC.md B "Errors": one table maps every code to its HTTP status; the
// -32000 block is never used.
func TestErrorCodeTableMatchesSpec(t *testing.T) {
	spec := map[int]int{
		-32700: 400, -32600: 400, -32601: 404, -32602: 400, -32603: 500,
		-32020: 400, -32021: 400, -32022: 400,
		-33000: 503, -33001: 404, -33002: 200, -33003: 200, -33005: 413,
		-33006: 503, -33007: 403, -33008: 401, -33009: 401, -33010: 429,
	}
	if len(codeTable) != len(spec) {
		t.Fatalf("table has %d codes, spec %d", len(codeTable), len(spec))
	}
	for code, status := range spec {
		t.Run(fmt.Sprintf("%d is HTTP %d", code, status), func(t *testing.T) {
			if got := HTTPStatus(code); got != status {
				t.Fatalf("HTTPStatus = %d", got)
			}
		})
	}
	// The block's only members in the spec's table are the three codes MCP
	// itself assigns there (-32020, -32021, -32022); the implementation-defined
	// server errors (-32000, -32001, ... as SDKs use them) never appear.
	t.Run("the -32000 block is never used", func(t *testing.T) {
		for code := range codeTable {
			if code <= -32000 && code >= -32099 && code != CodeHeaderMismatch && code != CodeMissingCapability && code != CodeUnsupportedVersion {
				t.Fatalf("code %d is in the -32000 block", code)
			}
		}
		defer func() {
			if recover() == nil {
				t.Fatal("NewError(-32000) did not panic")
			}
		}()
		NewError(-32000, "x", nil)
	})
}

// STYLE.md 8: the dispatch table is complete against the spec's method list.
func TestMethodTableMatchesSpec(t *testing.T) {
	spec := []struct {
		method string
		scopes []string
		era    Era
	}{
		{"server/discover", nil, EraModern},
		{"tools/list", []string{ScopeToolsRead}, EraBoth},
		{"tools/call", []string{ScopeToolsRead}, EraBoth},
		{"resources/list", []string{ScopeResourcesRead}, EraBoth},
		{"resources/read", []string{ScopeResourcesRead}, EraBoth},
		{"resources/templates/list", []string{ScopeResourcesRead}, EraBoth},
		{"prompts/list", []string{ScopeResourcesRead}, EraBoth},
		{"prompts/get", []string{ScopeResourcesRead}, EraBoth},
		{"completion/complete", []string{ScopeResourcesRead}, EraBoth},
		{"subscriptions/listen", nil, EraModern},
		{"initialize", nil, EraLegacy},
		{"ping", nil, EraLegacy},
		{"logging/setLevel", nil, EraLegacy},
	}
	if len(methodTable) != len(spec) {
		t.Fatalf("table has %d methods, spec %d", len(methodTable), len(spec))
	}
	for _, m := range spec {
		t.Run(m.method, func(t *testing.T) {
			mi := methodTable[m.method]
			if mi == nil || mi.Handler == nil {
				t.Fatal("missing")
			}
			if mi.Era != m.era || !reflect.DeepEqual(mi.Scopes, m.scopes) {
				t.Fatalf("era %v scopes %v", mi.Era, mi.Scopes)
			}
		})
	}
	cacheable := map[string][2]any{
		"server/discover": {int64(3600000), "public"}, "prompts/list": {int64(3600000), "public"},
		"resources/templates/list": {int64(3600000), "public"}, "tools/list": {int64(300000), "private"},
		"resources/list": {int64(30000), "private"}, "resources/read": {int64(60000), "private"},
	}
	for name, mi := range methodTable {
		want, ok := cacheable[name]
		if mi.Cacheable != ok {
			t.Errorf("%s cacheable = %v", name, mi.Cacheable)
		}
		if ok && (mi.TTLMs != want[0] || mi.CacheScope != want[1]) {
			t.Errorf("%s hint %d %s", name, mi.TTLMs, mi.CacheScope)
		}
	}
	if !methodTable["subscriptions/listen"].LongLived {
		t.Error("subscriptions/listen must be exempt from the handler deadline")
	}
}

// SPEC.md B "Methods" rule 1/2: removed legacy methods and unknown methods
// are 404 -32601 in the modern era.
func TestModernUnknownAndRemovedMethods(t *testing.T) {
	ts := startServer(t, Options{})
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method", "tasks/get"} {
		t.Run(m+" is HTTP 404 with -32601", func(t *testing.T) {
			r := ts.call(t, 500, m, nil)
			if r.status != 404 || r.code() != CodeMethodNotFound || string(r.rpc.ID) != "500" {
				t.Fatalf("status %d code %d id %s", r.status, r.code(), r.rpc.ID)
			}
		})
	}
	t.Run("a modern-only method called by a legacy client is 404 -32601", func(t *testing.T) {
		h := http.Header{"Content-Type": {"application/json"}}
		r := ts.post(t, h, []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`))
		if r.status != 404 || r.code() != CodeMethodNotFound {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
}

// SPEC.md B "server/discover result": exactly the spec's fields and values.
func TestServerDiscover(t *testing.T) {
	ts := startServer(t, Options{Name: "app", Version: "1.2.3", Title: "App", WebsiteURL: "https://app.example"})
	r := ts.call(t, 1, "server/discover", nil)
	if r.status != 200 || r.rpc.Result == nil {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	want := map[string]any{
		"supportedVersions": []any{"2026-07-28", "2025-11-25", "2025-06-18"},
		"capabilities": map[string]any{
			"tools":       map[string]any{"listChanged": false},
			"resources":   map[string]any{"subscribe": true, "listChanged": true},
			"prompts":     map[string]any{"listChanged": false},
			"completions": map[string]any{},
			"extensions":  map[string]any{},
		},
		"instructions": Instructions(),
		"resultType":   "complete",
		"ttlMs":        float64(3600000),
		"cacheScope":   "public",
		"_meta": map[string]any{
			"io.modelcontextprotocol/serverInfo": map[string]any{"name": "app", "version": "1.2.3", "title": "App", "websiteUrl": "https://app.example"},
		},
	}
	if !reflect.DeepEqual(r.rpc.Result, want) {
		got, _ := json.MarshalIndent(r.rpc.Result, "", " ")
		t.Fatalf("server/discover result:\n%s", got)
	}
	t.Run("instructions name list_connections, describe_table and refusals as policy", func(t *testing.T) {
		for _, w := range []string{"list_connections", "describe_table", "policy"} {
			if !strings.Contains(Instructions(), w) {
				t.Fatalf("instructions lack %q", w)
			}
		}
	})
	t.Run("server/discover needs no scope", func(t *testing.T) {
		ts := startServer(t, Options{Authenticator: AuthenticatorFunc(func(*http.Request) (Principal, error) {
			return Principal{ID: "none"}, nil
		})})
		if r := ts.call(t, 1, "server/discover", nil); r.status != 200 {
			t.Fatalf("status %d", r.status)
		}
	})
}

// SPEC.md B "Result envelope" and "Cache hints": resultType and serverInfo on
// every modern result; hints only on the six cacheable methods.
func TestModernResultShape(t *testing.T) {
	ts := startServer(t, Options{Name: "app", Version: "9"})
	cases := []struct {
		method string
		params map[string]any
		ttl    float64
		scope  string
	}{
		{"server/discover", nil, 3600000, "public"},
		{"tools/list", nil, 300000, "private"},
		{"resources/list", nil, 30000, "private"},
		{"resources/templates/list", nil, 3600000, "public"},
		{"prompts/list", nil, 3600000, "public"},
		{"tools/call", map[string]any{"name": "fixture_list", "arguments": map[string]any{}}, 0, ""},
	}
	for _, c := range cases {
		name := c.method + " carries resultType complete, serverInfo"
		if c.scope != "" {
			name += fmt.Sprintf(" and ttlMs %v / cacheScope %s", c.ttl, c.scope)
		} else {
			name += " and no cache hint"
		}
		t.Run(name, func(t *testing.T) {
			r := ts.call(t, 1, c.method, c.params)
			res := r.rpc.Result
			if res["resultType"] != "complete" {
				t.Fatalf("resultType %v", res["resultType"])
			}
			si := res["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
			if si["name"] != "app" || si["version"] != "9" {
				t.Fatalf("serverInfo %v", si)
			}
			if c.method != "server/discover" && len(si) != 2 {
				t.Fatalf("serverInfo outside discover has only name and version: %v", si)
			}
			ttl, hasTTL := res["ttlMs"]
			scope, hasScope := res["cacheScope"]
			if c.scope == "" {
				if hasTTL || hasScope {
					t.Fatalf("hint on %s", c.method)
				}
				return
			}
			if ttl != c.ttl || scope != c.scope {
				t.Fatalf("ttl %v scope %v", ttl, scope)
			}
		})
	}
}

// shapeResult: a hint reaching a result of a non-cacheable method is
// removed; input_required results never carry hints; legacy results carry
// neither resultType, nor hints, nor serverInfo.
func TestShapeResult(t *testing.T) {
	s, err := NewServer(Options{Name: "app", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	withHints := func() map[string]any {
		return map[string]any{"x": 1, "ttlMs": 5, "cacheScope": "public", "resultType": "complete",
			"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": "stale", "keep": true}}
	}
	t.Run("a hint on a non-cacheable method (tools/call) is removed", func(t *testing.T) {
		out, _ := s.shapeResult(EraModern, "tools/call", methodTable["tools/call"], withHints())
		if _, ok := out["ttlMs"]; ok {
			t.Fatal("ttlMs kept")
		}
		if _, ok := out["cacheScope"]; ok {
			t.Fatal("cacheScope kept")
		}
	})
	t.Run("a handler's own hint on tools/list is replaced by the spec's value", func(t *testing.T) {
		out, _ := s.shapeResult(EraModern, "tools/list", methodTable["tools/list"], withHints())
		if out["ttlMs"] != int64(300000) || out["cacheScope"] != "private" {
			t.Fatalf("%v %v", out["ttlMs"], out["cacheScope"])
		}
	})
	t.Run("resources/read ttlMs is kept within 5000..300000", func(t *testing.T) {
		for in, want := range map[int]int64{1: 5000, 60000: 60000, 999999: 300000} {
			out, _ := s.shapeResult(EraModern, "resources/read", methodTable["resources/read"], map[string]any{"ttlMs": in})
			if out["ttlMs"] != want || out["cacheScope"] != "private" {
				t.Fatalf("in %d: %v", in, out["ttlMs"])
			}
		}
	})
	t.Run("an input_required result carries no cache hint", func(t *testing.T) {
		out, _ := s.shapeResult(EraModern, "resources/read", methodTable["resources/read"], map[string]any{"resultType": "input_required", "ttlMs": 9000})
		if _, ok := out["ttlMs"]; ok || out["resultType"] != "input_required" {
			t.Fatalf("%v", out)
		}
	})
	t.Run("legacy results carry neither resultType, nor hints, nor serverInfo", func(t *testing.T) {
		out, _ := s.shapeResult(EraLegacy, "tools/list", methodTable["tools/list"], withHints())
		for _, k := range []string{"resultType", "ttlMs", "cacheScope"} {
			if _, ok := out[k]; ok {
				t.Fatalf("%s kept", k)
			}
		}
		meta := out["_meta"].(map[string]any)
		if _, ok := meta["io.modelcontextprotocol/serverInfo"]; ok || meta["keep"] != true {
			t.Fatalf("meta %v", meta)
		}
	})
	t.Run("shaping never mutates the handler's map", func(t *testing.T) {
		in := withHints()
		_, _ = s.shapeResult(EraLegacy, "tools/list", methodTable["tools/list"], in)
		if in["ttlMs"] != 5 {
			t.Fatal("handler map mutated")
		}
	})
	t.Run("a struct result is shaped too", func(t *testing.T) {
		out, err := s.shapeResult(EraModern, "tools/list", methodTable["tools/list"], struct {
			Tools []string `json:"tools"`
		}{[]string{"a"}})
		if err != nil || out["resultType"] != "complete" || out["tools"] == nil {
			t.Fatalf("%v %v", out, err)
		}
	})
}

// SPEC.md B "Pagination": 50 items per page, opaque nextCursor bound to its
// method; -32602 elsewhere or when tampered.
func TestPagination(t *testing.T) {
	var tools []Tool
	for i := 0; i < 120; i++ {
		tools = append(tools, Tool{Name: fmt.Sprintf("fake_tool_%03d", i), Description: "x", InputSchema: objectSchema(),
			Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return &ToolResult{}, nil }})
	}
	ts := startServer(t, Options{Tools: tools})
	var names []string
	cursor := ""
	pages := 0
	for {
		var params map[string]any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		r := ts.call(t, pages+1, "tools/list", params)
		if r.status != 200 {
			t.Fatalf("page %d: %s", pages, r.body)
		}
		list := r.rpc.Result["tools"].([]any)
		pages++
		for _, it := range list {
			names = append(names, it.(map[string]any)["name"].(string))
		}
		nc, ok := r.rpc.Result["nextCursor"].(string)
		if !ok {
			if len(list) != 21 {
				t.Fatalf("last page has %d items", len(list))
			}
			break
		}
		if len(list) != PageSize {
			t.Fatalf("page %d has %d items, want 50", pages, len(list))
		}
		cursor = nc
	}
	if pages != 3 || len(names) != 121 || !sort.StringsAreSorted(names[1:]) {
		t.Fatalf("pages %d names %d", pages, len(names))
	}
	first := ts.call(t, 1, "tools/list", nil)
	next := first.rpc.Result["nextCursor"].(string)
	bad := []struct {
		name   string
		method string
		cursor any
	}{
		{"a tools/list cursor used on prompts/list is -32602", "prompts/list", next},
		{"a tools/list cursor used on resources/list is -32602", "resources/list", next},
		{"a tampered cursor is -32602", "tools/list", next[:len(next)-2] + "AA"},
		{"a cursor of garbage is -32602", "tools/list", "not-a-cursor"},
		{"a non-string cursor is -32602", "tools/list", 50},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			r := ts.call(t, 1, b.method, map[string]any{"cursor": b.cursor})
			if r.status != 400 || r.code() != CodeInvalidParams {
				t.Fatalf("status %d code %d", r.status, r.code())
			}
		})
	}
	t.Run("a cursor issued to another principal is -32602", func(t *testing.T) {
		other := ts.makeCursor("tools/list", "someone-else", 50)
		if r := ts.call(t, 1, "tools/list", map[string]any{"cursor": other}); r.code() != CodeInvalidParams {
			t.Fatalf("code %d", r.code())
		}
	})
}

// SPEC.md B "Progress streaming": even a method that reports no progress answers a request
// with a progressToken on its own event stream, the final response as its only frame.
func TestRequestWithAProgressTokenIsAnsweredAsAnEventStreamEvenWithoutProgress(t *testing.T) {
	ts := startServer(t, Options{})
	for _, method := range []string{"tools/list", "server/discover"} {
		t.Run(method, func(t *testing.T) {
			meta := validMeta()
			meta[MetaProgressToken] = "tok-" + method
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 5, "method": method, "params": map[string]any{"_meta": meta}})
			r := ts.post(t, modernHeaders(method, nil), b)
			if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("status %d, Content-Type %q, want 200 text/event-stream", r.status, r.header.Get("Content-Type"))
			}
			if len(r.frames) != 1 || r.rpc.Result == nil {
				t.Fatalf("frames = %d, want only the final response: %s", len(r.frames), r.body)
			}
		})
	}
}

// SPEC.md B "Progress streaming".
func TestProgressStreaming(t *testing.T) {
	ts := startServer(t, Options{Tools: []Tool{fakeProgressTool([]float64{0, 0.3, 0.3, 0.2, 1})}})
	params := map[string]any{"name": "fake_progress", "arguments": map[string]any{}}
	body := func(token any) []byte {
		b := map[string]any{"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": map[string]any{
			"name": "fake_progress", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: token},
		}}
		out, _ := json.Marshal(b)
		return out
	}
	r := ts.post(t, modernHeaders("tools/call", params), body("tok-1"))
	if r.header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", r.header.Get("Content-Type"))
	}
	if strings.Contains(string(r.body), "event:") {
		t.Fatal("frames carry an event name")
	}
	var progress []float64
	for i, f := range r.frames {
		var m map[string]any
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatal(err)
		}
		if i == len(r.frames)-1 {
			if m["id"] != float64(42) || m["result"] == nil {
				t.Fatalf("last frame is not the response: %s", f)
			}
			continue
		}
		if m["method"] != "notifications/progress" {
			t.Fatalf("frame %d: %s", i, f)
		}
		p := m["params"].(map[string]any)
		if p["progressToken"] != "tok-1" || p["total"] != float64(1) || p["message"] != "step" {
			t.Fatalf("params %v", p)
		}
		progress = append(progress, p["progress"].(float64))
	}
	t.Run("progress strictly increases; non-advancing updates are dropped", func(t *testing.T) {
		if !reflect.DeepEqual(progress, []float64{0, 0.3, 1}) {
			t.Fatalf("progress %v", progress)
		}
	})
	t.Run("the final JSON-RPC response is the last frame", func(t *testing.T) {
		if r.rpc.Result["resultType"] != "complete" || r.rpc.Result["isError"] != false {
			t.Fatalf("%v", r.rpc.Result)
		}
	})
	t.Run("an integer progressToken is echoed as an integer", func(t *testing.T) {
		r := ts.post(t, modernHeaders("tools/call", params), body(7))
		if !strings.Contains(string(r.frames[0]), `"progressToken":7`) {
			t.Fatalf("%s", r.frames[0])
		}
	})
	t.Run("without a progressToken the response is plain JSON", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", params)
		if r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("content type %q", r.header.Get("Content-Type"))
		}
	})
	t.Run("an error before any progress keeps its status on the stream", func(t *testing.T) {
		p := map[string]any{"name": "nope", "arguments": map[string]any{}}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
			"name": "nope", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: "x"}}})
		r := ts.post(t, modernHeaders("tools/call", p), b)
		if r.status != 400 || r.code() != CodeInvalidParams || len(r.frames) != 1 {
			t.Fatalf("status %d code %d frames %d", r.status, r.code(), len(r.frames))
		}
	})
}

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

// SPEC.md B "Authentication" 3: a missing scope is 403 -33007 with
// data.requiredScopes and WWW-Authenticate: Bearer error="insufficient_scope";
// an Authenticator error is answered with its own status and challenge.
func TestScopesAndAuthenticator(t *testing.T) {
	noScopes := AuthenticatorFunc(func(*http.Request) (Principal, error) { return Principal{ID: "t1"}, nil })
	ts := startServer(t, Options{Authenticator: noScopes, Tools: []Tool{{Name: "fake_write", Description: "w", Scope: "tools:write", Write: true,
		InputSchema: objectSchema(), Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return &ToolResult{}, nil }}}})
	for _, m := range []string{"tools/list", "tools/call", "resources/list", "prompts/list", "completion/complete"} {
		t.Run(m+" without its scope is 403 -33007 with the challenge", func(t *testing.T) {
			r := ts.call(t, 1, m, map[string]any{"name": "fixture_list"})
			if r.status != 403 || r.code() != CodeForbidden || r.header.Get("WWW-Authenticate") != `Bearer error="insufficient_scope"` {
				t.Fatalf("status %d code %d hdr %q", r.status, r.code(), r.header.Get("WWW-Authenticate"))
			}
			if rs, _ := r.rpc.Error.Data["requiredScopes"].([]any); len(rs) != 1 {
				t.Fatalf("data %v", r.rpc.Error.Data)
			}
		})
	}
	t.Run("the anonymous loopback principal has tools:read and resources:read only", func(t *testing.T) {
		p := AnonymousPrincipal()
		if !p.Anonymous || !p.HasScope(ScopeToolsRead) || !p.HasScope(ScopeResourcesRead) || len(p.Scopes) != 2 {
			t.Fatalf("%+v", p)
		}
	})
	anon := startServer(t, Options{Tools: []Tool{{Name: "fake_write", Description: "w", Scope: "tools:write", Write: true,
		InputSchema: objectSchema(), Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return &ToolResult{}, nil }}}})
	t.Run("a tool needing its own scope is not listed to a principal without it", func(t *testing.T) {
		r := anon.call(t, 1, "tools/list", nil)
		if n := len(r.rpc.Result["tools"].([]any)); n != 1 {
			t.Fatalf("%d tools listed", n)
		}
	})
	t.Run("calling a tool without its own scope is 403 -33007", func(t *testing.T) {
		r := anon.call(t, 1, "tools/call", map[string]any{"name": "fake_write", "arguments": map[string]any{}})
		if r.status != 403 || r.code() != CodeForbidden {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
	t.Run("an Authenticator's -33009 is HTTP 401 with its WWW-Authenticate", func(t *testing.T) {
		deny := startServer(t, Options{Authenticator: AuthenticatorFunc(func(*http.Request) (Principal, error) {
			e := NewError(CodeUnauthenticated, "unauthenticated", nil)
			e.Header = http.Header{"Www-Authenticate": {`Bearer realm="App"`}}
			return Principal{}, e
		})})
		r := deny.call(t, 4, "tools/list", nil)
		if r.status != 401 || r.code() != CodeUnauthenticated || r.header.Get("WWW-Authenticate") != `Bearer realm="App"` || string(r.rpc.ID) != "4" {
			t.Fatalf("status %d code %d hdr %q", r.status, r.code(), r.header.Get("WWW-Authenticate"))
		}
	})
}

// tools/call end to end with the fixture tool; unknown tool -32602; tool
// errors are results with isError and "<code>: <message>".
func TestToolsCall(t *testing.T) {
	log := logrus.New()
	log.SetOutput(new(strings.Builder))
	ts := startServer(t, Options{Logger: log, Tools: []Tool{fakeSamplingTool(), {Name: "fake_fail", Description: "fails", InputSchema: objectSchema(),
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) {
			return nil, NewToolError(ToolErrNotConnected, "connection c1 is not open")
		}}}})
	t.Run("a structured result is text content plus structuredContent, isError false, resultType complete", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fixture_list", "arguments": map[string]any{}})
		res := r.rpc.Result
		if res["isError"] != false || res["resultType"] != "complete" {
			t.Fatalf("%v", res)
		}
		sc := res["structuredContent"].(map[string]any)["items"].([]any)
		if len(sc) != 2 || sc[0].(map[string]any)["name"] != "Alpha" || sc[0].(map[string]any)["port"] != float64(8081) {
			t.Fatalf("structuredContent %v", sc)
		}
		content := res["content"].([]any)[0].(map[string]any)
		var fromText map[string]any
		if content["type"] != "text" || json.Unmarshal([]byte(content["text"].(string)), &fromText) != nil || !reflect.DeepEqual(fromText, res["structuredContent"]) {
			t.Fatalf("content %v", content)
		}
	})
	t.Run("tools/list lists only implemented tools, each with a JSON Schema and annotations", func(t *testing.T) {
		r := ts.call(t, 1, "tools/list", nil)
		tools := r.rpc.Result["tools"].([]any)
		first := tools[0].(map[string]any)
		if first["name"] != "fixture_list" || first["inputSchema"].(map[string]any)["type"] != "object" ||
			first["annotations"].(map[string]any)["readOnlyHint"] != true || first["outputSchema"] == nil {
			t.Fatalf("%v", first)
		}
	})
	t.Run("an unknown tool is -32602", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "describe_table", "arguments": map[string]any{}})
		if r.status != 400 || r.code() != CodeInvalidParams {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
	t.Run("unknown arguments are the tool error invalid_argument", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fixture_list", "arguments": map[string]any{"x": 1}})
		text := r.rpc.Result["content"].([]any)[0].(map[string]any)["text"].(string)
		if r.rpc.Result["isError"] != true || !strings.HasPrefix(text, "invalid_argument: ") || r.rpc.Result["resultType"] != "complete" {
			t.Fatalf("%v", r.rpc.Result)
		}
	})
	t.Run("a failing tool is a result with isError and text <code>: <message>", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fake_fail", "arguments": map[string]any{}})
		text := r.rpc.Result["content"].([]any)[0].(map[string]any)["text"].(string)
		if r.status != 200 || r.rpc.Result["isError"] != true || text != "not_connected: connection c1 is not open" {
			t.Fatalf("%d %v", r.status, r.rpc.Result)
		}
	})
	t.Run("a missing client capability is -32021 with data.requiredCapabilities", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fake_needs_sampling", "arguments": map[string]any{}})
		rc, _ := r.rpc.Error.Data["requiredCapabilities"].(map[string]any)
		if r.status != 400 || r.code() != CodeMissingCapability || rc["sampling"] == nil {
			t.Fatalf("status %d body %s", r.status, r.body)
		}
	})
	t.Run("a declared capability is honoured", func(t *testing.T) {
		p := map[string]any{"name": "fake_needs_sampling", "arguments": map[string]any{}}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
			"name": "fake_needs_sampling", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{"sampling": map[string]any{}}}}})
		if r := ts.post(t, modernHeaders("tools/call", p), b); r.rpc.Result["isError"] != false {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("tool error codes are the spec's", func(t *testing.T) {
		for _, c := range []string{"invalid_argument", "not_connected", "not_found", "denied", "timeout", "unsupported", "query_failed", "user_cancelled", "internal_failure"} {
			if NewToolError(c, "m").Code != c {
				t.Fatalf("%s", c)
			}
		}
		if NewToolError("made_up", "m").Code != ToolErrInternalFailure {
			t.Fatal("unknown code kept")
		}
	})
}

// subscriptions/listen: the acknowledgement is the first frame and carries
// the subscription id; the stream is exempt from the handler deadline.
func TestSubscriptionsListen(t *testing.T) {
	ts := startServer(t, Options{})
	p := map[string]any{"notifications": map[string]any{"toolsListChanged": true}}
	r := ts.call(t, 77, "subscriptions/listen", p)
	if r.header.Get("Content-Type") != "text/event-stream" || len(r.frames) != 2 {
		t.Fatalf("%s", r.body)
	}
	var ack map[string]any
	_ = json.Unmarshal(r.frames[0], &ack)
	params := ack["params"].(map[string]any)
	if ack["method"] != "notifications/subscriptions/acknowledged" || params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"] != float64(77) {
		t.Fatalf("%s", r.frames[0])
	}
	if len(params["notifications"].(map[string]any)) != 0 {
		t.Fatalf("agreed to a notification the capabilities do not promise: %v", params)
	}
}

// Resources, prompts and completion are empty tables in this issue: lists
// are empty and every name or URI is unknown (-32602).
func TestEmptyFeatureTables(t *testing.T) {
	ts := startServer(t, Options{})
	for _, m := range []string{"resources/list", "resources/templates/list", "prompts/list"} {
		t.Run(m+" is an empty list", func(t *testing.T) {
			r := ts.call(t, 1, m, nil)
			if r.status != 200 || len(r.rpc.Result) == 0 {
				t.Fatalf("%s", r.body)
			}
		})
	}
	for _, c := range []struct {
		m string
		p map[string]any
	}{
		{"resources/read", map[string]any{"uri": "app://x"}},
		{"prompts/get", map[string]any{"name": "x"}},
		{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "x"}, "argument": map[string]any{"name": "a", "value": ""}}},
	} {
		t.Run(c.m+" of an unknown name is -32602", func(t *testing.T) {
			if r := ts.call(t, 1, c.m, c.p); r.code() != CodeInvalidParams || r.status != 400 {
				t.Fatalf("%s", r.body)
			}
		})
	}
}

// SPEC.md B "Progress streaming": each message is one "data: <json>" frame, even when the
// JSON handed to the stream was indented across lines.
func TestEventStreamFramesStayOneDataLineForIndentedJSON(t *testing.T) {
	rec := httptest.NewRecorder()
	st := newSSEStream(rec)
	if err := st.send([]byte("{\n  \"a\": \"x\\ny\",\r\n  \"b\": [1,\n 2]\n}")); err != nil {
		t.Fatal(err)
	}
	frames := sseFrames(t, rec.Body.Bytes())
	var got struct {
		A string
		B []int
	}
	if len(frames) != 1 || json.Unmarshal(frames[0], &got) != nil || got.A != "x\ny" || len(got.B) != 2 {
		t.Fatalf("frames %q, want one data line with the same JSON value", rec.Body.String())
	}
	if err := st.send([]byte("{\n broken")); err == nil {
		t.Fatal("invalid JSON with a line break was written as a frame")
	}
}
