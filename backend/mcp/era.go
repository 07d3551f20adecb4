package mcp

import (
	"encoding/json"
	"net/http"
)

// Era is the protocol era a request is served in (SPEC.md B "Versioning").
type Era uint8

const (
	// EraModern is the stateless 2026-07-28 revision: every request carries
	// its protocol version and client capabilities in params._meta.
	EraModern Era = 1 << iota
	// EraLegacy covers 2025-11-25 and 2025-06-18: initialize handshake and
	// Mcp-Session-Id sessions.
	EraLegacy
	// EraBoth is a dispatch-table flag: the method is served in both eras.
	EraBoth = EraModern | EraLegacy
)

func (e Era) String() string {
	switch e {
	case EraModern:
		return "modern"
	case EraLegacy:
		return "legacy"
	case EraBoth:
		return "both"
	}
	return "unknown"
}

// Protocol versions (SPEC.md B "Versioning").
const (
	// ProtocolVersion is the current, stateless revision.
	ProtocolVersion = "2026-07-28"
	// ProtocolVersion20251125 is a legacy revision served with sessions.
	ProtocolVersion20251125 = "2025-11-25"
	// ProtocolVersion20250618 is a legacy revision served with sessions.
	ProtocolVersion20250618 = "2025-06-18"
)

// SupportedVersions is the live list reported in server/discover
// supportedVersions and in -32022 data.supported, newest first.
func SupportedVersions() []string {
	return []string{ProtocolVersion, ProtocolVersion20251125, ProtocolVersion20250618}
}

// LegacyVersions are the revisions a legacy initialize accepts.
func LegacyVersions() []string { return []string{ProtocolVersion20251125, ProtocolVersion20250618} }

// isLegacyVersion is the one answer to "is this a legacy revision".
func isLegacyVersion(v string) bool {
	return v == ProtocolVersion20251125 || v == ProtocolVersion20250618
}

// isSupportedVersion reports whether v is any served revision.
func isSupportedVersion(v string) bool { return v == ProtocolVersion || isLegacyVersion(v) }

// errUnsupportedVersion is the one -32022 answer (SPEC.md B "Versioning" 3):
// data.supported is the live list, data.requested what the client asked for.
func errUnsupportedVersion(requested string) *Error {
	return NewError(CodeUnsupportedVersion, "unsupported protocol version",
		map[string]any{"supported": SupportedVersions(), "requested": requested})
}

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
		if json.Unmarshal(metaVersion, &v) == nil && isLegacyVersion(v) {
			return EraLegacy
		}
		return EraModern
	}
	if method == "initialize" || len(h.Values(HeaderSessionID)) > 0 {
		return EraLegacy
	}
	if hv := h.Get(HeaderProtocolVersion); hv != "" && !isLegacyVersion(hv) {
		return EraModern
	}
	return EraLegacy
}
