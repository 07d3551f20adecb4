package wire

import "encoding/json"

// Response is a JSON-RPC 2.0 response sent to the server: a client's answer to a request
// the server sent it (legacy eras: sampling/createMessage, elicitation/create, roots/list
// on a request's event stream).
type Response struct {
	// ID is the raw JSON id of the request being answered.
	ID json.RawMessage
	// Result is the raw result (nil when Error is set).
	Result json.RawMessage
	// Error is the raw error object (nil when Result is set).
	Error json.RawMessage
}

// DecodeResponse reads body as a JSON-RPC response: an object with jsonrpc "2.0", a string
// or number id, no method, and exactly one of result (any value) or error (an object). It
// reports false for anything else; Decode still answers such a body -32600 when nobody
// awaits it.
func DecodeResponse(body []byte) (*Response, bool) {
	if !json.Valid(body) {
		return nil, false
	}
	members, err := ObjectMembers(body)
	if err != nil {
		return nil, false
	}
	if v, ok := members["jsonrpc"]; !ok || string(v) != `"2.0"` {
		return nil, false
	}
	if _, ok := members["method"]; ok {
		return nil, false
	}
	id, ok := members["id"]
	if !ok || len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
		return nil, false
	}
	res, hasResult := members["result"]
	e, hasError := members["error"]
	if hasResult == hasError || (hasError && (len(e) == 0 || e[0] != '{')) {
		return nil, false
	}
	return &Response{ID: id, Result: res, Error: e}, true
}
