// Package resources is the app's MCP resource table (SPEC.md B "What the
// service does" 3). It imports backend/mcp and is wired into the server by
// backend/core through mcp.Options; backend/mcp never imports it.
//
// Every resource lives under one URI scheme, app://, named after what it
// holds. All are JSON:
//
//	URI                                          what                                       ttlMs   subscribable
//	app://connections                            the saved connections AI clients may see    30000
//	app://connections/{id}                       one of them                                 30000
//	app://connections/{id}/schema                its tables, each with its columns/types     60000  yes
//	app://connections/{id}/tables/{table}        one table: columns, key, settings           60000  yes
//	app://connections/{id}/tables/{table}/sample  its first SampleRows rows (vectors left out)  10000
//
// {id} is a connection's id (from app://connections; names are not accepted, so each resource
// has one URI and a subscription matches its notifications); {table} is a table name,
// percent-encoded where needed. Both complete (completion/complete with ref/resource): {id}
// from the connections the caller may see, {table} from the tables of the chosen {id}. The
// cache hints follow how fast each thing changes: the saved connections and the schema change
// by hand, rarely; a sample is rows, which change all the time.
//
// A blocked connection does not exist here: it is neither listed nor readable
// (connections.VisibleToAI decides). A connection outside the caller's token allowlist is not
// listed and not completed; reading it is 403 -33007 (SPEC.md B "Authentication" 3). An
// unknown connection, table or URI is -32602 (mcp.ErrUnknownResource).
//
// Reading the schema or a table's description opens the connection when it is not open (as
// list_connections' callers would by the describe_table tool) and reads metadata only, so it
// asks nobody. Reading a sample reads rows: it is a statement like browse_table's and goes
// through the same approval (Deps.Approver, the approval Gate), so under a connection whose AI
// policy is alwaysAsk the user approves it (or the client gets input_required). A driver
// failure is a protocol error that keeps the driver's own user-safe message (driver.Error.Msg,
// redacted again by the server) and never its cause; see protocolError.
//
// Watcher (watch.go) polls the subscribed schema and table resources and the saved
// connections, and tells the server what changed (notifications/resources/updated and
// notifications/resources/list_changed on subscriptions/listen streams).
package resources

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// The URIs of the table.
const (
	URIConnections     = "app://connections"
	TemplateConnection = "app://connections/{id}"
	TemplateSchema     = "app://connections/{id}/schema"
	TemplateTable      = "app://connections/{id}/tables/{table}"
	TemplateSample     = "app://connections/{id}/tables/{table}/sample"
	mimeJSON           = "application/json"
)

// Cache hints of resources/read, by URI (the server keeps them between 5 s and 300 s).
const (
	ConnectionsTTL = 30 * time.Second
	SchemaTTL      = 60 * time.Second
	TableTTL       = 60 * time.Second
	SampleTTL      = 10 * time.Second
)

// SampleRows is how many rows a table's sample holds.
const SampleRows = 20

// Approver decides whether a statement may run for the calling request, as the tools' one
// does (backend/mcpfeatures/tools.Approver): nil runs it; an *mcp.Error, *mcp.InputRequired or
// *mcp.ToolError (denied) ends the read. *approval.Gate implements it.
type Approver interface {
	Approve(ctx context.Context, s approval.Statement) error
}

// Deps are what the resources need from the rest of the backend.
type Deps struct {
	// Connections lists the saved connections visible to AI clients.
	Connections connections.AILister
	// Store is the saved connections (a connection by id, with its rights); nil: only
	// app://connections and app://connections/{id} have anything.
	Store *connections.Store
	// Open opens a saved connection's driver (connecting it when needed); nil: the schema,
	// table and sample resources cannot be read.
	Open *connections.Manager
	// Approver approves a sample read; nil runs the reads the connection's rights allow
	// without asking and refuses (-33007) those that would need the user's approval.
	Approver Approver
}

