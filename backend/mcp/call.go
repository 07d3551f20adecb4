package mcp

import (
	"context"
	"encoding/json"
	"net/http"

	"app/backend/mcp/internal/wire"
)

// Call is the per-request context every handler can reach with CallFrom.
// It is created by the transport after authentication and envelope
// decoding, and carries who is calling, in which era, with which client
// capabilities, plus the progress sink.
type Call struct {
	// Era the request is served in.
	Era Era
	// Principal the request acts for.
	Principal Principal
	// Method is the JSON-RPC method.
	Method string
	// ID is the raw JSON-RPC id (nil for a notification).
	ID json.RawMessage
	// ProtocolVersion is the modern _meta version, or for legacy requests
	// the MCP-Protocol-Version header value (possibly empty).
	ProtocolVersion string
	// ClientCapabilities is the modern _meta clientCapabilities object
	// (never nil for a modern request). Legacy code fills it from the
	// session's initialize capabilities if it wants scope checks on them.
	ClientCapabilities map[string]json.RawMessage
	// ClientInfo is the optional modern _meta clientInfo.
	ClientInfo *ClientInfo
	// SessionID is the Mcp-Session-Id request header (legacy era).
	SessionID string
	// RequestHeader is the incoming HTTP header (read only).
	RequestHeader http.Header
	// ResponseHeader collects headers a handler wants on the HTTP response
	// (for example Mcp-Session-Id from legacy initialize).
	ResponseHeader http.Header

	// Trace holds the W3C trace keys of _meta (traceparent, tracestate,
	// baggage), passed through untouched.
	Trace map[string]json.RawMessage

	progress      *progressSink
	progressToken json.RawMessage
	stream        *sseStream
	msg           *wire.Message
	mi            *methodInfo
	// redactText is Options.Redact (nil: none).
	redactText func(string) string
	// followUp is the requestState and inputResponses of an input_required round's repeat.
	followUp FollowUp
	// sessionCaps, clientReqs and logLevel are a legacy call's session capabilities as
	// declared, the table of requests sent to clients, and the session's logging/setLevel
	// level (Call.Request, Call.Log).
	sessionCaps map[string]json.RawMessage
	clientReqs  *clientRequests
	logLevel    string
	// errCode and toolError are the answer's outcome, for the Observer.
	errCode   int
	toolError string
}

// ClientInfo names the client (modern _meta io.modelcontextprotocol/clientInfo,
// or legacy initialize clientInfo).
type ClientInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// HasCapability reports whether the client declared a top-level capability
// (for example "elicitation").
func (c *Call) HasCapability(name string) bool {
	_, ok := c.ClientCapabilities[name]
	return ok
}

// Progress reports progress on the request's own SSE stream. It is a no-op
// when the request had no _meta.progressToken. A value that does not exceed
// the previous one is dropped (SPEC.md B "Progress streaming").
func (c *Call) Progress(progress, total float64, message string) {
	if c == nil || c.progress == nil {
		return
	}
	c.progress.send(progress, total, message)
}

type callKey struct{}

// WithCall returns ctx carrying c.
func WithCall(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the Call of the request ctx belongs to, or nil.
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// RequireCapabilities returns -32021 when the client did not declare every
// named top-level capability; data.requiredCapabilities is a
// ClientCapabilities object naming the missing ones, e.g. {"sampling": {}}
// (SPEC.md B "Errors"). Handlers call it before relying on a capability.
func RequireCapabilities(ctx context.Context, names ...string) error {
	c := CallFrom(ctx)
	missing := map[string]any{}
	for _, n := range names {
		if c == nil || !c.HasCapability(n) {
			missing[n] = map[string]any{}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return NewError(CodeMissingCapability, "missing required client capability", map[string]any{"requiredCapabilities": missing})
}

// redact scrubs secrets from an error text that is about to leave the
// process (Options.Redact).
func (c *Call) redact(s string) string {
	if c.redactText == nil {
		return s
	}
	return c.redactText(s)
}

// FollowUp returns the requestState and inputResponses the client sent with a repeated
// tools/call, resources/read or prompts/get (the zero FollowUp on a first call).
func (c *Call) FollowUp() FollowUp {
	if c == nil {
		return FollowUp{}
	}
	return c.followUp
}
