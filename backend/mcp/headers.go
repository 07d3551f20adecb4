package mcp

import (
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
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
func checkModernHeaders(h http.Header, req *Request, version string) *Error {
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
		if body, ok := rawString(v); !ok || body != name {
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
func checkParamHeaders(h http.Header, req *Request) *Error {
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
func paramScope(req *Request) json.RawMessage {
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
			members, err := objectMembers(o)
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
		a, ok1 := canonicalNumber(header)
		b, ok2 := canonicalNumber(string(body))
		return ok1 && ok2 && a == b
	}
	return false
}

// canonicalNumber turns a JSON-grammar number into a canonical text
// (sign, significant digits, exponent) so that 1, 1.0, 10e-1 and 0.1e1 all
// compare equal, exactly and without floating-point rounding or big-number
// blowups. It reports false for text that is not a JSON number.
func canonicalNumber(s string) (string, bool) {
	i, n := 0, len(s)
	neg := false
	if i < n && s[i] == '-' {
		neg = true
		i++
	}
	startInt := i
	switch {
	case i < n && s[i] == '0':
		i++
	case i < n && s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i == startInt {
		return "", false
	}
	intPart := s[startInt:i]
	frac := ""
	if i < n && s[i] == '.' {
		i++
		fs := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == fs {
			return "", false
		}
		frac = s[fs:i]
	}
	var exp int64
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		es := i
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		ds := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == ds {
			return "", false
		}
		digits := strings.TrimLeft(s[ds:i], "0")
		if len(digits) > 15 {
			return "", false // exponents beyond 1e15 are not numbers anyone sends
		}
		if digits != "" {
			v, err := strconv.ParseInt(digits, 10, 64)
			if err != nil {
				return "", false
			}
			exp = v
		}
		if s[es] == '-' {
			exp = -exp
		}
	}
	if i != n {
		return "", false
	}
	digits := intPart + frac
	exp -= int64(len(frac))
	lead := strings.TrimLeft(digits, "0")
	if lead == "" {
		return "0", true // -0 == 0
	}
	trail := strings.TrimRight(lead, "0")
	exp += int64(len(lead) - len(trail))
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + trail + "e" + strconv.FormatInt(exp, 10), true
}
