// Package resources is the app's MCP resource table (SPEC.md B "What the
// service does" 3). It imports backend/mcp and is wired into the server by
// backend/core through mcp.Options; backend/mcp never imports it.
//
// Every resource lives under one URI scheme, app://, named after what it
// holds:
//
//	app://connections        the saved connections AI clients may see (JSON)
//	app://connections/{id}   one of them (JSON); {id} completes from the live list
//
// A blocked connection does not exist here: it is neither listed nor
// readable (connections.VisibleToAI decides, through connections.AILister).
// A connection outside the caller's token allowlist is not listed and not
// completed; reading it is 403 -33007 (SPEC.md B "Authentication" 3).
package resources

import (
	"context"
	"encoding/json"
	"time"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/mcp"
)

// The URIs of the table.
const (
	URIConnections      = "app://connections"
	TemplateConnection  = "app://connections/{id}"
	mimeJSON            = "application/json"
	connectionsCacheTTL = 30 * time.Second
)

// Deps are what the resources need from the rest of the backend.
type Deps struct {
	Connections connections.AILister
}

// Resources is the table of concrete resources.
func Resources(d Deps) []mcp.Resource {
	return []mcp.Resource{{
		URI:         URIConnections,
		Name:        "connections",
		Title:       "Saved connections",
		Description: "The user's saved database connections (id, name, type, host, port).",
		MIMEType:    mimeJSON,
		TTL:         connectionsCacheTTL,
		Read: func(ctx context.Context, uri string) ([]mcp.ResourceContents, error) {
			list, err := visible(ctx, d.Connections)
			if err != nil {
				return nil, err
			}
			return jsonContents(uri, map[string]any{"connections": list})
		},
	}}
}

// Templates is the table of parameterised resources.
func Templates(d Deps) []mcp.ResourceTemplate {
	return []mcp.ResourceTemplate{{
		URITemplate: TemplateConnection,
		Name:        "connection",
		Title:       "A saved connection",
		Description: "One saved connection by id (from app://connections).",
		MIMEType:    mimeJSON,
		TTL:         connectionsCacheTTL,
		Read: func(ctx context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			list, err := visibleToAI(ctx, d.Connections)
			if err != nil {
				return nil, err
			}
			for _, c := range list {
				if c.ID == vars["id"] {
					if !auth.MayUse(ctx, c.ID) {
						return nil, auth.ConnectionNotAllowed()
					}
					return jsonContents(uri, c)
				}
			}
			return nil, mcp.ErrUnknownResource
		},
		Complete: func(ctx context.Context, variable, _ string, _ map[string]string) ([]string, error) {
			list, err := visible(ctx, d.Connections)
			if err != nil {
				return nil, err
			}
			ids := make([]string, 0, len(list))
			for _, c := range list {
				ids = append(ids, c.ID)
			}
			return ids, nil
		},
	}}
}

// visible lists the connections AI clients may see that the caller's token may use; none
// without a source.
func visible(ctx context.Context, l connections.AILister) ([]connections.Summary, error) {
	list, err := visibleToAI(ctx, l)
	if err != nil {
		return nil, err
	}
	return auth.Allowed(ctx, list, func(c connections.Summary) string { return c.ID }), nil
}

// visibleToAI lists the connections AI clients may see, whatever the token's allowlist.
func visibleToAI(ctx context.Context, l connections.AILister) ([]connections.Summary, error) {
	if l == nil {
		return []connections.Summary{}, nil
	}
	return l.ListVisibleToAI(ctx)
}

func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return []mcp.ResourceContents{{URI: uri, MIMEType: mimeJSON, Text: string(b)}}, nil
}
