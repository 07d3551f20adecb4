package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"app/backend/mcp"
)

// NameCountRows counts a table's rows, optionally filtered.
const NameCountRows = "count_rows"

type countArgs struct {
	target
	Filters []filterArg `json:"filters,omitempty"`
}

// countResult is count_rows' structuredContent.
type countResult struct {
	Table    string `json:"table"`
	Count    int64  `json:"count"`
	Filtered bool   `json:"filtered"`
}

// CountRows is the count_rows tool: Driver.Count with the same filters as browse_table, so a
// model can size a table before paging through it.
func CountRows(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameCountRows,
		Title:       "Count rows",
		Description: "Counts a table's rows, or those matching the filters (same filters as browse_table).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a countArgs, raw json.RawMessage) (string, countResult, error) {
		table := a.table()
		filters := filtersOf(a.Filters)
		where := describeFilters(filters, nil)
		drv, c, err := d.use(ctx, a.Connection, read(NameCountRows, raw, "count rows of "+table+where))
		if err != nil {
			return "", countResult{}, err
		}
		var n int64
		err = d.query(ctx, "counting", func(ctx context.Context) error {
			var err error
			n, err = drv.Count(ctx, table, filters)
			return err
		})
		if err != nil {
			return "", countResult{}, a.explainTenant(err, d.words(c))
		}
		mcp.CallFrom(ctx).Progress(1, 1, "counted")
		res := countResult{Table: table, Count: n, Filtered: len(filters) > 0}
		text := fmt.Sprintf("%s: %d rows", table, n)
		if res.Filtered {
			text = fmt.Sprintf("%s: %d rows%s", table, n, where)
		}
		return text, res, nil
	})
}
