package mcp

import (
	"context"
	"encoding/json"
)

// Handler is the shape of every method handler: a plain function of the
// request context (see CallFrom) and the raw params object, returning a
// result (any JSON-marshalable object, usually map[string]any) or an error.
// A *Error is sent as the JSON-RPC error; any other error becomes -32603.
// Handlers never add resultType, serverInfo or cache hints: shapeResult
// does that for the era in one place.
type Handler func(ctx context.Context, params json.RawMessage) (any, error)

// methodHandler is a Handler bound to the server at dispatch time.
type methodHandler func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// methodInfo is one row of the dispatch table.
type methodInfo struct {
	// Era says in which eras the method exists (SPEC.md B "Methods").
	Era Era
	// Scopes the principal needs. tools/call additionally needs the tool's
	// own scope, checked by the tools/call handler.
	Scopes []string
	// Cacheable marks the six methods that carry ttlMs/cacheScope.
	Cacheable bool
	// TTLMs and CacheScope are the spec's hint values. For resources/read
	// the handler may choose ttlMs in [MinResourceTTLMs, MaxResourceTTLMs];
	// TTLMs is its default.
	TTLMs      int64
	CacheScope string
	// Paginated list methods page at PageSize with method-bound cursors.
	Paginated bool
	// Long-lived streams get no handler deadline (subscriptions/listen).
	LongLived bool
	// Inline handlers only read in-memory state and cannot block; they run
	// on the connection's goroutine without deadline or cancellation
	// bookkeeping, so nothing else writes the response while they set its
	// headers (initialize sets Mcp-Session-Id). With a progress token their
	// answer is still a one-frame event stream.
	Inline bool
	// Handler serves the method.
	Handler methodHandler
}

// Cache-hint values (SPEC.md B "Cache hints").
const (
	MinResourceTTLMs = 5000
	MaxResourceTTLMs = 300000
	// PageSize is the number of items per list page.
	PageSize = 50
)

// methodTable is the one dispatch table: method -> handler and flags. It is
// complete against the spec's method list (TestMethodTableMatchesSpec).
// initialize, ping and logging/setLevel are legacy-only; their handlers live
// in legacy.go.
var methodTable = map[string]*methodInfo{
	"server/discover": {Era: EraModern, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Handler: (*Server).handleDiscover},
	"tools/list": {Era: EraBoth, Scopes: []string{ScopeToolsRead}, Cacheable: true, TTLMs: 300000, CacheScope: "private",
		Inline: true, Paginated: true, Handler: (*Server).handleToolsList},
	"tools/call": {Era: EraBoth, Scopes: []string{ScopeToolsRead},
		Handler: (*Server).handleToolsCall},
	"resources/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 30000, CacheScope: "private",
		Inline: true, Paginated: true, Handler: (*Server).handleResourcesList},
	"resources/read": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 60000, CacheScope: "private",
		Handler: (*Server).handleResourcesRead},
	"resources/templates/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Paginated: true, Handler: (*Server).handleResourceTemplatesList},
	"prompts/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Paginated: true, Handler: (*Server).handlePromptsList},
	"prompts/get": {Era: EraBoth, Scopes: []string{ScopeResourcesRead},
		Handler: (*Server).handlePromptsGet},
	"completion/complete": {Era: EraBoth, Scopes: []string{ScopeResourcesRead},
		Handler: (*Server).handleComplete},
	"subscriptions/listen": {Era: EraModern, LongLived: true,
		Handler: (*Server).handleSubscriptionsListen},
	"initialize":       {Era: EraLegacy, Inline: true, Handler: (*Server).legacyInitialize},
	"ping":             {Era: EraLegacy, Inline: true, Handler: (*Server).legacyPing},
	"logging/setLevel": {Era: EraLegacy, Inline: true, Handler: (*Server).legacySetLevel},
}

// lookupMethod returns the table row for method in era, or nil when the
// method is unknown or does not exist in that era (both give 404 -32601).
func lookupMethod(method string, era Era) *methodInfo {
	mi := methodTable[method]
	if mi == nil || mi.Era&era == 0 {
		return nil
	}
	return mi
}
