package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/driver"
	"app/backend/mcp"
)

// Names of the row tools.
const (
	NameInsertRows = "insert_rows"
	NameUpdateRows = "update_rows"
	NameDeleteRows = "delete_rows"
)

// MaxRowsPerWrite bounds one row tool call: the person approves what they can read.
const MaxRowsPerWrite = 1000

// rowBatch is how many rows go to the driver at once; progress advances per batch.
const rowBatch = 50

type rowsArgs struct {
	Connection string       `json:"connection"`
	Table      string       `json:"table"`
	Tenant     string       `json:"tenant"`
	Rows       []driver.Row `json:"rows"`
	UUIDs      []string     `json:"uuids"`
}

type rowOp struct {
	name, title, desc string
	destructive       bool
	// run is the driver call for one batch.
	run func(ctx context.Context, drv driver.Driver, table string, rows []driver.Row) ([]driver.RowResult, error)
	// verb and describe make the approval text.
	verb string
}

// InsertRows, UpdateRows and DeleteRows write rows through the driver's row calls (REST
// POST, PATCH and DELETE of /v1/objects), each approved by the user; delete is destructive
// and its approval is never remembered. They need the write scope (auth.ScopeToolsWrite).
func InsertRows(d Deps) mcp.Tool {
	return d.rowTool(rowOp{
		name: NameInsertRows, title: "Insert rows", verb: "insert",
		desc: "Inserts rows into a table after the user approves: rows are {values: {property: value}, uuid?}. Returns each row's outcome.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Insert(ctx, t, rows)
		},
	})
}

// UpdateRows: see InsertRows.
func UpdateRows(d Deps) mcp.Tool {
	return d.rowTool(rowOp{
		name: NameUpdateRows, title: "Update rows", verb: "update",
		desc: "Updates only the given values of rows by uuid after the user approves: rows are {uuid, values: {property: value}}.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Update(ctx, t, rows)
		},
	})
}

// DeleteRows: see InsertRows.
func DeleteRows(d Deps) mcp.Tool {
	return d.rowTool(rowOp{
		name: NameDeleteRows, title: "Delete rows", verb: "delete", destructive: true,
		desc: "Deletes rows by uuid after the user confirms. Cannot be undone.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Delete(ctx, t, rows)
		},
	})
}

func (d Deps) rowTool(op rowOp) mcp.Tool {
	row := object(map[string]*jsonschema.Schema{
		"uuid":   str(""),
		"values": {Type: "object"},
	})
	props := map[string]*jsonschema.Schema{"connection": connectionArg(), "table": tableArg(), "tenant": tenantArg()}
	required := []string{"connection", "table"}
	maxItems := MaxRowsPerWrite
	if op.destructive {
		props["uuids"] = &jsonschema.Schema{Type: "array", Items: typed("string"), MinItems: jsonschema.Ptr(1), MaxItems: &maxItems}
		required = append(required, "uuids")
	} else {
		props["rows"] = &jsonschema.Schema{Type: "array", Items: row, MinItems: jsonschema.Ptr(1), MaxItems: &maxItems}
		required = append(required, "rows")
	}
	return mcp.Tool{
		Name:        op.name,
		Title:       op.title,
		Description: op.desc,
		InputSchema: object(props, required...),
		OutputSchema: outObject(map[string]*jsonschema.Schema{
			"ok": typed("integer"), "failed": typed("integer"), "skipped": typed("integer"),
			"rows": arrayOf(typed("object")),
		}, "ok", "failed", "skipped", "rows"),
		Scope:       auth.ScopeToolsWrite,
		Write:       true,
		Annotations: &mcp.ToolAnnotations{Title: op.title, DestructiveHint: op.destructive, IdempotentHint: op.name != NameInsertRows},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a rowsArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			a.Table = driver.TenantTable(a.Table, a.Tenant)
			for _, u := range a.UUIDs {
				a.Rows = append(a.Rows, driver.Row{UUID: u})
			}
			st := approval.Statement{
				Tool: op.name, Args: raw, Text: rowsText(op.verb, a.Table, a.Rows),
				Class: driver.Classification{Access: driver.AccessWrite, Destructive: op.destructive},
			}
			drv, c, err := d.use(ctx, a.Connection, st)
			if err != nil {
				return nil, err
			}
			call := mcp.CallFrom(ctx)
			results := make([]driver.RowResult, 0, len(a.Rows))
			for start := 0; start < len(a.Rows); start += rowBatch {
				end := min(start+rowBatch, len(a.Rows))
				call.Progress(float64(start), float64(len(a.Rows)), fmt.Sprintf("%s rows %d-%d of %d", op.verb, start+1, end, len(a.Rows)))
				var got []driver.RowResult
				err := d.run(ctx, func(ctx context.Context) error {
					var err error
					got, err = op.run(ctx, drv, a.Table, a.Rows[start:end])
					return err
				})
				if err == nil {
					for _, r := range got {
						r.Index += start
						results = append(results, r)
					}
					continue
				}
				cut := mayHaveWritten(err)
				if len(results) == 0 && len(got) == 0 && !cut {
					return nil, FromError(err) // nothing was sent: one error says it all
				}
				results = append(results, cutRows(a.Rows, start, end, got, cut, FromError(err).Error())...)
				res := rowsResult(op.verb, c.Name, a.Table, results)
				var pe *mcp.Error
				if errors.As(err, &pe) {
					// The statement timeout ends the request with its protocol error (SPEC.md B,
					// "States and transitions"); the rows' outcomes travel in its data.
					return nil, mcp.NewError(pe.Code, pe.Message+"; "+firstLine(res.Text), res.Structured)
				}
				return res, nil
			}
			call.Progress(float64(len(a.Rows)), float64(len(a.Rows)), "done")
			return rowsResult(op.verb, c.Name, a.Table, results), nil
		},
	}
}

