package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"app/backend/mcp/internal/wire"
)

// JSON-RPC and MCP protocol error codes (SPEC.md B "Errors", protocol error table).
// The -32000..-32099 block is deliberately unused.
const (
	CodeParseError         = wire.CodeParseError     // -32700
	CodeInvalidRequest     = wire.CodeInvalidRequest // -32600
	CodeMethodNotFound     = -32601
	CodeInvalidParams      = wire.CodeInvalidParams // -32602
	CodeInternalError      = -32603
	CodeHeaderMismatch     = -32020
	CodeMissingCapability  = -32021
	CodeUnsupportedVersion = -32022
	CodeServiceUnavailable = -33000
	CodeSessionNotFound    = -33001
	CodeRequestCancelled   = -33002
	CodeRequestTimeout     = -33003
	CodePayloadTooLarge    = -33005
	CodeServerDisabled     = -33006
	CodeForbidden          = -33007
	CodeTokenExpired       = -33008
	CodeUnauthenticated    = -33009
	CodeRateLimited        = -33010
)

// codeInfo is one row of the spec's protocol error table.
type codeInfo struct {
	HTTP int
	Name string
}

// codeTable is the one table mapping every protocol error code to its HTTP
// status (SPEC.md B "Errors"). Nothing else in the package decides a status
// for a JSON-RPC error.
var codeTable = map[int]codeInfo{
	CodeParseError:         {http.StatusBadRequest, "parse error"},
	CodeInvalidRequest:     {http.StatusBadRequest, "invalid request"},
	CodeMethodNotFound:     {http.StatusNotFound, "method not found"},
	CodeInvalidParams:      {http.StatusBadRequest, "invalid params"},
	CodeInternalError:      {http.StatusInternalServerError, "internal error"},
	CodeHeaderMismatch:     {http.StatusBadRequest, "header mismatch"},
	CodeMissingCapability:  {http.StatusBadRequest, "missing client capability"},
	CodeUnsupportedVersion: {http.StatusBadRequest, "unsupported protocol version"},
	CodeServiceUnavailable: {http.StatusServiceUnavailable, "service unavailable"},
	CodeSessionNotFound:    {http.StatusNotFound, "session not found"},
	CodeRequestCancelled:   {http.StatusOK, "request cancelled"},
	CodeRequestTimeout:     {http.StatusOK, "request timeout"},
	CodePayloadTooLarge:    {http.StatusRequestEntityTooLarge, "payload too large"},
	CodeServerDisabled:     {http.StatusServiceUnavailable, "server disabled"},
	CodeForbidden:          {http.StatusForbidden, "forbidden"},
	CodeTokenExpired:       {http.StatusUnauthorized, "token expired"},
	CodeUnauthenticated:    {http.StatusUnauthorized, "unauthenticated"},
	CodeRateLimited:        {http.StatusTooManyRequests, "rate limited"},
}

// HTTPStatus returns the HTTP status the spec assigns to a protocol error
// code. A code outside the table (which would be a bug) maps to 500.
func HTTPStatus(code int) int {
	if ci, ok := codeTable[code]; ok {
		return ci.HTTP
	}
	return http.StatusInternalServerError
}

// Error is a JSON-RPC protocol error. Handlers return it (possibly wrapped)
// to answer a request with an error object; any other error becomes -32603
// with a generic message, so internal text never leaks.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
	// Header holds extra response headers that belong to this error, such as
	// WWW-Authenticate on 401/403 or Retry-After on 429. Never serialized.
	Header http.Header `json:"-"`
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("mcp error %d: %s", e.Code, e.Message) }

// encode is the JSON-RPC error response carrying e for the request id, its
// message passed through redact (nil: as is).
func (e *Error) encode(id json.RawMessage, redact func(string) string) []byte {
	msg := e.Message
	if redact != nil {
		msg = redact(msg)
	}
	return wire.EncodeError(id, e.Code, msg, e.Data)
}

// HTTPStatus is the status from the code table.
func (e *Error) HTTPStatus() int { return HTTPStatus(e.Code) }

// NewError builds a protocol error. A code outside the spec's table panics:
// the -32000 block and ad-hoc codes are not allowed.
func NewError(code int, message string, data any) *Error {
	if _, ok := codeTable[code]; !ok {
		panic(fmt.Sprintf("mcp: error code %d is not in the spec's table", code))
	}
	if message == "" {
		message = codeTable[code].Name
	}
	return &Error{Code: code, Message: message, Data: data}
}

// Errorf builds a protocol error with a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return NewError(code, fmt.Sprintf(format, args...), nil)
}

// asError converts any handler error into a protocol error: *Error (also
// wrapped) passes through; anything else is -32603 without its text.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return NewError(CodeInternalError, "internal error", nil)
}

// fromWire converts a refusal of the envelope decoder into a protocol error.
func fromWire(e *wire.Error) *Error { return NewError(e.Code, e.Message, nil) }

// errInsufficientScope is the -33007 answer for a missing scope
// (SPEC.md B "Authentication" 3).
func errInsufficientScope(required []string) *Error {
	e := NewError(CodeForbidden, "insufficient scope", map[string]any{"requiredScopes": required})
	e.Header = http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope"`}}
	return e
}
