package tools

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/mcp"
)

// NameListConnections is the tool that starts every conversation (SPEC.md B
// "What the service does" 3 and 4).
const NameListConnections = "list_connections"

// noArguments is the input schema of a tool that takes none: an object that
// refuses every member.
func noArguments() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
}

// summaryID is a listed connection's id, for the token allowlist (auth.Allowed).
func summaryID(c connections.Summary) string { return c.ID }

// ListConnections is the list_connections tool over conns (nil lists none): the connections
// AI clients may see (connections.VisibleToAI) that the caller's token may use (its
// allowlist).
func ListConnections(conns connections.AILister) mcp.Tool {
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
	return mcp.Tool{
		Name:        NameListConnections,
		Title:       "List connections",
		Description: "Lists the user's saved database connections (id, name, type, host, port). Start here: the other tools take a connection id from this list.",
		InputSchema: noArguments(),
		OutputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"connections": {Type: "array", Items: connSchema},
			},
			Required: []string{"connections"},
		},
		Annotations: &mcp.ToolAnnotations{Title: "List connections", ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
			list := []connections.Summary{}
			if conns != nil {
				got, err := conns.ListVisibleToAI(ctx)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					return nil, mcp.NewToolError(mcp.ToolErrInternalFailure, "the connection list could not be read")
				}
				list = append(list, auth.Allowed(ctx, got, summaryID)...)
			}
			sort.SliceStable(list, func(i, j int) bool { return list[i].Name < list[j].Name })
			return &mcp.ToolResult{Structured: map[string]any{"connections": list}}, nil
		},
	}
}
