package mcp

import (
	"context"
	"encoding/json"
	"time"
)

// handleDiscover serves server/discover (SPEC.md B "Result envelope",
// server/discover table). shapeResult adds resultType, the cache hints and
// serverInfo with title and websiteUrl.
func (s *Server) handleDiscover(ctx context.Context, params json.RawMessage) (any, error) {
	return s.shapedOnce(CallFrom(ctx), "server/discover", func() (any, *Error) {
		return map[string]any{
			"supportedVersions": SupportedVersions(),
			"capabilities":      s.capabilities(EraModern),
			"instructions":      Instructions(),
		}, nil
	})
}

// The resource, prompt and completion handlers below are the empty tables of
// this issue: nothing is registered yet, so lists are empty and every name or
// URI is unknown (-32602). A later issue fills them.

func (s *Server) handleResourcesList(ctx context.Context, params json.RawMessage) (any, error) {
	return s.emptyPage(ctx, params, "resources")
}

func (s *Server) handleResourceTemplatesList(ctx context.Context, params json.RawMessage) (any, error) {
	return s.emptyPage(ctx, params, "resourceTemplates")
}

func (s *Server) handlePromptsList(ctx context.Context, params json.RawMessage) (any, error) {
	return s.emptyPage(ctx, params, "prompts")
}

func (s *Server) emptyPage(ctx context.Context, params json.RawMessage, field string) (any, error) {
	if _, _, _, e := s.pageBounds(CallFrom(ctx), params, 0); e != nil {
		return nil, e
	}
	return map[string]any{field: []any{}}, nil
}

// stringParam reads a required non-empty string member of params.
func stringParam(params json.RawMessage, name string) (string, *Error) {
	members, err := objectMembers(params)
	if len(params) == 0 || err != nil {
		return "", NewError(CodeInvalidParams, "invalid params: "+name+" is required", nil)
	}
	var v string
	raw, ok := members[name]
	if !ok || json.Unmarshal(raw, &v) != nil || v == "" {
		return "", NewError(CodeInvalidParams, "invalid params: "+name+" must be a non-empty string", nil)
	}
	return v, nil
}

func (s *Server) handleResourcesRead(ctx context.Context, params json.RawMessage) (any, error) {
	uri, e := stringParam(params, "uri")
	if e != nil {
		return nil, e
	}
	return nil, NewError(CodeInvalidParams, "invalid params: unknown resource", map[string]any{"uri": truncate(uri, 200)})
}

func (s *Server) handlePromptsGet(ctx context.Context, params json.RawMessage) (any, error) {
	name, e := stringParam(params, "name")
	if e != nil {
		return nil, e
	}
	return nil, NewError(CodeInvalidParams, "invalid params: unknown prompt "+truncate(name, 100), nil)
}

func (s *Server) handleComplete(ctx context.Context, params json.RawMessage) (any, error) {
	members, err := objectMembers(params)
	if len(params) == 0 || err != nil {
		return nil, NewError(CodeInvalidParams, "invalid params: ref and argument are required", nil)
	}
	var ref struct {
		Type string `json:"type"`
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	raw, ok := members["ref"]
	if !ok || json.Unmarshal(raw, &ref) != nil {
		return nil, NewError(CodeInvalidParams, "invalid params: ref must be an object", nil)
	}
	switch ref.Type {
	case "ref/prompt":
		return nil, NewError(CodeInvalidParams, "invalid params: unknown prompt "+truncate(ref.Name, 100), nil)
	case "ref/resource":
		return nil, NewError(CodeInvalidParams, "invalid params: unknown resource", nil)
	}
	return nil, NewError(CodeInvalidParams, "invalid params: ref.type must be ref/prompt or ref/resource", nil)
}

// keepAlivePeriod is how often an idle subscriptions/listen stream gets an
// SSE comment.
var keepAlivePeriod = 15 * time.Second

// handleSubscriptionsListen serves subscriptions/listen: a long-lived SSE
// stream whose first message is notifications/subscriptions/acknowledged
// with the agreed subset of the requested notifications; every notification
// carries _meta io.modelcontextprotocol/subscriptionId = the request id.
// Nothing publishes list changes yet (a later issue); the stream stays open
// with keep-alives until the client leaves or the server stops.
func (s *Server) handleSubscriptionsListen(ctx context.Context, params json.RawMessage) (any, error) {
	call := CallFrom(ctx)
	members, err := objectMembers(params)
	if err != nil {
		return nil, NewError(CodeInvalidParams, "invalid params", nil)
	}
	var want struct {
		ToolsListChanged      bool     `json:"toolsListChanged"`
		PromptsListChanged    bool     `json:"promptsListChanged"`
		ResourcesListChanged  bool     `json:"resourcesListChanged"`
		ResourceSubscriptions []string `json:"resourceSubscriptions"`
	}
	raw, ok := members["notifications"]
	if !ok || raw[0] != '{' || json.Unmarshal(raw, &want) != nil {
		return nil, NewError(CodeInvalidParams, "invalid params: notifications must be an object", nil)
	}
	// Agree only to what the capabilities promise: resources.listChanged.
	// tools and prompts lists never change; no resource is subscribable yet.
	agreed := map[string]any{}
	if want.ResourcesListChanged {
		agreed["resourcesListChanged"] = true
	}
	subMeta := map[string]any{"io.modelcontextprotocol/subscriptionId": call.ID}
	if err := call.Notify("notifications/subscriptions/acknowledged", map[string]any{
		"notifications": agreed,
		"_meta":         subMeta,
	}); err != nil {
		return nil, err
	}
	if len(agreed) > 0 {
		t := time.NewTicker(keepAlivePeriod)
		defer t.Stop()
	loop:
		for {
			select {
			case <-ctx.Done():
				break loop
			case <-t.C:
				if call.stream.comment() != nil {
					break loop
				}
			}
		}
	}
	return map[string]any{"_meta": subMeta}, nil
}
