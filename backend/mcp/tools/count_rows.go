package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameCountRows counts a table's rows, optionally filtered.
const NameCountRows = "count_rows"

type countArgs struct {
	Connection string      `json:"connection"`
	Table      string      `json:"table"`
	Tenant     string      `json:"tenant"`
	Filters    []filterArg `json:"filters"`
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
	return mcp.Tool{
		Name:        NameCountRows,
		Title:       "Count rows",
		Description: "Counts a table's rows, or those matching the filters (same filters as browse_table).",
		InputSchema: object(map[string]*jsonschema.Schema{
			"connection": connectionArg(),
			"table":      tableArg(),
			"tenant":     tenantArg(),
			"filters":    filtersArg(),
		}, "connection", "table"),
		OutputSchema: outObject(map[string]*jsonschema.Schema{
			"table":    typed("string"),
			"count":    typed("integer"),
			"filtered": typed("boolean"),
		}, "table", "count"),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a countArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			a.Table = driver.TenantTable(a.Table, a.Tenant)
			filters := filtersOf(a.Filters)
			where := describeFilters(filters, nil)
			drv, _, err := d.use(ctx, a.Connection, read(NameCountRows, raw, "count rows of "+a.Table+where))
			if err != nil {
				return nil, err
			}
			call := mcp.CallFrom(ctx)
			call.Progress(0, 1, "counting")
			var n int64
			err = d.run(ctx, func(ctx context.Context) error {
				var err error
				n, err = drv.Count(ctx, a.Table, filters)
				return err
			})
			if err != nil {
				return nil, FromError(err)
			}
			call.Progress(1, 1, "counted")
			res := countResult{Table: a.Table, Count: n, Filtered: len(filters) > 0}
			text := fmt.Sprintf("%s: %d rows", a.Table, n)
			if res.Filtered {
				text = fmt.Sprintf("%s: %d rows%s", a.Table, n, where)
			}
			return &mcp.ToolResult{Text: text, Structured: res}, nil
		},
	}
}
