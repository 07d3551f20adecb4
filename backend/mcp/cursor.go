package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
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

// pageBounds reads the cursor of a paginated list request and returns the
// [start, end) slice of a list of n items plus the next cursor ("" on the
// last page). A cursor that is not a string, was tampered with, or was
// issued for another method or principal is -32602.
func (s *Server) pageBounds(call *Call, lp ListParams, n int) (start, end int, next string, e *Error) {
	if lp.HasCursor {
		off, ok := s.parseCursor(lp.Cursor, call.Method, call.Principal.ID)
		if !ok {
			return 0, 0, "", invalidParams("invalid cursor")
		}
		start = off
	}
	start = min(start, n)
	end = min(start+PageSize, n)
	if end < n {
		next = s.makeCursor(call.Method, call.Principal.ID, end)
	}
	return start, end, next, nil
}
