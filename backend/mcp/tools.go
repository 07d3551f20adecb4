package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"

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

// ToolResult is what a tool returns: text content plus structuredContent.
type ToolResult struct {
	// Text is the text content item. Empty Text with Structured set uses the
	// JSON of Structured.
	Text string
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

// ConnectionSummary is one saved connection as list_connections reports it.
type ConnectionSummary struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
}

// ConnectionLister supplies the connections list_connections reports. The
// foundation adapts backend/connections to it.
type ConnectionLister interface {
	List(ctx context.Context) ([]ConnectionSummary, error)
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

func newToolRegistry(conns ConnectionLister, extra []Tool) (*toolRegistry, error) {
	r := &toolRegistry{byName: map[string]*registeredTool{}}
	all := append([]Tool{listConnectionsTool(conns)}, extra...)
	for _, t := range all {
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

// Tool names (the ones implemented so far).
const ToolListConnections = "list_connections"

func listConnectionsTool(conns ConnectionLister) Tool {
	falseSchema := &jsonschema.Schema{Not: &jsonschema.Schema{}}
	connSchema := &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"id":   {Type: "string", Description: "connection id, used by the other tools"},
			"name": {Type: "string"},
			"type": {Type: "string", Description: "database type, e.g. weaviate"},
			"host": {Type: "string"},
			"port": {Type: "integer"},
		},
		Required: []string{"id", "name", "type", "host", "port"},
	}
	return Tool{
		Name:        ToolListConnections,
		Title:       "List connections",
		Description: "Lists the user's saved database connections (id, name, type, host, port). Start here: the other tools take a connection id from this list.",
		InputSchema: &jsonschema.Schema{
			Type:                 "object",
			Properties:           map[string]*jsonschema.Schema{},
			AdditionalProperties: falseSchema,
		},
		OutputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"connections": {Type: "array", Items: connSchema},
			},
			Required: []string{"connections"},
		},
		Annotations: &ToolAnnotations{Title: "List connections", ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			list := []ConnectionSummary{}
			if conns != nil {
				got, err := conns.List(ctx)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					return nil, NewToolError(ToolErrInternalFailure, "the connection list could not be read")
				}
				list = append(list, got...)
			}
			sort.SliceStable(list, func(i, j int) bool { return list[i].Name < list[j].Name })
			return &ToolResult{Structured: map[string]any{"connections": list}}, nil
		},
	}
}

// handleToolsList serves tools/list: the caller's visible tools, 50 a page.
func (s *Server) handleToolsList(ctx context.Context, params json.RawMessage) (any, error) {
	call := CallFrom(ctx)
	tools := s.tools.visible(call.Principal)
	start, end, next, e := s.pageBounds(call, params, len(tools))
	if e != nil {
		return nil, e
	}
	// The tool table is immutable: the shaped page depends only on the era,
	// the principal (its scopes and the cursor binding) and the offset.
	key := "tools/list\x00" + call.Era.String() + "\x00" + call.Principal.ID + "\x00" +
		s.tools.scopeKey(call.Principal) + "\x00" + strconv.Itoa(start)
	return s.shapedOnce(call, key, func() (any, *Error) {
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
func (s *Server) handleToolsCall(ctx context.Context, params json.RawMessage) (any, error) {
	call := CallFrom(ctx)
	members, err := objectMembers(params)
	if err != nil || len(params) == 0 {
		return nil, NewError(CodeInvalidParams, "invalid params: tools/call needs params", nil)
	}
	var name string
	if raw, ok := members["name"]; !ok || json.Unmarshal(raw, &name) != nil || name == "" {
		return nil, NewError(CodeInvalidParams, "invalid params: name must be a non-empty string", nil)
	}
	t := s.tools.byName[name]
	if t == nil {
		return nil, NewError(CodeInvalidParams, "invalid params: unknown tool "+truncate(name, 100), nil)
	}
	if t.Scope != "" && !call.Principal.HasScope(t.Scope) {
		return nil, errInsufficientScope([]string{t.Scope})
	}
	args, ok := members["arguments"]
	if !ok || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' {
		return nil, NewError(CodeInvalidParams, "invalid params: arguments must be an object", nil)
	}
	var inst map[string]any
	if err := json.Unmarshal(args, &inst); err != nil {
		return nil, NewError(CodeInvalidParams, "invalid params: arguments must be an object", nil)
	}
	if err := t.resolved.Validate(inst); err != nil {
		return toolErrorResult(NewToolError(ToolErrInvalidArgument, "arguments do not match the input schema: %v", err)), nil
	}
	res, err := t.Handler(ctx, args)
	if err != nil {
		var te *ToolError
		var pe *Error
		switch {
		case errors.As(err, &te):
			return toolErrorResult(te), nil
		case errors.As(err, &pe):
			return nil, pe
		case ctx.Err() != nil:
			return nil, ctx.Err()
		default:
			s.log.WithError(err).WithField("tool", name).Error("mcp: tool failed")
			return toolErrorResult(NewToolError(ToolErrInternalFailure, "the tool failed")), nil
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
	out["content"] = []map[string]string{{"type": "text", "text": text}}
	return out, nil
}

func toolErrorResult(te *ToolError) map[string]any {
	return map[string]any{
		"isError": true,
		"content": []map[string]string{{"type": "text", "text": te.Error()}},
	}
}
