package wire

import (
	"bytes"
	"encoding/json"
)

// The JSON-RPC 2.0 codes the envelope decoder answers with. They are the
// standard's own numbers; backend/mcp's code table gives them their HTTP
// statuses (and names them CodeParseError, CodeInvalidRequest,
// CodeInvalidParams from these constants).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeInvalidParams  = -32602
)

// Error is a refusal of the envelope decoder: one of the three codes above
// and a message safe to send back.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return e.Message }

// Message is one decoded JSON-RPC 2.0 message sent to the server: a request
// (ID set) or a notification (ID nil).
type Message struct {
	// ID is the raw JSON id (a string or a number), nil for a notification.
	ID json.RawMessage
	// Method is the JSON-RPC method, never empty.
	Method string
	// Params is the raw params object, or nil when absent.
	Params json.RawMessage
	// Members holds the top-level members of Params (nil when absent),
	// split once so that no later reader parses the params object again.
	Members map[string]json.RawMessage
}

// Param returns the raw value of a top-level params member.
func (m *Message) Param(name string) (json.RawMessage, bool) {
	v, ok := m.Members[name]
	return v, ok
}

// IsNotification reports whether the message has no id.
func (m *Message) IsNotification() bool { return m.ID == nil }

// Decode parses one JSON-RPC message (SPEC.md B "Errors"):
//
//   - not JSON: -32700;
//   - a JSON array (batching is not implemented), a non-object, a JSON-RPC
//     response (result or error), a missing or wrong jsonrpc, a bad id, a
//     missing or non-string method, null params, or a duplicated member: -32600;
//   - params that are not an object: -32602.
//
// On error it also returns the request id when one could be read, so the
// error response can carry it.
func Decode(body []byte) (*Message, json.RawMessage, *Error) {
	if !json.Valid(body) {
		return nil, nil, &Error{CodeParseError, "parse error: body is not JSON"}
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch trimmed[0] {
	case '[':
		return nil, nil, &Error{CodeInvalidRequest, "invalid request: batching is not supported"}
	case '{':
	default:
		return nil, nil, &Error{CodeInvalidRequest, "invalid request: not a JSON-RPC object"}
	}
	members, err := ObjectMembers(trimmed)
	if err != nil {
		return nil, nil, &Error{CodeInvalidRequest, "invalid request: " + err.Error()}
	}

	var msg Message
	var id json.RawMessage
	if raw, ok := members["id"]; ok {
		switch raw[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			id = raw
		default:
			return nil, nil, &Error{CodeInvalidRequest, "invalid request: id must be a string or a number"}
		}
	}
	bad := func(text string) (*Message, json.RawMessage, *Error) {
		return nil, id, &Error{CodeInvalidRequest, "invalid request: " + text}
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
	method, ok := RawString(m)
	if !ok || method == "" {
		return bad("method must be a non-empty string")
	}
	msg.Method = method
	if p, ok := members["params"]; ok {
		switch p[0] {
		case '{':
			pm, err := ObjectMembers(p)
			if err != nil {
				return bad("params: " + err.Error())
			}
			msg.Params = p
			msg.Members = pm
		case 'n':
			return bad("params must not be null")
		default:
			return nil, id, &Error{CodeInvalidParams, "invalid params: params must be an object"}
		}
	}
	msg.ID = id
	return &msg, nil, nil
}
