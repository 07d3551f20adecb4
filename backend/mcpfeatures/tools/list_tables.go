package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameListTables lists the tables (collections) of a connection.
const NameListTables = "list_tables"

// tableList is list_tables' structuredContent.
type tableList struct {
	Tables []driver.Table `json:"tables"`
}

// ListTables is the list_tables tool: Driver.ListTables, name and description of each table.
// The driver gives no row counts here (count_rows counts one table on demand, so listing a
// node with many collections stays one request).
func ListTables(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameListTables,
		Title:       "List tables",
		Description: "Lists the tables (collections) of a connection with their descriptions. A multi-tenant table needs tenant in the table tools.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a connArgs, raw json.RawMessage) (string, tableList, error) {
		drv, c, err := d.use(ctx, a.Connection, read(NameListTables, raw, "list the tables"))
		if err != nil {
			return "", tableList{}, err
		}
		var tables []driver.Table
		err = d.query(ctx, "listing tables", func(ctx context.Context) error {
			var err error
			tables, err = d.listTables(ctx, drv)
			return err
		})
		if err != nil {
			return "", tableList{}, err
		}
		if tables == nil {
			tables = []driver.Table{}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d tables in %s", len(tables), c.Name)
		for _, t := range tables {
			b.WriteString("\n" + t.Name)
			if t.MultiTenant {
				b.WriteString(" (multi-tenant: pass tenant)")
			}
			if t.Description != "" {
				b.WriteString(" -- " + truncate(oneLine(t.Description), 200))
			}
		}
		return capText(b.String(), "structuredContent lists every table"), tableList{Tables: tables}, nil
	})
}
