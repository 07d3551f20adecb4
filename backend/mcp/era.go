package mcp

import (
	"encoding/json"
	"net/http"
)

// detectEra decides the era of one request (ARCHITECTURE.md 5, SPEC.md B
// "Versioning" 4):
//
//   - params._meta carries io.modelcontextprotocol/protocolVersion (any
//     value, even empty or malformed, so it is validated as modern) that is
//     not one of the legacy revisions: modern. A modern request is stateless:
//     an Mcp-Session-Id header on it is ignored, and a modern "initialize"
//     is an unknown method (404 -32601);
//   - method initialize, or an Mcp-Session-Id header: legacy;
//   - no _meta version but an MCP-Protocol-Version header that is neither
//     empty nor a legacy revision: modern (the client speaks the stateless
//     revision and forgot _meta: -32602 follows);
//   - otherwise legacy.
func detectEra(method string, h http.Header, metaVersion json.RawMessage, hasMetaVersion bool) Era {
	if hasMetaVersion {
		var v string
		if json.Unmarshal(metaVersion, &v) == nil && (v == ProtocolVersion20251125 || v == ProtocolVersion20250618) {
			return EraLegacy
		}
		return EraModern
	}
	if method == "initialize" || len(h.Values(HeaderSessionID)) > 0 {
		return EraLegacy
	}
	hv := h.Get(HeaderProtocolVersion)
	if hv != "" && hv != ProtocolVersion20251125 && hv != ProtocolVersion20250618 {
		return EraModern
	}
	return EraLegacy
}
