package mcp

import (
	"app/backend/mcp/internal/wire"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Header names used by the transport.
const (
	HeaderProtocolVersion = "Mcp-Protocol-Version" // canonical form of MCP-Protocol-Version
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderParamPrefix     = "Mcp-Param-"
)

// errHeader builds a -32020 header-mismatch error.
func errHeader(msg string) *Error { return NewError(CodeHeaderMismatch, "header mismatch: "+msg, nil) }

// checkContentType accepts application/json or any +json type
// (SPEC.md B "Required headers").
func checkContentType(h http.Header) *Error {
	vals := h.Values("Content-Type")
	if len(vals) != 1 {
		return errHeader("Content-Type must be application/json or a +json type")
	}
	mt, _, err := mime.ParseMediaType(vals[0])
	if err != nil {
		return errHeader("Content-Type is malformed")
	}
	if mt == "application/json" || (strings.HasSuffix(mt, "+json") && strings.Count(mt, "/") == 1 && !strings.HasSuffix(mt, "/+json")) {
		return nil
	}
	return errHeader("Content-Type must be application/json or a +json type")
}

// hasControl reports whether s holds an ASCII control character (including
// TAB and DEL) or a C1 control.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}

// Base64 wrapper markers for non-ASCII header values (SPEC.md B "Non-ASCII
// header values"): exactly "=?base64?" ... "?=", lowercase.
const (
	b64Prefix = "=?base64?"
	b64Suffix = "?="
)

// decodeHeaderValue returns the text a header value stands for. A value that
// starts with the wrapper prefix (in any letter case) is a wrapper and must
// be exactly =?base64?<standard base64 with padding>?= decoding to valid
// UTF-8; anything else is plain printable ASCII. A malformed wrapper, a
// control character (before or after decoding), or a raw non-ASCII byte is
// an error (-32020).
func decodeHeaderValue(v string) (string, bool) {
	if len(v) >= len(b64Prefix) && strings.EqualFold(v[:len(b64Prefix)], b64Prefix) {
		if !strings.HasPrefix(v, b64Prefix) || !strings.HasSuffix(v, b64Suffix) || len(v) < len(b64Prefix)+len(b64Suffix) {
			return "", false
		}
		payload := v[len(b64Prefix) : len(v)-len(b64Suffix)]
		b, err := base64.StdEncoding.Strict().DecodeString(payload)
		if err != nil || !utf8.Valid(b) {
			return "", false
		}
		s := string(b)
		if hasControl(s) {
			return "", false
		}
		return s, true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f {
			return "", false
		}
	}
	return v, true
}

// singleHeader returns the one value of header name. ok is false when the
// header is absent; a repeated header or a control character is an error.
func singleHeader(h http.Header, name string) (string, bool, *Error) {
	vals := h.Values(name)
	switch len(vals) {
	case 0:
		return "", false, nil
	case 1:
	default:
		return "", true, errHeader(name + " is sent more than once")
	}
	if hasControl(vals[0]) {
		return "", true, errHeader(name + " holds a control character")
	}
	return vals[0], true, nil
}

// checkModernHeaders verifies that the header copies agree with the body
// (SPEC.md B "Required headers (modern era)"): MCP-Protocol-Version equals
// the _meta version, Mcp-Method the method, Mcp-Name the name or uri for
// tools/call, prompts/get and resources/read, and each Mcp-Param-<field>
// that is sent matches its body value. Any mismatch, a missing required
// header, a malformed base64 wrapper or a control character is -32020.
func checkModernHeaders(h http.Header, req *wire.Message, version string) *Error {
	// Control characters anywhere in the MCP headers.
	for k, vals := range h {
		if strings.HasPrefix(k, "Mcp-") {
			for _, v := range vals {
				if hasControl(v) {
					return errHeader(k + " holds a control character")
				}
			}
		}
	}
	pv, ok, err := singleHeader(h, HeaderProtocolVersion)
	if err != nil {
		return err
	}
	if !ok {
		return errHeader("MCP-Protocol-Version is required")
	}
	if pv != version {
		return errHeader("MCP-Protocol-Version does not match _meta." + MetaProtocolVersion)
	}
	m, ok, err := singleHeader(h, HeaderMethod)
	if err != nil {
		return err
	}
	if !ok {
		return errHeader("Mcp-Method is required")
	}
	if m != req.Method {
		return errHeader("Mcp-Method does not match the JSON-RPC method")
	}
	if field := nameField(req.Method); field != "" {
		raw, ok, err := singleHeader(h, HeaderName)
		if err != nil {
			return err
		}
		if !ok {
			return errHeader("Mcp-Name is required for " + req.Method)
		}
		name, good := decodeHeaderValue(raw)
		if !good {
			return errHeader("Mcp-Name is malformed")
		}
		v, _ := req.Param(field)
		if body, ok := wire.RawString(v); !ok || body != name {
			return errHeader("Mcp-Name does not match params." + field)
		}
	}
	return checkParamHeaders(h, req)
}

// nameField is the params member Mcp-Name mirrors, or "".
func nameField(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read":
		return "uri"
	}
	return ""
}

