package mcp

import (
	"fmt"
	"testing"
)

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