// mayHaveWritten tells whether a batch that ended with err may have written some of its rows:
// the driver's rule (driver.MayHaveWritten), or the statement timeout, which ends a batch
// while its requests are out.
func mayHaveWritten(err error) bool {
	var pe *mcp.Error
	if errors.As(err, &pe) {
		return pe.Code == mcp.CodeRequestTimeout
	}
	return driver.MayHaveWritten(err)
}

// cutRows are the outcomes of rows[start:] when the batch rows[start:end] ended with an error
// (why): the rows the driver reported keep their outcome; the batch's other rows were sent or
// about to be, so they may or may not be written when the batch was cut (else they failed with
// the batch); the rows after the batch were not run.
func cutRows(rows []driver.Row, start, end int, got []driver.RowResult, cut bool, why string) []driver.RowResult {
	out := make([]driver.RowResult, 0, len(rows)-start)
	reported := map[int]driver.RowResult{}
	for _, r := range got {
		reported[r.Index+start] = r
	}
	for i := start; i < len(rows); i++ {
		if r, ok := reported[i]; ok {
			r.Index = i
			out = append(out, r)
			continue
		}
		r := driver.RowResult{Index: i, UUID: rows[i].UUID, Status: driver.RowFailed, Message: "not run: " + why}
		if i < end {
			r.Message = "failed with its batch: " + why
			if cut {
				r.Message = driver.MaybeWritten + ": the batch was cut (" + why + "); read the row back to see"
			}
		}
		out = append(out, r)
	}
	return out
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// rowsText is what the person approves: the verb, the table and each row, one per line.
func rowsText(verb, table string, rows []driver.Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d row(s) of %s:", verb, len(rows), table)
	for _, r := range rows {
		b.WriteString("\n")
		if r.UUID != "" {
			b.WriteString(r.UUID)
			if r.Values != nil {
				b.WriteString(" ")
			}
		}
		if r.Values != nil {
			v, _ := json.Marshal(r.Values)
			b.Write(v)
		}
		if b.Len() > approval.MaxStatementChars {
			break
		}
	}
	return b.String()
}

func rowsResult(verb, conn, table string, results []driver.RowResult) *mcp.ToolResult {
	counts := map[driver.RowStatus]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	maybe := 0
	for _, r := range results {
		if r.Status == driver.RowFailed && strings.Contains(r.Message, driver.MaybeWritten) {
			maybe++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s.%s: %d ok, %d failed", verb, conn, table, counts[driver.RowOK], counts[driver.RowFailed])
	if maybe > 0 {
		fmt.Fprintf(&b, " (%d of them %s)", maybe, driver.MaybeWritten)
	}
	fmt.Fprintf(&b, ", %d skipped", counts[driver.RowSkipped])
	for _, r := range results {
		if r.Status == driver.RowOK {
			continue
		}
		fmt.Fprintf(&b, "\nrow %d %s: %s %s", r.Index, r.UUID, r.Status, r.Message)
		if b.Len() > maxTextBytes-200 {
			b.WriteString("\n[cut; every row's outcome is in structuredContent.rows]")
			break
		}
	}
	if results == nil {
		results = []driver.RowResult{}
	}
	return &mcp.ToolResult{Text: b.String(), Structured: map[string]any{
		"ok": counts[driver.RowOK], "failed": counts[driver.RowFailed], "skipped": counts[driver.RowSkipped], "rows": results,
	}}
}
