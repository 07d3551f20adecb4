package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is one entry of the tool table: its definition as listed by
// tools/list, the scope it needs besides tools:read, its read/write
// classification, and its handler.
type Tool struct {
	// Name is the unique tool name.
	Name string
	// Title is a short human-readable name.
	Title string
	// Description tells the model what the tool does.
	Description string
	// InputSchema is the JSON Schema of the arguments object. Arguments are
	// validated against it before the handler runs; unknown arguments are
	// refused when the schema says additionalProperties: false.
	InputSchema *jsonschema.Schema
	// OutputSchema, when set, describes structuredContent.
	OutputSchema *jsonschema.Schema
	// Scope is the tool's own scope, needed besides tools:read; "" for none.
	Scope string
	// Write classifies the tool as writing (true) or read-only (false).
	Write bool
	// Annotations are the hints listed with the tool.
	Annotations *ToolAnnotations
	// Handler runs the tool.
	Handler ToolHandler
}

// ToolAnnotations are the behaviour hints of a tool definition.
type ToolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// ToolHandler runs a tool with its validated arguments object. A *ToolError
// (possibly wrapped) becomes a result with isError true and text
// "<code>: <message>"; a *Error is a protocol error; any other error becomes
// the tool error internal_failure with a generic message.
type ToolHandler func(ctx context.Context, args json.RawMessage) (*ToolResult, error)

// ToolResult is what a tool returns: text content plus structuredContent, or
// content blocks of any kind (images, audio, embedded resources, links).
type ToolResult struct {
	// Text is the text content item. Empty Text with Structured set uses the
	// JSON of Structured. Ignored when Content is set.
	Text string
	// Content, when not empty, is the content array as it is, in order
	// (TextContent, ImageContent, AudioContent, EmbeddedResource,
	// ResourceLink); Text is then not used.
	Content []Content
	// Structured is the structuredContent object (optional).
	Structured any
}

// Tool error codes (SPEC.md B "Errors", tool errors).
const (
	ToolErrInvalidArgument = "invalid_argument"
	ToolErrNotConnected    = "not_connected"
	ToolErrNotFound        = "not_found"
	ToolErrDenied          = "denied"
	ToolErrTimeout         = "timeout"
	ToolErrUnsupported     = "unsupported"
	ToolErrQueryFailed     = "query_failed"
	ToolErrUserCancelled   = "user_cancelled"
	ToolErrInternalFailure = "internal_failure"
)

var toolErrCodes = map[string]bool{
	ToolErrInvalidArgument: true, ToolErrNotConnected: true, ToolErrNotFound: true,
	ToolErrDenied: true, ToolErrTimeout: true, ToolErrUnsupported: true,
	ToolErrQueryFailed: true, ToolErrUserCancelled: true, ToolErrInternalFailure: true,
}

// ToolError is a tool failure: reported as a successful JSON-RPC result with
// isError true, never as a protocol error.
type ToolError struct {
	Code    string
	Message string
	// Source is the kind of the error the tool error stands for (a driver's error kind), for
	// a feature that adds to the message by what happened; it is not sent.
	Source string
}

// Error renders the spec's tool-error text shape "<code>: <message>".
func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

