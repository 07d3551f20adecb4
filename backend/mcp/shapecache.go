package mcp

import (
	"encoding/json"
	"sync"
)

// shapedResult is a result already shaped for its era and encoded; the
// transport writes it as is. Handlers of immutable tables (server/discover,
// tools/list) return it from shapeCache so the hot path does no shaping or
// encoding.
type shapedResult json.RawMessage

// shapeCache memoizes shaped, encoded results by a key that names
// everything the result depends on (era, principal, page, visible scopes).
// It is bounded: when full it starts over.
type shapeCache struct {
	mu sync.RWMutex
	m  map[string]shapedResult
}

const shapeCacheMax = 1024

func (c *shapeCache) get(key string) (shapedResult, bool) {
	c.mu.RLock()
	v, ok := c.m[key]
	c.mu.RUnlock()
	return v, ok
}

func (c *shapeCache) put(key string, v shapedResult) {
	c.mu.Lock()
	if c.m == nil || len(c.m) >= shapeCacheMax {
		c.m = make(map[string]shapedResult, 16)
	}
	c.m[key] = v
	c.mu.Unlock()
}

// shapedOnce returns the cached shaped result for key, building, shaping and
// encoding it on a miss.
func (s *Server) shapedOnce(call *Call, key string, build func() (any, *Error)) (any, error) {
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
	b, err := appendJSON(nil, shaped)
	if err != nil {
		return nil, err
	}
	v := shapedResult(b)
	s.shapes.put(key, v)
	return v, nil
}
