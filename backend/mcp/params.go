package mcp

import (
	"encoding/json"
	"fmt"

	"app/backend/mcp/internal/wire"
)

// The params of every method, decoded once by dispatch before the handler
// runs (STYLE.md "decode typed params once in dispatch"). Each type reads
// the members the envelope decoder already split, so no handler parses the
// body again, and each refusal is -32602 with a message naming the member.
// Member names are matched exactly (JSON-RPC is case-sensitive; so is the
// duplicate-member rule of the envelope).

// params is what a params type decodes from: the raw object (nil when the
// request had no params) and its top-level members.
type params struct {
	raw     json.RawMessage
	members map[string]json.RawMessage
}

// paramsDecoder is implemented by every params type's pointer.
type paramsDecoder interface {
	decode(p params) *Error
}

func invalidParams(msg string) *Error {
	return NewError(CodeInvalidParams, "invalid params: "+msg, nil)
}

// requiredString reads a required non-empty string member.
func (p params) requiredString(name string) (string, *Error) {
	raw, ok := p.members[name]
	if !ok {
		if p.raw == nil {
			return "", invalidParams(name + " is required")
		}
		return "", invalidParams(name + " must be a non-empty string")
	}
	v, ok := wire.RawString(raw)
	if !ok || v == "" {
		return "", invalidParams(name + " must be a non-empty string")
	}
	return v, nil
}

// NoParams is the params of methods that take nothing but _meta
// (server/discover, ping); anything else in params is ignored.
type NoParams struct{}

func (*NoParams) decode(params) *Error { return nil }

// ListParams is the params of the paginated list methods (SPEC.md B
// "Pagination"): an optional opaque cursor.
type ListParams struct {
	// Cursor is params.cursor; HasCursor says whether it was sent.
	Cursor    string
	HasCursor bool
}

func (l *ListParams) decode(p params) *Error {
	raw, ok := p.members["cursor"]
	if !ok {
		return nil
	}
	l.HasCursor = true
	if string(raw) == "null" {
		return nil // an empty cursor: refused as invalid by the page reader
	}
	c, ok := wire.RawString(raw)
	if !ok {
		return invalidParams("cursor must be a string")
	}
	l.Cursor = c
	return nil
}

// CallToolParams is the params of tools/call (SPEC.md B "Request envelope").
type CallToolParams struct {
	Name string
	// Arguments is the raw arguments member (nil when absent); whether it is
	// an object is checked after the tool's scope, so a caller without the
	// scope learns nothing about the arguments.
	Arguments json.RawMessage
	// RequestState and InputResponses are the follow-up members of an
	// input_required round (nil when absent).
	RequestState   json.RawMessage
	InputResponses json.RawMessage
}

func (c *CallToolParams) decode(p params) *Error {
	if p.raw == nil {
		return invalidParams("tools/call needs params")
	}
	name, ok := wire.RawString(p.members["name"])
	if !ok || name == "" {
		return invalidParams("name must be a non-empty string")
	}
	c.Name = name
	c.Arguments = p.members["arguments"]
	c.RequestState = p.members["requestState"]
	c.InputResponses = p.members["inputResponses"]
	return nil
}

// ReadResourceParams is the params of resources/read.
type ReadResourceParams struct{ URI string }

func (r *ReadResourceParams) decode(p params) *Error {
	var e *Error
	r.URI, e = p.requiredString("uri")
	return e
}

// GetPromptParams is the params of prompts/get.
type GetPromptParams struct {
	Name string
	// Arguments maps argument names to their string values.
	Arguments map[string]string
}

func (g *GetPromptParams) decode(p params) *Error {
	var e *Error
	if g.Name, e = p.requiredString("name"); e != nil {
		return e
	}
	if raw, ok := p.members["arguments"]; ok && string(raw) != "null" {
		if raw[0] != '{' || json.Unmarshal(raw, &g.Arguments) != nil {
			return invalidParams("arguments must be an object of strings")
		}
	}
	return nil
}

// CompleteParams is the params of completion/complete.
type CompleteParams struct {
	Ref struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	// Context.Arguments holds the values of arguments already chosen.
	Context struct {
		Arguments map[string]string `json:"arguments"`
	}
}

func (c *CompleteParams) decode(p params) *Error {
	if p.raw == nil {
		return invalidParams("ref and argument are required")
	}
	raw, ok := p.members["ref"]
	if !ok || raw[0] != '{' || json.Unmarshal(raw, &c.Ref) != nil {
		return invalidParams("ref must be an object")
	}
	if raw, ok := p.members["argument"]; ok && (raw[0] != '{' || json.Unmarshal(raw, &c.Argument) != nil) {
		return invalidParams("argument must be an object with name and value")
	}
	if raw, ok := p.members["context"]; ok && (raw[0] != '{' || json.Unmarshal(raw, &c.Context) != nil) {
		return invalidParams("context must be an object")
	}
	return nil
}

// ListenParams is the params of subscriptions/listen: the notification
// kinds the client opts into.
type ListenParams struct {
	Notifications struct {
		ToolsListChanged      bool     `json:"toolsListChanged"`
		PromptsListChanged    bool     `json:"promptsListChanged"`
		ResourcesListChanged  bool     `json:"resourcesListChanged"`
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	}
}

func (l *ListenParams) decode(p params) *Error {
	if p.raw == nil {
		return invalidParams("notifications is required")
	}
	raw, ok := p.members["notifications"]
	if !ok || raw[0] != '{' || json.Unmarshal(raw, &l.Notifications) != nil {
		return invalidParams("notifications must be an object")
	}
	if n := len(l.Notifications.ResourceSubscriptions); n > MaxListenURIs {
		return invalidParams(fmt.Sprintf("%d resourceSubscriptions in one subscriptions/listen; at most %d", n, MaxListenURIs))
	}
	return nil
}

// MaxListenURIs bounds the resources one subscriptions/listen follows (issue 44): each is
// read for its baseline before the acknowledgement and again at every poll, so thousands in
// one stream would keep the app reading for whoever asked. With a caller's requests in flight
// bounded (auth.Limits.MaxInFlight), a token follows at most eight times this many.
const MaxListenURIs = 100

// InitializeParams is the params of the legacy initialize.
type InitializeParams struct {
	ProtocolVersion *string         `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      json.RawMessage `json:"clientInfo"`
}

func (i *InitializeParams) decode(p params) *Error {
	if p.raw == nil || json.Unmarshal(p.raw, i) != nil {
		return invalidParams("initialize needs protocolVersion, capabilities and clientInfo")
	}
	return nil
}

// SetLevelParams is the params of the legacy logging/setLevel.
type SetLevelParams struct {
	Level string `json:"level"`
}

func (s *SetLevelParams) decode(p params) *Error {
	if p.raw == nil || json.Unmarshal(p.raw, s) != nil {
		return invalidParams(setLevelHint)
	}
	return nil
}
