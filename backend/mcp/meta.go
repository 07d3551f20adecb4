package mcp

import (
	"app/backend/mcp/internal/wire"
	"encoding/json"
)

// _meta keys of the modern request envelope (SPEC.md B "Request envelope").
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaProgressToken      = "progressToken"
)

// traceKeys are W3C trace context keys, passed through untouched.
var traceKeys = []string{"traceparent", "tracestate", "baggage"}

// requestMeta is the decoded params._meta of one request.
type requestMeta struct {
	present bool
	members map[string]json.RawMessage

	hasVersion bool
	rawVersion json.RawMessage
}

// readMeta extracts params._meta. A present but non-object _meta is returned
// as an error (-32602).
func readMeta(req *wire.Message) (requestMeta, *Error) {
	var m requestMeta
	raw, ok := req.Param("_meta")
	if !ok {
		return m, nil
	}
	if raw[0] != '{' {
		return m, NewError(CodeInvalidParams, "invalid params: _meta must be an object", nil)
	}
	members, err := wire.ObjectMembers(raw)
	if err != nil {
		return m, NewError(CodeInvalidParams, "invalid params: _meta: "+err.Error(), nil)
	}
	m.present, m.members = true, members
	m.rawVersion, m.hasVersion = members[MetaProtocolVersion]
	return m, nil
}

// modernMeta is the validated _meta of a modern request.
type modernMeta struct {
	Version       string
	Capabilities  map[string]json.RawMessage
	ClientInfo    *ClientInfo
	ProgressToken json.RawMessage
	Trace         map[string]json.RawMessage
}

// validateModernMeta applies the _meta rules of the modern envelope
// (SPEC.md B "Request envelope"): a protocol version string is required
// (missing or empty: -32602), clientCapabilities must be an object ({} is
// valid, anything else -32602), clientInfo is optional but must be an object
// when sent, progressToken is a string or an integer, and trace keys pass
// through untouched. Whether the version is supported is checked later,
// after the header agreement (-32022).
func validateModernMeta(m requestMeta) (modernMeta, *Error) {
	var out modernMeta
	if !m.present {
		return out, NewError(CodeInvalidParams, "invalid params: params._meta is required", nil)
	}
	if !m.hasVersion {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaProtocolVersion+" is required", nil)
	}
	var ok bool
	if out.Version, ok = wire.RawString(m.rawVersion); !ok {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaProtocolVersion+" must be a string", nil)
	}
	if out.Version == "" {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaProtocolVersion+" must not be empty", nil)
	}
	caps, ok := m.members[MetaClientCapabilities]
	if !ok {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaClientCapabilities+" is required", nil)
	}
	if caps[0] != '{' {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaClientCapabilities+" must be an object", nil)
	}
	capMembers, err := wire.ObjectMembers(caps)
	if err != nil {
		return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaClientCapabilities+": "+err.Error(), nil)
	}
	out.Capabilities = capMembers
	if ci, ok := m.members[MetaClientInfo]; ok {
		members, err := wire.ObjectMembers(ci)
		if err != nil {
			return out, NewError(CodeInvalidParams, "invalid params: _meta."+MetaClientInfo+" must be an object", nil)
		}
		info := &ClientInfo{}
		info.Name, _ = wire.RawString(members["name"])
		info.Title, _ = wire.RawString(members["title"])
		info.Version, _ = wire.RawString(members["version"])
		out.ClientInfo = info
	}
	if pt, ok := m.members[MetaProgressToken]; ok {
		if !validProgressToken(pt) {
			return out, NewError(CodeInvalidParams, "invalid params: _meta.progressToken must be a string or an integer", nil)
		}
		out.ProgressToken = pt
	}
	for _, k := range traceKeys {
		if v, ok := m.members[k]; ok {
			if out.Trace == nil {
				out.Trace = make(map[string]json.RawMessage, 3)
			}
			out.Trace[k] = v
		}
	}
	return out, nil
}

// validProgressToken: a JSON string, or a JSON integer (no fraction or
// exponent).
func validProgressToken(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	i := 0
	if raw[0] == '-' {
		i = 1
	}
	if i >= len(raw) {
		return false
	}
	for ; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return false
		}
	}
	return true
}
