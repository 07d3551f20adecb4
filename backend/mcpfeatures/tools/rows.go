package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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

// rowArg is one row as insert_rows and update_rows take it: update_rows finds it by its key
// (the table's key columns, as describe_table names them); insert_rows reads a key given as
// the key columns' values.
type rowArg struct {
	Key    keyArg         `json:"key,omitempty"`
	Values map[string]any `json:"values,omitempty"`
}

// rowsArgs are the arguments of insert_rows and update_rows, keysArgs those of delete_rows.
type rowsArgs struct {
	target
	Rows rowList `json:"rows"`
}

type keysArgs struct {
	target
	Keys keyList `json:"keys"`
}

// rowsIn is what the row tools' arguments give: the table and the rows, and how a failure on
// a tenant that is not active is explained (target).
type rowsIn interface {
	table() string
	connection() string
	rows() []driver.Row
	explainTenant(err error, w *driver.Words) error
	explainRows(results []driver.RowResult, w *driver.Words) string
}

func (a rowsArgs) rows() []driver.Row {
	out := make([]driver.Row, len(a.Rows))
	for i, r := range a.Rows {
		out[i] = driver.Row{Key: driver.Key(r.Key), Values: r.Values}
	}
	return out
}

func (a keysArgs) rows() []driver.Row {
	out := make([]driver.Row, len(a.Keys))
	for i, k := range a.Keys {
		out[i] = driver.Row{Key: driver.Key(k)}
	}
	return out
}

// rowsOutcome is the row tools' structuredContent: counts and each row's outcome.
type rowsOutcome struct {
	OK      int                `json:"ok"`
	Failed  int                `json:"failed"`
	Skipped int                `json:"skipped"`
	Rows    []driver.RowResult `json:"rows"`
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
	return rowTool[rowsArgs](d, rowOp{
		name: NameInsertRows, title: "Insert rows", verb: "insert",
		desc: "Inserts rows into a table after the user approves: rows are {values: {column: value}}; leave out the key columns where the database makes the key. Returns each row's outcome and key.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Insert(ctx, t, rows)
		},
	})
}

// UpdateRows: see InsertRows.
func UpdateRows(d Deps) mcp.Tool {
	return rowTool[rowsArgs](d, rowOp{
		name: NameUpdateRows, title: "Update rows", verb: "update",
		desc: "Updates only the given values of rows after the user approves: rows are {key: {keyColumn: value}, values: {column: value}}; describe_table names the key columns.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Update(ctx, t, rows)
		},
	})
}

// DeleteRows: see InsertRows.
func DeleteRows(d Deps) mcp.Tool {
	return rowTool[keysArgs](d, rowOp{
		name: NameDeleteRows, title: "Delete rows", verb: "delete", destructive: true,
		desc: "Deletes rows by key after the user confirms: keys are [{keyColumn: value}]. Cannot be undone.",
		run: func(ctx context.Context, drv driver.Driver, t string, rows []driver.Row) ([]driver.RowResult, error) {
			return drv.Delete(ctx, t, rows)
		},
	})
}

func rowTool[In rowsIn](d Deps, op rowOp) mcp.Tool {
	return define(spec{
		Name:        op.name,
		Title:       op.title,
		Description: op.desc,
		Scope:       auth.ScopeToolsWrite,
		Write:       true,
		Annotations: &mcp.ToolAnnotations{Title: op.title, DestructiveHint: op.destructive, IdempotentHint: op.name != NameInsertRows},
	}, func(ctx context.Context, a In, raw json.RawMessage) (string, rowsOutcome, error) {
		table, rows := a.table(), a.rows()
		st := approval.Statement{
			Tool: op.name, Args: raw, Text: rowsText(op.verb, table, rows),
			Class: driver.Classification{Access: driver.AccessWrite, Destructive: op.destructive},
		}
		drv, c, err := d.use(ctx, a.connection(), st)
		if err != nil {
			return "", rowsOutcome{}, err
		}
		call := mcp.CallFrom(ctx)
		results := make([]driver.RowResult, 0, len(rows))
		for start := 0; start < len(rows); start += rowBatch {
			end := min(start+rowBatch, len(rows))
			call.Progress(float64(start), float64(len(rows)), fmt.Sprintf("%s rows %d-%d of %d", op.verb, start+1, end, len(rows)))
			var got []driver.RowResult
			err := d.run(ctx, func(ctx context.Context) error {
				var err error
				got, err = op.run(ctx, drv, table, rows[start:end])
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
				return "", rowsOutcome{}, a.explainTenant(err, d.words(c)) // nothing was sent: one error says it all
			}
			results = append(results, cutRows(rows, start, end, got, cut, FromError(err).Error())...)
			text, out := rowsResult(op.verb, c.Name, table, results)
			text += a.explainRows(results, d.words(c))
			var pe *mcp.Error
			if errors.As(err, &pe) {
				// The statement timeout ends the request with its protocol error (SPEC.md B,
				// "States and transitions"); the rows' outcomes travel in its data.
				return "", rowsOutcome{}, mcp.NewError(pe.Code, pe.Message+"; "+firstLine(text), out)
			}
			return text, out, nil
		}
		call.Progress(float64(len(rows)), float64(len(rows)), "done")
		text, out := rowsResult(op.verb, c.Name, table, results)
		return text + a.explainRows(results, d.words(c)), out, nil
	})
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
		r := driver.RowResult{Index: i, Key: rows[i].Key, Status: driver.RowFailed, Message: "not run: " + why}
		if i < end {
			r.Message = "failed with its batch: " + why
			if cut {
				r.Message = driver.MaybeWritten + ": the batch was cut (" + why + "); read the row back to see"
				r.MaybeWritten = true
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
		if len(r.Key) > 0 {
			k, _ := json.Marshal(r.Key)
			b.Write(k)
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

func rowsResult(verb, conn, table string, results []driver.RowResult) (string, rowsOutcome) {
	counts := map[driver.RowStatus]int{}
	for _, r := range results {
		counts[r.Status]++
	}
	maybe := 0
	for _, r := range results {
		if r.Status == driver.RowFailed && r.MaybeWritten {
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
		fmt.Fprintf(&b, "\nrow %d %s: %s %s", r.Index, r.Key.Text(), r.Status, r.Message)
		if b.Len() > maxTextBytes-200 {
			b.WriteString("\n[cut; every row's outcome is in structuredContent.rows]")
			break
		}
	}
	if results == nil {
		results = []driver.RowResult{}
	}
	return b.String(), rowsOutcome{OK: counts[driver.RowOK], Failed: counts[driver.RowFailed], Skipped: counts[driver.RowSkipped], Rows: results}
}