// checkParamHeaders validates every Mcp-Param-<field> header that was sent.
func checkParamHeaders(h http.Header, req *wire.Message) *Error {
	var idx *fieldIndex
	for k, vals := range h {
		if len(k) <= len(HeaderParamPrefix) || !strings.EqualFold(k[:len(HeaderParamPrefix)], HeaderParamPrefix) {
			continue
		}
		field := k[len(HeaderParamPrefix):]
		if len(vals) != 1 {
			return errHeader(k + " is sent more than once")
		}
		val, ok := decodeHeaderValue(vals[0])
		if !ok {
			return errHeader(k + " is malformed")
		}
		if idx == nil {
			idx = indexFields(paramScope(req))
		}
		if !idx.matches(field, val) {
			return errHeader(k + " does not match the body")
		}
	}
	return nil
}

// paramScope is the object Mcp-Param fields are looked up in: arguments for
// tools/call, params for every other method.
func paramScope(req *wire.Message) json.RawMessage {
	if req.Method == "tools/call" {
		if a, ok := req.Param("arguments"); ok {
			return a
		}
		return nil
	}
	return req.Params
}

// fieldIndex maps a lower-cased member name to the values found for it at
// the shallowest depth where that name occurs (breadth-first descent into
// nested objects, never into arrays). Built once per request, so many
// Mcp-Param headers cost one walk of the body.
type fieldIndex struct {
	vals map[string][]json.RawMessage
}

// maxFieldDepth bounds the descent into nested objects.
const maxFieldDepth = 32

func indexFields(obj json.RawMessage) *fieldIndex {
	idx := &fieldIndex{vals: map[string][]json.RawMessage{}}
	if len(obj) == 0 || obj[0] != '{' {
		return idx
	}
	level := []json.RawMessage{obj}
	for depth := 0; depth < maxFieldDepth && len(level) > 0; depth++ {
		found := map[string][]json.RawMessage{}
		var next []json.RawMessage
		for _, o := range level {
			members, err := wire.ObjectMembers(o)
			if err != nil {
				continue
			}
			for k, v := range members {
				lk := strings.ToLower(k)
				if _, seen := idx.vals[lk]; !seen {
					found[lk] = append(found[lk], v)
				}
				if v[0] == '{' {
					next = append(next, v)
				}
			}
		}
		for k, v := range found {
			idx.vals[k] = v
		}
		level = next
	}
	return idx
}

// matches reports whether the header value matches every body value the
// field name resolves to (at least one must exist).
func (f *fieldIndex) matches(field, header string) bool {
	vals := f.vals[strings.ToLower(field)]
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !paramValueMatches(header, v) {
			return false
		}
	}
	return true
}

// paramValueMatches applies the Mcp-Param matching rules (SPEC.md B):
// strings compare as text, numbers numerically, booleans as true/false; an
// array, an object or null never matches.
func paramValueMatches(header string, body json.RawMessage) bool {
	if len(body) == 0 {
		return false
	}
	switch c := body[0]; {
	case c == '"':
		var s string
		return json.Unmarshal(body, &s) == nil && s == header
	case c == 't':
		return header == "true" && string(body) == "true"
	case c == 'f':
		return header == "false" && string(body) == "false"
	case c == '-' || (c >= '0' && c <= '9'):
		a, ok1 := wire.CanonicalNumber(header)
		b, ok2 := wire.CanonicalNumber(string(body))
		return ok1 && ok2 && a == b
	}
	return false
}
