package mcp

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

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
