package tools

import (
	"context"
	"encoding/json"
	"sort"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/mcp"
)

// NameListConnections is the tool that starts every conversation (SPEC.md B
// "What the service does" 3 and 4).
const NameListConnections = "list_connections"

// summaryID is a listed connection's id, for the token allowlist (auth.Allowed).
func summaryID(c connections.Summary) string { return c.ID }

// connectionList is list_connections' structuredContent.
type connectionList struct {
	Connections []connections.Summary `json:"connections"`
}

// ListConnections is the list_connections tool: the connections AI clients may see
// (connections.VisibleToAI) that the caller's token may use (its allowlist); none without a
// store.
func ListConnections(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameListConnections,
		Title:       "List connections",
		Description: "Lists the user's saved database connections (id, name, type, address, and the query language execute_query takes on each). Start here: the other tools take a connection id from this list.",
		Annotations: &mcp.ToolAnnotations{Title: "List connections", ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, _ struct{}, _ json.RawMessage) (string, connectionList, error) {
		list := []connections.Summary{}
		if d.Conns.Store != nil {
			got, err := d.Conns.Store.ListVisibleToAI(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return "", connectionList{}, ctx.Err()
				}
				return "", connectionList{}, mcp.NewToolError(mcp.ToolErrInternalFailure, "the connection list could not be read")
			}
			list = append(list, auth.Allowed(ctx, got, summaryID)...)
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		return "", connectionList{Connections: list}, nil
	})
}
