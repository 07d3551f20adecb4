package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Request is one decoded JSON-RPC 2.0 message sent to the server: a request
// (ID set) or a notification (ID nil).
type Request struct {
	// ID is the raw JSON id (a string or a number), nil for a notification.
	ID json.RawMessage
	// Method is the JSON-RPC method, never empty.
	Method string
	// Params is the raw params object, or nil when absent.
	Params json.RawMessage

	// params holds the members of Params (nil when absent).
	params map[string]json.RawMessage
}

// Param returns the raw value of a top-level params member.
func (r *Request) Param(name string) (json.RawMessage, bool) {
	v, ok := r.params[name]
	return v, ok
}

// IsNotification reports whether the message has no id.
func (r *Request) IsNotification() bool { return r.ID == nil }

// decodeEnvelope parses one JSON-RPC message (SPEC.md B "Errors"):
//
//   - not JSON: -32700;
//   - a JSON array (batching is not implemented), a non-object, a JSON-RPC
//     response (result or error), a missing or wrong jsonrpc, a bad id, a
//     missing or non-string method, null params, or a duplicated member: -32600;
//   - params that are not an object: -32602.
//
// On error it also returns the request id when one could be read, so the
// error response can carry it.
func decodeEnvelope(body []byte) (*Request, json.RawMessage, *Error) {
	if !json.Valid(body) {
		return nil, nil, NewError(CodeParseError, "parse error: body is not JSON", nil)
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch trimmed[0] {
	case '[':
		return nil, nil, NewError(CodeInvalidRequest, "invalid request: batching is not supported", nil)
	case '{':
	default:
		return nil, nil, NewError(CodeInvalidRequest, "invalid request: not a JSON-RPC object", nil)
	}
	members, err := objectMembers(trimmed)
	if err != nil {
		return nil, nil, NewError(CodeInvalidRequest, "invalid request: "+err.Error(), nil)
	}

	var req Request
	var id json.RawMessage
	if raw, ok := members["id"]; ok {
		switch raw[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			id = raw
		default:
			return nil, nil, NewError(CodeInvalidRequest, "invalid request: id must be a string or a number", nil)
		}
	}
	bad := func(msg string) (*Request, json.RawMessage, *Error) {
		return nil, id, NewError(CodeInvalidRequest, "invalid request: "+msg, nil)
	}
	if v, ok := members["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return bad(`jsonrpc must be "2.0"`)
	}
	_, hasResult := members["result"]
	_, hasError := members["error"]
	m, hasMethod := members["method"]
	if hasResult || hasError {
		if !hasMethod {
			return bad("a JSON-RPC response was sent to the server")
		}
		return bad("a request must not carry result or error")
	}
	if !hasMethod || m[0] != '"' {
		return bad("method must be a string")
	}
	if method, ok := rawString(m); !ok || method == "" {
		return bad("method must be a non-empty string")
	} else {
		req.Method = method
	}
	if p, ok := members["params"]; ok {
		switch p[0] {
		case '{':
			pm, err := objectMembers(p)
			if err != nil {
				return bad("params: " + err.Error())
			}
			req.Params = p
			req.params = pm
		case 'n':
			return bad("params must not be null")
		default:
			return nil, id, NewError(CodeInvalidParams, "invalid params: params must be an object", nil)
		}
	}
	req.ID = id
	return &req, nil, nil
}

var errDuplicateMember = errors.New("duplicate member")
