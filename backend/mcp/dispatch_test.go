package mcp

import (
	"net/http"
	"reflect"
	"testing"
)

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
