package mcp

import (
	"encoding/json"
)

// Result field names shaped by era.
const (
	fieldResultType = "resultType"
	fieldTTL        = "ttlMs"
	fieldCacheScope = "cacheScope"
	fieldMeta       = "_meta"
	metaServerInfo  = "io.modelcontextprotocol/serverInfo"

	// ResultComplete and ResultInputRequired are the two resultType values.
	ResultComplete      = "complete"
	ResultInputRequired = "input_required"
)

// toObject turns a handler result into a fresh, mutable JSON object.
// A map[string]any is shallow-copied (handlers may return shared maps);
// anything else goes through JSON.
func toObject(res any) (map[string]any, error) {
	switch v := res.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		out := make(map[string]any, len(v)+4)
		for k, x := range v {
			out[k] = x
		}
		return out, nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(raw)+4)
	for k, x := range raw {
		out[k] = x
	}
	return out, nil
}

// metaObject returns the result's _meta as a fresh mutable map.
func metaObject(v any) map[string]any {
	switch m := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(m)+1)
		for k, x := range m {
			out[k] = x
		}
		return out
	case json.RawMessage:
		var raw map[string]json.RawMessage
		if json.Unmarshal(m, &raw) == nil {
			out := make(map[string]any, len(raw)+1)
			for k, x := range raw {
				out[k] = x
			}
			return out
		}
	}
	return map[string]any{}
}

// shapeResult is the one place results are shaped by era (SPEC.md B
// "Result envelope", "Cache hints"):
//
//   - modern: resultType (default complete), _meta serverInfo {name,
//     version}, and ttlMs/cacheScope only on the six cacheable methods and
//     only on complete results; a hint on any other result is removed.
//   - legacy: none of resultType, cache hints or serverInfo.
//
// server/discover adds title and websiteUrl to serverInfo.
func (s *Server) shapeResult(era Era, method string, mi *methodInfo, res any) (map[string]any, error) {
	out, err := toObject(res)
	if err != nil {
		return nil, err
	}
	if era != EraModern {
		shapeLegacy(out)
		return out, nil
	}

	rt, _ := out[fieldResultType].(string)
	if rt != ResultInputRequired {
		rt = ResultComplete
	}
	out[fieldResultType] = rt

	meta := metaObject(out[fieldMeta])
	if method == "server/discover" {
		meta[metaServerInfo] = s.discoverServerInfo
	} else {
		meta[metaServerInfo] = s.serverInfo
	}
	out[fieldMeta] = meta

	if mi != nil && mi.Cacheable && rt == ResultComplete {
		ttl := mi.TTLMs
		if method == "resources/read" {
			if v, ok := numberOf(out[fieldTTL]); ok {
				ttl = min(max(int64(v), MinResourceTTLMs), MaxResourceTTLMs)
			}
		}
		out[fieldTTL] = ttl
		out[fieldCacheScope] = mi.CacheScope
	} else {
		delete(out, fieldTTL)
		delete(out, fieldCacheScope)
	}
	return out, nil
}

// shapeLegacy removes from a result object what legacy results never carry: resultType,
// the cache hints and _meta's serverInfo (an _meta left empty goes too). shapeResult and
// LegacyResult (the stdio bridge's shaping of a forwarded result) both shape with it.
func shapeLegacy(out map[string]any) {
	delete(out, fieldResultType)
	delete(out, fieldTTL)
	delete(out, fieldCacheScope)
	if m, ok := out[fieldMeta]; ok {
		meta := metaObject(m)
		delete(meta, metaServerInfo)
		if len(meta) == 0 {
			delete(out, fieldMeta)
		} else {
			out[fieldMeta] = meta
		}
	}
}

func numberOf(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case json.RawMessage:
		var f float64
		if json.Unmarshal(n, &f) == nil {
			return f, true
		}
	}
	return 0, false
}

// neverCache marks a shaped result as not cacheable: a call that carried requestState or
// inputResponses is never cached (SPEC.md B "States and transitions"), so a cache hint its
// method would carry becomes ttlMs 0 ("do not cache").
func neverCache(shaped map[string]any) {
	if _, ok := shaped[fieldTTL]; ok {
		shaped[fieldTTL] = int64(0)
	}
}
