package mcp

import (
	"encoding/json"
	"sync"

	"app/backend/mcp/internal/wire"
)

// shapedResult is a result already shaped for its era and encoded; the
// transport writes it as is. Handlers of cacheable lists return it from
// shapeCache so the hot path does no shaping or encoding.
type shapedResult json.RawMessage

func (r shapedResult) raw() json.RawMessage { return json.RawMessage(r) }

// cacheKey names everything a shaped list page depends on. version is the
// version of the registry the page was built from (resources change at run
// time; tools and prompts are fixed at NewServer), so a change to the
// registry makes every older page unreachable instead of stale.
type cacheKey struct {
	method    string
	era       Era
	principal string
	// variant is what else of the principal changes the page (for
	// tools/list: which of the tools' own scopes it holds).
	variant string
	version uint64
	offset  int
}

// shapeCache memoizes shaped, encoded results. It is bounded: when full it
// starts over.
type shapeCache struct {
	mu sync.RWMutex
	m  map[cacheKey]shapedResult
}

const shapeCacheMax = 1024

func (c *shapeCache) get(key cacheKey) (shapedResult, bool) {
	c.mu.RLock()
	v, ok := c.m[key]
	c.mu.RUnlock()
	return v, ok
}

func (c *shapeCache) put(key cacheKey, v shapedResult) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= shapeCacheMax {
		c.m = make(map[cacheKey]shapedResult, 16)
	}
	c.m[key] = v
	c.mu.Unlock()
}

// shapedOnce returns the cached shaped result for key, building, shaping and
// encoding it on a miss.
func (s *Server) shapedOnce(call *Call, key cacheKey, build func() (any, *Error)) (any, error) {
	if v, ok := s.shapes.get(key); ok {
		return v, nil
	}
	res, e := build()
	if e != nil {
		return nil, e
	}
	shaped, err := s.shapeResult(call.Era, call.Method, call.mi, res)
	if err != nil {
		return nil, err
	}
	b, err := wire.AppendJSON(nil, shaped)
	if err != nil {
		return nil, err
	}
	v := shapedResult(b)
	s.shapes.put(key, v)
	return v, nil
}