// Resources is the table of concrete resources.
func Resources(d Deps) []mcp.Resource {
	return []mcp.Resource{{
		URI:         URIConnections,
		Name:        "connections",
		Title:       "Saved connections",
		Description: "The user's saved database connections (id, name, type, address, query language).",
		MIMEType:    mimeJSON,
		TTL:         ConnectionsTTL,
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
	completeID := func(ctx context.Context) ([]string, error) {
		list, err := visible(ctx, d.Connections)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, len(list))
		for _, c := range list {
			ids = append(ids, c.ID)
		}
		return ids, nil
	}
	complete := func(ctx context.Context, variable, _ string, chosen map[string]string) ([]string, error) {
		switch variable {
		case "id":
			return completeID(ctx)
		case "table":
			return d.tableNames(ctx, chosen["id"]), nil
		}
		return nil, nil
	}
	return []mcp.ResourceTemplate{{
		URITemplate: TemplateConnection,
		Name:        "connection",
		Title:       "A saved connection",
		Description: "One saved connection by id (from app://connections).",
		MIMEType:    mimeJSON,
		TTL:         ConnectionsTTL,
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
		Complete: complete,
	}, {
		URITemplate:  TemplateSchema,
		Name:         "schema",
		Title:        "A connection's schema",
		Description:  "The tables of one connection (whatever its database calls them), each with its columns and their types.",
		MIMEType:     mimeJSON,
		TTL:          SchemaTTL,
		Subscribable: true,
		Read: func(ctx context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			drv, c, err := d.driverFor(ctx, vars["id"])
			if err != nil {
				return nil, err
			}
			doc, err := readSchema(ctx, drv, c)
			if err != nil {
				return nil, protocolError(err)
			}
			return jsonContents(uri, doc)
		},
		Complete: complete,
	}, {
		URITemplate:  TemplateTable,
		Name:         "table",
		Title:        "A table's description",
		Description:  "One table: its columns (primary key first) with types, filter operators and sortability, and the settings that gate filters.",
		MIMEType:     mimeJSON,
		TTL:          TableTTL,
		Subscribable: true,
		Read: func(ctx context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			table, err := tableVar(vars)
			if err != nil {
				return nil, err
			}
			drv, c, err := d.driverFor(ctx, vars["id"])
			if err != nil {
				return nil, err
			}
			doc, err := readTable(ctx, drv, c, table)
			if err != nil {
				return nil, protocolError(err)
			}
			return jsonContents(uri, doc)
		},
		Complete: complete,
	}, {
		URITemplate: TemplateSample,
		Name:        "sample",
		Title:       "A sample of a table's rows",
		Description: "The first 20 rows of one table (vector columns left out). A read: under an AI policy that asks for reads, the user approves it.",
		MIMEType:    mimeJSON,
		TTL:         SampleTTL,
		Read: func(ctx context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			table, err := tableVar(vars)
			if err != nil {
				return nil, err
			}
			c, err := d.saved(ctx, vars["id"])
			if err != nil {
				return nil, err
			}
			if err := d.approve(ctx, c, uri, table); err != nil {
				return nil, err
			}
			drv, err := d.open(ctx, c)
			if err != nil {
				return nil, err
			}
			doc, err := readSample(ctx, drv, c, table)
			if err != nil {
				return nil, protocolError(err)
			}
			return jsonContents(uri, doc)
		},
		Complete: complete,
	}}
}

// SchemaURI, TableURI and SampleURI are the URIs of a connection's resources.
func SchemaURI(id string) string { return "app://connections/" + id + "/schema" }

// TableURI is the URI of a table's description.
func TableURI(id, table string) string {
	return "app://connections/" + id + "/tables/" + url.PathEscape(table)
}

// SampleURI is the URI of a table's sample.
func SampleURI(id, table string) string { return TableURI(id, table) + "/sample" }

// tableVar is the {table} variable, percent-decoded.
func tableVar(vars map[string]string) (string, error) {
	t, err := url.PathUnescape(vars["table"])
	if err != nil || t == "" {
		return "", mcp.ErrUnknownResource
	}
	return t, nil
}

// saved resolves {id} for the calling request: a saved connection AI clients may see (else it
// does not exist: ErrUnknownResource) that the caller's token may use (else 403 -33007). Only
// the id names it, never the name. The connection carries no credential.
func (d Deps) saved(ctx context.Context, id string) (connections.Connection, error) {
	c, err := d.lookup(ctx, id)
	if err != nil {
		return c, err
	}
	if !auth.MayUse(ctx, c.ID) {
		return connections.Connection{}, auth.ConnectionNotAllowed()
	}
	return c, nil
}

// lookup is saved without the caller's allowlist (the watcher has no caller).
func (d Deps) lookup(ctx context.Context, id string) (connections.Connection, error) {
	if d.Store == nil || id == "" {
		return connections.Connection{}, mcp.ErrUnknownResource
	}
	c, err := d.Store.Get(ctx, id)
	if errors.Is(err, connections.ErrNotFound) || (err == nil && (c.ID != id || !connections.VisibleToAI(c))) {
		return connections.Connection{}, mcp.ErrUnknownResource
	}
	if err != nil {
		return connections.Connection{}, err
	}
	c.Settings.APIKey = ""
	return c, nil
}

// open returns the connection's driver, connecting it when needed.
func (d Deps) open(ctx context.Context, c connections.Connection) (driver.Driver, error) {
	if d.Open == nil {
		return nil, mcp.NewError(mcp.CodeInternalError, "internal error: connections cannot be opened by this server", nil)
	}
	drv, _, err := d.Open.Open(ctx, c.ID)
	if errors.Is(err, connections.ErrNotFound) {
		return nil, mcp.ErrUnknownResource
	}
	if err != nil {
		return nil, protocolError(err)
	}
	return drv, nil
}

// driverFor resolves {id} for the caller and opens it.
func (d Deps) driverFor(ctx context.Context, id string) (driver.Driver, connections.Connection, error) {
	c, err := d.saved(ctx, id)
	if err != nil {
		return nil, c, err
	}
	drv, err := d.open(ctx, c)
	return drv, c, err
}

// approve asks the Approver whether the sample read of table may run. A denial by the user is
// 403 -33007 here: resources/read has no tool-error result to carry it.
func (d Deps) approve(ctx context.Context, c connections.Connection, uri, table string) error {
	args, _ := json.Marshal(map[string]string{"uri": uri})
	st := approval.Statement{
		Tool:       "resources/read",
		Args:       args,
		Connection: c,
		Text:       "Read the first " + itoa(SampleRows) + " rows of " + table + " (resource " + uri + ")",
		Class:      driver.Classification{Access: driver.AccessRead},
	}
	var err error
	if d.Approver != nil {
		err = d.Approver.Approve(ctx, st)
	} else if connections.AIRights(c).Read != connections.Allowed {
		err = mcp.NewError(mcp.CodeForbidden, "forbidden: the user's AI policy for this connection asks before every read, and this server cannot ask", nil)
	}
	var te *mcp.ToolError
	if errors.As(err, &te) {
		return mcp.NewError(mcp.CodeForbidden, "forbidden: "+te.Message, nil)
	}
	return err
}

// tableNames completes {table}: the tables of connection id, when the caller may use it and it
// can be opened; nothing otherwise (a completion is a hint, not a place for errors).
func (d Deps) tableNames(ctx context.Context, id string) []string {
	drv, _, err := d.driverFor(ctx, id)
	if err != nil {
		return nil
	}
	tables, err := drv.ListTables(ctx)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(tables))
	for _, t := range tables {
		names = append(names, t.Name)
	}
	return names
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
