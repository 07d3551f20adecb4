package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameListTables lists the tables (collections) of a connection.
const NameListTables = "list_tables"

type connArgs struct {
	Connection string `json:"connection"`
}

// ListTables is the list_tables tool: Driver.ListTables, name and description of each table.
// The driver gives no row counts here (count_rows counts one table on demand, so listing a
// node with many collections stays one request).
func ListTables(d Deps) mcp.Tool {
	return mcp.Tool{
		Name:         NameListTables,
		Title:        "List tables",
		Description:  "Lists the tables (collections) of a connection with their descriptions. A multi-tenant table needs tenant in the table tools.",
		InputSchema:  object(map[string]*jsonschema.Schema{"connection": connectionArg()}, "connection"),
		OutputSchema: outObject(map[string]*jsonschema.Schema{"tables": typed("array")}, "tables"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a connArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			drv, c, err := d.use(ctx, a.Connection, read(NameListTables, raw, "list the tables"))
			if err != nil {
				return nil, err
			}
			var tables []driver.Table
			err = d.run(ctx, func(ctx context.Context) error {
				var err error
				tables, err = drv.ListTables(ctx)
				return err
			})
			if err != nil {
				return nil, FromError(err)
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
			text := capText(b.String(), "structuredContent lists every table")
			return &mcp.ToolResult{Text: text, Structured: map[string]any{"tables": tables}}, nil
		},
	}
}
