package mcp

// This file is the seam for the legacy eras (2025-11-25, 2025-06-18).
// It belongs to the engineer implementing legacy sessions, who replaces the
// minimal bodies below (and may add legacy*.go / session*.go files and the
// backend/mcp/session package). The transport and the dispatch table call
// exactly these functions; keep their signatures.
//
// When is a request legacy? detectEra (era.go) decides, per request:
// method "initialize", or an Mcp-Session-Id header, or no
// io.modelcontextprotocol/protocolVersion in params._meta (and no modern
// MCP-Protocol-Version header) => EraLegacy.
//
// Order for a legacy request: limits -> Host/Origin -> Authenticator ->
// envelope decode -> detectEra -> legacyGate -> (notification: 202) ->
// dispatch table lookup (modern-only methods give 404 -32601) -> scope check
// -> handler -> shapeResult(EraLegacy) (removes resultType, cache hints and
// serverInfo) -> JSON response.

import (
	"context"
	"encoding/json"
)

// legacyState holds legacy-era server state (the session store). The
// transport creates it once with newLegacyState and calls close on Shutdown.
type legacyState struct{}

// newLegacyState is called once by NewServer.
func newLegacyState(s *Server) *legacyState { return &legacyState{} }

// close is called once by (*Server).Shutdown; sessions are gone afterwards.
func (l *legacyState) close() {}

// legacyGate is called for every legacy-era message (requests and
// notifications) after authentication and envelope decoding, before the
// dispatch table.
//
// It receives:
//   - ctx: the request context; CallFrom(ctx) is the *Call with Era,
//     Principal, Method, ID, SessionID (the Mcp-Session-Id header),
//     ProtocolVersion (the MCP-Protocol-Version header value, may be empty),
//     RequestHeader and ResponseHeader (add response headers there).
//   - req: the decoded JSON-RPC envelope (Params is the raw params object).
//
// It must return nil to let the message continue to dispatch, or an error to
// answer with instead: a *Error from the code table (for example
// NewError(CodeSessionNotFound, "", nil) -> HTTP 404, or -33001 for a session
// owned by another principal). Any other error is answered -32603. It may
// also fill Call.ClientCapabilities from the session so capability checks
// work in the legacy era.
func (s *Server) legacyGate(ctx context.Context, req *Request) error { return nil }

// legacyInitialize serves "initialize" (legacy only). params is the raw
// initialize params ({protocolVersion, capabilities, clientInfo}). It must
// return the initialize result ({protocolVersion, capabilities, serverInfo,
// instructions}); use s.capabilities(EraLegacy), s.serverInfo and
// Instructions(). To issue a session, set
// CallFrom(ctx).ResponseHeader.Set(HeaderSessionID, id). A protocolVersion
// other than 2025-11-25 / 2025-06-18 must give -32022 with data.supported.
func (s *Server) legacyInitialize(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, NewError(CodeInvalidParams, "invalid initialize params", nil)
	}
	if p.ProtocolVersion != ProtocolVersion20251125 && p.ProtocolVersion != ProtocolVersion20250618 {
		return nil, NewError(CodeUnsupportedVersion, "unsupported protocol version",
			map[string]any{"supported": LegacyVersions()})
	}
	return map[string]any{
		"protocolVersion": p.ProtocolVersion,
		"capabilities":    s.capabilities(EraLegacy),
		"serverInfo":      s.serverInfo,
		"instructions":    Instructions(),
	}, nil
}

// legacyPing serves "ping" (legacy only): returns an empty result.
func (s *Server) legacyPing(ctx context.Context, params json.RawMessage) (any, error) {
	return map[string]any{}, nil
}

// legacySetLevel serves "logging/setLevel" (legacy only): returns an empty
// result once the level is accepted.
func (s *Server) legacySetLevel(ctx context.Context, params json.RawMessage) (any, error) {
	return map[string]any{}, nil
}
