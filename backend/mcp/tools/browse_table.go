package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameBrowseTable reads one page of a table, filtered and sorted as the grid does.
const NameBrowseTable = "browse_table"

type browseArgs struct {
	Connection string        `json:"connection"`
	Table      string        `json:"table"`
	Tenant     string        `json:"tenant"`
	Offset     int           `json:"offset"`
	Limit      int           `json:"limit"`
	Filters    []filterArg   `json:"filters"`
	Sort       []driver.Sort `json:"sort"`
	Vectors    bool          `json:"vectors"`
}

// BrowseTable is the browse_table tool: one page of rows through the connection's driver
// (Driver.Browse), the limit applied in the query. It asks for one row more than the limit to
// know whether more exist, and a cut page says so with the offset of the next one.
func BrowseTable(d Deps) mcp.Tool {
	return mcp.Tool{
		Name:        NameBrowseTable,
		Title:       "Browse table",
		Description: "Reads a page of rows, optionally filtered (filters ANDed, a group ORed) and sorted. Says if more rows exist and the next offset.",
		InputSchema: object(map[string]*jsonschema.Schema{
			"connection": connectionArg(),
			"table":      tableArg(),
			"tenant":     tenantArg(),
			"offset":     integer("", 0),
			"limit":      limitArg(),
			"filters":    filtersArg(),
			"sort": arrayOf(object(map[string]*jsonschema.Schema{
				"column": typed("string"), "descending": typed("boolean"),
			}, "column")),
			"vectors": typed("boolean"),
		}, "connection", "table"),
		OutputSchema: pageOutput(),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a browseArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			a.Table = driver.TenantTable(a.Table, a.Tenant)
			limit, note := d.rowLimit(a.Limit)
			filters := filtersOf(a.Filters)
			what := fmt.Sprintf("browse %s rows %d-%d%s", a.Table, a.Offset+1, a.Offset+limit, describeFilters(filters, a.Sort))
			drv, _, err := d.use(ctx, a.Connection, read(NameBrowseTable, raw, what))
			if err != nil {
				return nil, err
			}
			call := mcp.CallFrom(ctx)
			call.Progress(0, 1, "reading rows")
			var g *driver.Grid
			err = d.run(ctx, func(ctx context.Context) error {
				var err error
				// The driver reads one row more than the page to know whether more exist
				// (Grid.HasMore).
				page := driver.Page{Offset: a.Offset, Limit: limit, Vectors: driver.VectorsFull}
				if !a.Vectors {
					page.Vectors = driver.VectorsPreview // left out below: only previews cross the plugin boundary
				}
				g, err = drv.Browse(ctx, a.Table, page, filters, a.Sort)
				return err
			})
			if err != nil {
				return nil, FromError(err)
			}
			p := pageOf(a.Table, g, a.Offset, limit)
			if !a.Vectors {
				p.dropColumns(func(i int) bool { return g.Columns[i].IsVector() })
			}
			p.addNote(note)
			call.Progress(1, 1, fmt.Sprintf("read %d rows", len(p.Rows)))
			text := p.text(a.Table+describeFilters(filters, a.Sort), func(next int) string {
				return fmt.Sprintf("call %s with offset %d", NameBrowseTable, next)
			})
			return &mcp.ToolResult{Text: text, Structured: p}, nil
		},
	}
}
