package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameBrowseTable reads one page of a table, filtered and sorted as the grid does.
const NameBrowseTable = "browse_table"

type browseArgs struct {
	target
	Offset  rowOffset     `json:"offset,omitempty"`
	Limit   rowLimit      `json:"limit,omitempty"`
	Filters []filterArg   `json:"filters,omitempty"`
	Sort    []driver.Sort `json:"sort,omitempty"`
	Vectors bool          `json:"vectors,omitempty"`
}

// BrowseTable is the browse_table tool: one page of rows through the connection's driver
// (Driver.Browse), the limit applied in the query. It asks for one row more than the limit to
// know whether more exist, and a cut page says so with the offset of the next one.
func BrowseTable(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameBrowseTable,
		Title:       "Browse table",
		Description: "Reads a page of rows, optionally filtered (filters ANDed, a group ORed) and sorted. Says if more rows exist and the next offset.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a browseArgs, raw json.RawMessage) (string, page, error) {
		table, offset := a.table(), int(a.Offset)
		limit, note := d.pageLimit(a.Limit)
		filters := filtersOf(a.Filters)
		what := fmt.Sprintf("browse %s rows %d-%d%s", table, offset+1, offset+limit, describeFilters(filters, a.Sort))
		drv, c, err := d.use(ctx, a.Connection, read(NameBrowseTable, raw, what))
		if err != nil {
			return "", page{}, err
		}
		var g *driver.Grid
		err = d.query(ctx, "reading rows", func(ctx context.Context) error {
			var err error
			// The driver reads one row more than the page to know whether more exist
			// (Grid.HasMore).
			page := driver.Page{Offset: offset, Limit: limit, Vectors: driver.VectorsFull}
			if !a.Vectors {
				page.Vectors = driver.VectorsPreview // left out below: only previews cross the plugin boundary
			}
			g, err = drv.Browse(ctx, table, page, filters, a.Sort)
			return err
		})
		if err != nil {
			return "", page{}, a.explainTenant(err, d.words(c))
		}
		p := pageOf(table, g, offset, limit)
		if !a.Vectors {
			p.dropColumns(func(i int) bool { return g.Columns[i].IsVector() })
		}
		p.addNote(note)
		mcp.CallFrom(ctx).Progress(1, 1, fmt.Sprintf("read %d rows", len(p.Rows)))
		text := p.text(table+describeFilters(filters, a.Sort), func(next int) string {
			return fmt.Sprintf("call %s with offset %d", NameBrowseTable, next)
		})
		return text, p, nil
	})
}
