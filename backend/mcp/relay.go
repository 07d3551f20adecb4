package mcp

// What a client that relays this endpoint (the stdio bridge, backend/bridge) reads and writes,
// with the core's own rules rather than copies of them: the JSON-RPC envelope decoder, the
// legacy shaping of a result, the Mcp-Name header and its base64 wrapper, the client
// capability a server-to-client request needs, and the input_required result as a client
// reads it. The SSE reader is in sse.go.

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode"

	"app/backend/mcp/internal/wire"
)

// Message is one decoded JSON-RPC request or notification (DecodeMessage).
type Message = wire.Message

// Response is one decoded JSON-RPC response (DecodeResponse).
type Response = wire.Response

// DecodeMessage reads one JSON-RPC request or notification by the endpoint's own rules
// (SPEC.md B "Errors"): not JSON -32700; a batch, a non-object, a response, a bad jsonrpc,
// id or method, null params or a duplicated member -32600; params that are not an object
// -32602. On error it returns the request id when one could be read.
func DecodeMessage(b []byte) (*Message, json.RawMessage, *Error) {
	msg, id, e := wire.Decode(b)
	if e != nil {
		return nil, id, fromWire(e)
	}
	return msg, nil, nil
}

// DecodeResponse reads b as a JSON-RPC response to a request of ours: jsonrpc "2.0", a string
// or number id, no method, and exactly one of result or error (an object).
func DecodeResponse(b []byte) (*Response, bool) { return wire.DecodeResponse(b) }

// LegacyResult is a modern result shaped for a legacy client, by the rule shapeResult applies
// to the endpoint's own legacy answers (SPEC.md B "Result envelope"): no resultType, cache
// hints or serverInfo. Anything but a JSON object is returned as it is.
func LegacyResult(res json.RawMessage) json.RawMessage {
	var members map[string]json.RawMessage
	if json.Unmarshal(res, &members) != nil || members == nil {
		return res
	}
	out := make(map[string]any, len(members))
	for k, v := range members {
		out[k] = v
	}
	shapeLegacy(out)
	b, err := wire.AppendJSON(nil, out)
	if err != nil {
		return res
	}
	return b
}

// NameField is the params member the Mcp-Name header carries for method (name for tools/call
// and prompts/get, uri for resources/read), or "" when the method has no Mcp-Name.
func NameField(method string) string { return nameField(method) }

// EncodeHeaderValue is v as an Mcp-Name or Mcp-Param value (SPEC.md B "Non-ASCII header
// values"): as it is when it is printable ASCII without leading or trailing space, else
// wrapped as =?base64?...?=. A value that would read as a wrapper is wrapped too.
// decodeHeaderValue is its inverse.
func EncodeHeaderValue(v string) string {
	plain := v == strings.TrimSpace(v) && !(len(v) >= len(b64Prefix) && strings.EqualFold(v[:len(b64Prefix)], b64Prefix))
	for _, r := range v {
		if r > unicode.MaxASCII || unicode.IsControl(r) {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	return b64Prefix + base64.StdEncoding.EncodeToString([]byte(v)) + b64Suffix
}

// ClientRequestCapability is the client capability a server-to-client request needs
// (sampling/createMessage: sampling, elicitation/create: elicitation, roots/list: roots); ok
// is false for any other method.
func ClientRequestCapability(method string) (capability string, ok bool) {
	capability, ok = clientRequestCapability[method]
	return capability, ok
}

// InputRequiredResult is a result as a client reads it to tell whether it is input_required
// (ResultType ResultInputRequired), and then the requests to run and the state to send back
// on the follow-up call. InputRequired.result is what writes it.
type InputRequiredResult struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]RawInputRequest `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
}

// RawInputRequest is one entry of inputRequests with its params kept as they came.
type RawInputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// MetaServerInfo is the _meta member of a modern result that names the server.
const MetaServerInfo = metaServerInfo
