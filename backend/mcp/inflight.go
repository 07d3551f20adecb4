package mcp

import (
	"app/backend/mcp/internal/wire"

	"context"
	"encoding/json"
	"sync"
)

// inflightTable indexes running requests by (principal, request id) so
// notifications/cancelled can cancel them; a principal can cancel only its
// own requests (SPEC.md B "Authentication" 2).
type inflightTable struct {
	mu sync.Mutex
	m  map[inflightKey]map[*inflightEntry]struct{}
}

type inflightKey struct {
	principal string
	id        string
}

type inflightEntry struct {
	cancel context.CancelCauseFunc
}

func newInflightTable() *inflightTable {
	return &inflightTable{m: map[inflightKey]map[*inflightEntry]struct{}{}}
}

// canonicalID renders a JSON-RPC id so that equal ids compare equal: strings
// by their text, numbers numerically.
func canonicalID(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s:" + s, true
	}
	n, ok := wire.CanonicalNumber(string(raw))
	if !ok {
		return "", false
	}
	return "n:" + n, true
}

// add registers a running request and returns its removal function.
func (t *inflightTable) add(principal string, id json.RawMessage, cancel context.CancelCauseFunc) func() {
	cid, ok := canonicalID(id)
	if !ok {
		return func() {}
	}
	k := inflightKey{principal, cid}
	e := &inflightEntry{cancel: cancel}
	t.mu.Lock()
	set := t.m[k]
	if set == nil {
		set = map[*inflightEntry]struct{}{}
		t.m[k] = set
	}
	set[e] = struct{}{}
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		delete(set, e)
		if len(set) == 0 && t.m[k] != nil && len(t.m[k]) == 0 {
			delete(t.m, k)
		}
		t.mu.Unlock()
	}
}

// cancel cancels the principal's requests with that id; it reports whether
// any matched.
func (t *inflightTable) cancel(principal string, id json.RawMessage) bool {
	cid, ok := canonicalID(id)
	if !ok {
		return false
	}
	t.mu.Lock()
	set := t.m[inflightKey{principal, cid}]
	entries := make([]*inflightEntry, 0, len(set))
	for e := range set {
		entries = append(entries, e)
	}
	t.mu.Unlock()
	for _, e := range entries {
		e.cancel(errCancelledByClient)
	}
	return len(entries) > 0
}

// cancelPrincipal cancels every request of a principal (token revocation).
func (t *inflightTable) cancelPrincipal(principal string) int {
	t.mu.Lock()
	var entries []*inflightEntry
	for k, set := range t.m {
		if k.principal == principal {
			for e := range set {
				entries = append(entries, e)
			}
		}
	}
	t.mu.Unlock()
	for _, e := range entries {
		e.cancel(errCancelledByClient)
	}
	return len(entries)
}

// CancelPrincipal cancels all in-flight requests of the principal with this
// ID; they end with -33002. It returns how many were cancelled.
func (s *Server) CancelPrincipal(principalID string) int {
	return s.inflight.cancelPrincipal(principalID)
}

// RevokePrincipal is what a revoked token means to the server (SPEC.md B
// "States and transitions"): every in-flight request of the principal ends
// with -33002 and its legacy sessions end (their ids answer -33001). The
// Authenticator refuses the token from then on; this takes back what it
// already let in. It returns how many requests and sessions ended.
func (s *Server) RevokePrincipal(principalID string) (requests, sessions int) {
	requests = s.inflight.cancelPrincipal(principalID)
	sessions = s.legacy.sessions.EndPrincipal(principalID)
	return requests, sessions
}
