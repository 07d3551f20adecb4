package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

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

// SPEC.md B "Authentication" 3: a token may be limited to some connections;
// nil is every connection.
func TestPrincipalConnectionAllowlist(t *testing.T) {
	all := Principal{ID: "a"}
	some := Principal{ID: "b", Connections: []string{"c1"}}
	none := Principal{ID: "c", Connections: []string{}}
	if !all.MayUse("c1") || !some.MayUse("c1") || some.MayUse("c2") || none.MayUse("c1") {
		t.Fatal("allowlist rule broken")
	}
}
