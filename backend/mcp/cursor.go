package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"strings"
)

// Cursors are opaque to clients and bound to the method (and principal) that
// issued them (SPEC.md B "Pagination"): base64url(method NUL principal NUL
// offset) "." base64url(HMAC-SHA256 truncated to 16 bytes). A cursor that was
// tampered with, issued for another method or another principal is -32602.

const cursorMACLen = 16

func (s *Server) cursorMAC(payload []byte) []byte {
	m := hmac.New(sha256.New, s.cursorKey)
	m.Write(payload)
	return m.Sum(nil)[:cursorMACLen]
}

func cursorPayload(method, principal string, offset int) []byte {
	b := make([]byte, 0, len(method)+len(principal)+10)
	b = append(b, method...)
	b = append(b, 0)
	b = append(b, principal...)
	b = append(b, 0)
	return binary.BigEndian.AppendUint64(b, uint64(offset))
}

// makeCursor issues the cursor for the page starting at offset.
func (s *Server) makeCursor(method, principal string, offset int) string {
	p := cursorPayload(method, principal, offset)
	return base64.RawURLEncoding.EncodeToString(p) + "." + base64.RawURLEncoding.EncodeToString(s.cursorMAC(p))
}

// parseCursor verifies a cursor for method and principal and returns its
// offset.
func (s *Server) parseCursor(cursor, method, principal string) (int, bool) {
	ps, ms, ok := strings.Cut(cursor, ".")
	if !ok || len(cursor) > 1024 {
		return 0, false
	}
	p, err1 := base64.RawURLEncoding.Strict().DecodeString(ps)
	mac, err2 := base64.RawURLEncoding.Strict().DecodeString(ms)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.cursorMAC(p)) {
		return 0, false
	}
	want := cursorPayload(method, principal, 0)
	prefix := want[:len(want)-8]
	if len(p) != len(want) || !hmac.Equal(p[:len(prefix)], prefix) {
		return 0, false
	}
	off := binary.BigEndian.Uint64(p[len(prefix):])
	if off > 1<<31 {
		return 0, false
	}
	return int(off), true
}

// pageBounds reads params.cursor for a paginated list method and returns the
// [start, end) slice of a list of n items plus the next cursor ("" on the
// last page).
func (s *Server) pageBounds(call *Call, params json.RawMessage, n int) (start, end int, next string, e *Error) {
	var p struct {
		Cursor *json.RawMessage
	}
	var members map[string]json.RawMessage
	if call != nil && call.req != nil && len(params) > 0 && &call.req.Params[0] == &params[0] {
		members = call.req.params
	} else if len(params) > 0 {
		var err error
		if members, err = objectMembers(params); err != nil {
			return 0, 0, "", NewError(CodeInvalidParams, "invalid params", nil)
		}
	}
	if c, ok := members["cursor"]; ok {
		p.Cursor = &c
	}
	principal := ""
	if call != nil {
		principal = call.Principal.ID
	}
	method := ""
	if call != nil {
		method = call.Method
	}
	if p.Cursor != nil {
		var c string
		if json.Unmarshal(*p.Cursor, &c) != nil {
			return 0, 0, "", NewError(CodeInvalidParams, "invalid params: cursor must be a string", nil)
		}
		off, ok := s.parseCursor(c, method, principal)
		if !ok {
			return 0, 0, "", NewError(CodeInvalidParams, "invalid params: invalid cursor", nil)
		}
		start = off
	}
	start = min(start, n)
	end = min(start+PageSize, n)
	if end < n {
		next = s.makeCursor(method, principal, end)
	}
	return start, end, next, nil
}
