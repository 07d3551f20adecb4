package mcp

import (
	"fmt"
	"testing"
)

// The shaped-list cache: a page is found again only under the same key (era,
// principal, variant, registry version, offset), and the cache is bounded.
func TestShapeCache(t *testing.T) {
	var c shapeCache
	k := cacheKey{method: "resources/list", era: EraModern, principal: "p", version: 1}
	c.put(k, shapedResult(`{"a":1}`))
	for name, other := range map[string]cacheKey{
		"another registry version": {method: k.method, era: k.era, principal: k.principal, version: 2},
		"another principal":        {method: k.method, era: k.era, principal: "q", version: 1},
		"another era":              {method: k.method, era: EraLegacy, principal: k.principal, version: 1},
		"another page":             {method: k.method, era: k.era, principal: k.principal, version: 1, offset: 50},
	} {
		t.Run(name+" misses", func(t *testing.T) {
			if _, ok := c.get(other); ok {
				t.Fatal("hit")
			}
		})
	}
	t.Run("the same key hits", func(t *testing.T) {
		if v, ok := c.get(k); !ok || string(v) != `{"a":1}` {
			t.Fatal("miss")
		}
	})
	t.Run("the cache never holds more than its bound", func(t *testing.T) {
		for i := 0; i < 3*shapeCacheMax; i++ {
			c.put(cacheKey{method: fmt.Sprint(i)}, shapedResult("{}"))
		}
		c.mu.RLock()
		n := len(c.m)
		c.mu.RUnlock()
		if n > shapeCacheMax {
			t.Fatalf("%d entries", n)
		}
	})
}
