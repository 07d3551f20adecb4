package mcp

import (
	"app/backend/mcp/internal/wire"

	"encoding/json"
	"time"
)

// Record is one answered POST /mcp as an Observer sees it: the facts the
// activity log and the connected-clients list are made of. Arguments are
// raw: the observer redacts and caps them before keeping anything.
type Record struct {
	Start    time.Time
	Duration time.Duration
	// Principal is the caller (zero when authentication failed).
	Principal       Principal
	Era             Era
	ProtocolVersion string
	// Client is the clientInfo of the modern _meta or of the legacy session.
	Client    *ClientInfo
	SessionID string
	// Method is the JSON-RPC method ("" when the envelope could not be
	// read); Notification says it was a notification (answered 202).
	Method       string
	Notification bool
	// Name is the tool or prompt name, or the resource URI, when the method
	// has one.
	Name string
	// Arguments are the tools/call arguments or the prompts/get arguments.
	Arguments json.RawMessage
	// ErrorCode is the protocol error code of the answer, 0 for a result.
	ErrorCode int
	// ToolError is the tool error code of a tools/call result with isError.
	ToolError string
	// Traceparent is the W3C traceparent of the request's _meta, as sent ("" when none): the
	// activity log keeps it so a request can be found from the client's trace.
	Traceparent string
}

// Observer receives a Record after each POST /mcp has been answered, on the
// request's goroutine: it must return quickly (queue, do not write a file
// inline). Set it in Options.Observer.
type Observer func(Record)

// observe builds the exchange's Record and hands it to the observer.
func (s *Server) observe(x *exchange) {
	rec := Record{Start: x.start, Duration: time.Since(x.start), ErrorCode: x.errCode}
	if x.msg != nil {
		rec.Method, rec.Notification = x.msg.Method, x.msg.IsNotification()
		switch rec.Method {
		case "tools/call", "prompts/get":
			rec.Name, _ = rawParamString(x.msg, "name")
			rec.Arguments, _ = x.msg.Param("arguments")
		case "resources/read":
			rec.Name, _ = rawParamString(x.msg, "uri")
		}
	}
	if c := x.call; c != nil {
		rec.Principal, rec.Era, rec.ProtocolVersion = c.Principal, c.Era, c.ProtocolVersion
		rec.Client, rec.SessionID = c.ClientInfo, c.SessionID
		if c.errCode != 0 {
			rec.ErrorCode = c.errCode
		}
		rec.ToolError = c.toolError
		if tp, ok := c.Trace["traceparent"]; ok {
			var s string
			if json.Unmarshal(tp, &s) == nil {
				rec.Traceparent = s
			}
		}
	}
	s.opts.Observer(rec)
}

// rawParamString reads a string member of the params.
func rawParamString(m *wire.Message, name string) (string, bool) {
	raw, ok := m.Param(name)
	if !ok {
		return "", false
	}
	return wire.RawString(raw)
}
