// Package tools is the app's MCP tool table: each tool's definition (JSON
// Schema of its arguments and its output, annotations, scope) and handler,
// one file and one test file per tool. It imports backend/mcp and is wired
// into the server by backend/core through mcp.Options.Tools; backend/mcp
// never imports it.
//
// The tools see the user's connections only through Deps.Conns, so that
// what an AI client may see is decided in one place (connections.VisibleToAI).
// Each tool is made by define from an argument and a result struct, which
// give its schemas.
package tools

import (
	"time"

	"app/backend/mcp"
)

// Deps are what the tools need from the rest of the backend.
type Deps struct {
	// Conns reaches the saved connections and opens them.
	Conns Conns
	// Approver decides whether a statement may run (backend/approval.Gate).
	Approver Approver
	// Limits are the MCP panel's row limits and statement timeout, read per call so a change
	// in Settings applies at once; nil uses DefaultLimits.
	Limits func() Limits
	// SchemaMaxAge is how old a schema read the schema tools may answer from (schema.go);
	// 0 is DefaultSchemaMaxAge.
	SchemaMaxAge time.Duration
}

// Limits bound what one tool call reads (SPEC issue 12: default 500 rows, at most 10,000).
type Limits struct {
	DefaultRows int
	MaxRows     int
	// QueryTimeout bounds one statement; 0 leaves only the request's own deadline.
	QueryTimeout time.Duration
}

// DefaultLimits are the limits of a new install (config.DefaultSettings).
var DefaultLimits = Limits{DefaultRows: 500, MaxRows: 10000, QueryTimeout: 30 * time.Second}

// limits returns the limits in force now.
func (d Deps) limits() Limits {
	l := DefaultLimits
	if d.Limits != nil {
		l = d.Limits()
	}
	if l.MaxRows <= 0 {
		l.MaxRows = DefaultLimits.MaxRows
	}
	if l.DefaultRows <= 0 || l.DefaultRows > l.MaxRows {
		l.DefaultRows = min(DefaultLimits.DefaultRows, l.MaxRows)
	}
	return l
}

// All is the tool table in listing order.
func All(d Deps) []mcp.Tool {
	return []mcp.Tool{
		ListConnections(d),
		// read tools
		ConnectionStatus(d),
		Connect(d),
		Disconnect(d),
		ListTables(d),
		DescribeTable(d),
		SearchSchema(d),
		BrowseTable(d),
		CountRows(d),
		VectorSearch(d),
		// statement tools (write approval: backend/approval)
		ExecuteQuery(d),
		InsertRows(d),
		UpdateRows(d),
		DeleteRows(d),
		ConfirmDestructive(d),
	}
}