// NewToolError builds a tool error; an unknown code becomes internal_failure.
func NewToolError(code, format string, args ...any) *ToolError {
	if !toolErrCodes[code] {
		code = ToolErrInternalFailure
	}
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// registeredTool is a Tool with its resolved schema and pre-encoded listing.
type registeredTool struct {
	Tool
	resolved *jsonschema.Resolved
	listing  json.RawMessage
}

// toolRegistry is the table of implemented tools, in listing order.
type toolRegistry struct {
	byName map[string]*registeredTool
	order  []*registeredTool
	scopes []string // distinct own scopes of the tools, in order
}

func newToolRegistry(tools []Tool) (*toolRegistry, error) {
	r := &toolRegistry{byName: map[string]*registeredTool{}}
	for _, t := range tools {
		if err := r.add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *toolRegistry) add(t Tool) error {
	if t.Name == "" || t.Handler == nil || t.InputSchema == nil {
		return fmt.Errorf("mcp: tool %q needs a name, an input schema and a handler", t.Name)
	}
	if _, dup := r.byName[t.Name]; dup {
		return fmt.Errorf("mcp: tool %q registered twice", t.Name)
	}
	resolved, err := t.InputSchema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("mcp: tool %q input schema: %w", t.Name, err)
	}
	def := map[string]any{
		"name":        t.Name,
		"description": t.Description,
		"inputSchema": t.InputSchema,
	}
	if t.Title != "" {
		def["title"] = t.Title
	}
	if t.OutputSchema != nil {
		def["outputSchema"] = t.OutputSchema
	}
	if t.Annotations != nil {
		def["annotations"] = t.Annotations
	}
	listing, err := json.Marshal(def)
	if err != nil {
		return fmt.Errorf("mcp: tool %q definition: %w", t.Name, err)
	}
	if t.Scope != "" && !slices.Contains(r.scopes, t.Scope) {
		r.scopes = append(r.scopes, t.Scope)
	}
	rt := &registeredTool{Tool: t, resolved: resolved, listing: listing}
	r.byName[t.Name] = rt
	r.order = append(r.order, rt)
	return nil
}

// scopeKey names which of the tools' own scopes p holds (the only thing
// besides tools:read that changes the visible list).
func (r *toolRegistry) scopeKey(p Principal) string {
	var b []byte
	for _, sc := range r.scopes {
		if p.HasScope(sc) {
			b = append(b, '1')
		} else {
			b = append(b, '0')
		}
	}
	return string(b)
}

// visible lists the tools p may call: tools:read plus the tool's own scope.
func (r *toolRegistry) visible(p Principal) []*registeredTool {
	out := make([]*registeredTool, 0, len(r.order))
	for _, t := range r.order {
		if t.Scope == "" || p.HasScope(t.Scope) {
			out = append(out, t)
		}
	}
	return out
}

// handleToolsList serves tools/list: the caller's visible tools, 50 a page.
func (s *Server) handleToolsList(ctx context.Context, req *Request[ListParams]) (any, error) {
	tools := s.tools.visible(req.Principal)
	start, end, next, e := s.pageBounds(req.Call, req.Params, len(tools))
	if e != nil {
		return nil, e
	}
	// The tool table is fixed at NewServer: the shaped page depends only on
	// the era, the principal (its scopes and the cursor binding) and the
	// offset.
	key := cacheKey{method: "tools/list", era: req.Era, principal: req.Principal.ID,
		variant: s.tools.scopeKey(req.Principal), offset: start}
	return s.shapedOnce(req.Call, key, func() (any, *Error) {
		page := make([]json.RawMessage, 0, end-start)
		for _, t := range tools[start:end] {
			page = append(page, t.listing)
		}
		out := map[string]any{"tools": page}
		if next != "" {
			out["nextCursor"] = next
		}
		return out, nil
	})
}

// handleToolsCall serves tools/call: unknown tool -32602; the tool's own
// scope -33007; arguments validated against the input schema (a mismatch is
// the tool error invalid_argument); tool failures are results with isError.
func (s *Server) handleToolsCall(ctx context.Context, req *Request[CallToolParams]) (any, error) {
	name := req.Params.Name
	t := s.tools.byName[name]
	if t == nil {
		return nil, invalidParams("unknown tool " + truncate(name, 100))
	}
	if t.Scope != "" && !req.Principal.HasScope(t.Scope) {
		return nil, errInsufficientScope([]string{t.Scope})
	}
	args := req.Params.Arguments
	if args == nil || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var inst map[string]any
	if args[0] != '{' || json.Unmarshal(args, &inst) != nil {
		return nil, invalidParams("arguments must be an object")
	}
	if err := t.resolved.Validate(inst); err != nil {
		return req.toolErrorResult(NewToolError(ToolErrInvalidArgument, "arguments do not match the input schema: %v", err)), nil
	}
	res, err := t.Handler(ctx, args)
	if err != nil {
		var te *ToolError
		var pe *Error
		var ir *InputRequired
		switch {
		case errors.As(err, &ir):
			return nil, ir
		case errors.As(err, &te):
			return req.toolErrorResult(te), nil
		case errors.As(err, &pe):
			return nil, pe
		case ctx.Err() != nil:
			return nil, ctx.Err()
		default:
			s.log.WithError(err).WithField("tool", name).Error("mcp: tool failed")
			return req.toolErrorResult(NewToolError(ToolErrInternalFailure, "the tool failed")), nil
		}
	}
	if res == nil {
		res = &ToolResult{}
	}
	text := res.Text
	out := map[string]any{"isError": false}
	if res.Structured != nil {
		sb, err := json.Marshal(res.Structured)
		if err != nil {
			return nil, err
		}
		out["structuredContent"] = json.RawMessage(sb)
		if text == "" {
			text = string(sb)
		}
	}
	if len(res.Content) > 0 {
		out["content"] = res.Content
	} else {
		out["content"] = []map[string]string{{"type": "text", "text": text}}
	}
	return out, nil
}

// toolErrorResult is a failed tool's result: isError true, text
// "<code>: <message>" (SPEC.md B "Errors", tool errors). The code is kept on
// the call for the Observer.
func (c *Call) toolErrorResult(te *ToolError) map[string]any {
	c.toolError = te.Code
	return map[string]any{
		"isError": true,
		"content": []map[string]string{{"type": "text", "text": c.redact(te.Error())}},
	}
}
