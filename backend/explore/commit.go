package explore

import (
	"context"
	"fmt"
	"strings"

	"app/backend/driver"
)

// MaxCommitRows bounds one commit: a grid holds at most a few pages of pending changes.
const MaxCommitRows = 10000

// Action is what a commit does to a row, as Outcome.Action names it.
type Action string

// Commit actions.
const (
	ActionUpdate Action = "update"
	ActionInsert Action = "insert"
	ActionDelete Action = "delete"
)

// RowChange is one pending row of a grid: Ref is the grid's own name for the row, echoed in
// its outcome. Updates carry the row's key and only the edited cells, inserts the typed cells
// (key columns among them only when typed), deletes the key. Each value is text, or nil for
// NULL.
type RowChange struct {
	Ref    string
	Key    driver.Key
	Values map[string]any
	// Original are an update's edited cells as read (driver.Row.Original).
	Original map[string]any
}

// Changes are every pending change of one table.
type Changes struct {
	Updates, Inserts, Deletes []RowChange
}

func (c Changes) rows() int { return len(c.Updates) + len(c.Inserts) + len(c.Deletes) }

// Outcome is what happened to one pending row. Status is driver.RowOK, RowSkipped or
// RowFailed; a row failed with its whole batch has Err (the batch's error, for the caller's
// code and message), and Message is then what follows the error's own text; any other
// failure has Kind and Message.
type Outcome struct {
	Ref    string
	Action Action
	Status driver.RowStatus
	// Key is the row's key; for an insert, the one the database stored it under.
	Key     driver.Key
	Kind    string
	Message string
	Err     error
}

// TypedText is one typed cell: text, or nil for NULL. Anything else (a number, a list) is not
// what a grid sends and is refused rather than guessed at.
func TypedText(column string, v any) (*string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return &x, nil
	}
	return nil, invalid("the value of %s must be text or null", column)
}

// CheckCommit refuses a malformed commit before anything is sent.
func CheckCommit(table string, c Changes) error {
	if strings.TrimSpace(table) == "" {
		return invalid("a table name is required")
	}
	n := c.rows()
	if n == 0 {
		return invalid("there are no changes to commit")
	}
	if n > MaxCommitRows {
		return invalid("a commit holds at most %d rows; this one holds %d", MaxCommitRows, n)
	}
	seen := make(map[string]bool, n)
	for _, group := range [][]RowChange{c.Updates, c.Inserts, c.Deletes} {
		for _, r := range group {
			for _, cells := range []map[string]any{r.Values, r.Original} {
				for name, v := range cells {
					if _, err := TypedText(name, v); err != nil {
						return err
					}
				}
			}
			if r.Ref == "" {
				return invalid("every changed row needs the grid's name for it")
			}
			if seen[r.Ref] {
				return invalid("row %q is changed twice in one commit", r.Ref)
			}
			seen[r.Ref] = true
		}
	}
	return nil
}

// Commit writes the changes (checked by CheckCommit): the updates, the inserts, then the
// deletes, each row with its own outcome, in that order. A row that fails does not stop the
// others.
func Commit(ctx context.Context, d driver.Driver, table string, c Changes) []Outcome {
	out := make([]Outcome, 0, c.rows())
	steps := []struct {
		action Action
		rows   []RowChange
		run    func(context.Context, string, []driver.Row) ([]driver.RowResult, error)
	}{
		{ActionUpdate, c.Updates, d.Update},
		{ActionInsert, c.Inserts, d.Insert},
		{ActionDelete, c.Deletes, d.Delete},
	}
	for _, s := range steps {
		if len(s.rows) == 0 {
			continue
		}
		rows := make([]driver.Row, len(s.rows))
		for i, r := range s.rows {
			// The values are text or null (CheckCommit), which is what the driver types.
			rows[i] = driver.Row{Key: trimKey(r.Key), Values: r.Values, Original: r.Original}
		}
		results, err := s.run(ctx, table, rows)
		out = append(out, Outcomes(s.action, s.rows, results, err)...)
	}
	return out
}

// trimKey is k with its text values trimmed, as a person's typing is: a key cell copied
// with a space still names its row. Nil and empty keys stay as they are.
func trimKey(k driver.Key) driver.Key {
	if len(k) == 0 {
		return k
	}
	out := make(driver.Key, len(k))
	for c, v := range k {
		if s, ok := v.(string); ok {
			v = strings.TrimSpace(s)
		}
		out[c] = v
	}
	return out
}

// Outcomes pairs the driver's per-row results with the grid's rows. A batch that failed as a
// whole (an unknown table, the commit cancelled before a row ran) fails each of its rows that
// has no result, with the batch's error. A batch cut off midway without results (the driver's
// plugin process died, the commit's time ran out while the plugin worked) may have written
// some of them: those rows say so, rather than claim that nothing was written.
func Outcomes(action Action, rows []RowChange, results []driver.RowResult, batchErr error) []Outcome {
	out := make([]Outcome, len(rows))
	for i, r := range rows {
		out[i] = Outcome{Ref: r.Ref, Action: action, Key: r.Key, Status: driver.RowFailed}
		switch {
		case batchErr != nil:
			out[i].Err = batchErr
			if driver.MayHaveWritten(batchErr) {
				out[i].Message = "; the commit was interrupted: this row " + driver.MaybeWritten + "; reload to see"
			}
		default:
			out[i].Kind, out[i].Message = string(driver.KindQueryFailed), "the driver gave no outcome for this row: it "+driver.MaybeWritten+"; reload to see"
		}
	}
	for _, res := range results {
		if res.Index < 0 || res.Index >= len(rows) {
			continue
		}
		o := &out[res.Index]
		o.Status = res.Status
		if len(res.Key) > 0 {
			o.Key = res.Key
		}
		o.Kind, o.Message, o.Err = "", "", nil
		if res.Status != driver.RowOK {
			o.Kind, o.Message = string(res.Kind), res.Message
		}
	}
	return out
}

// DeleteQuestion is the question asked before a commit deletes rows: how many, where (the
// table, on conn when named), and what else the commit carries.
func DeleteQuestion(conn, table string, c Changes) (title, message string) {
	where := table
	if conn != "" {
		where = table + " on " + conn
	}
	msg := fmt.Sprintf("Delete %s from %s? This cannot be undone.", rowsWord(len(c.Deletes)), where)
	var also []string
	if n := len(c.Updates); n > 0 {
		also = append(also, fmt.Sprintf("%s edited", rowsWord(n)))
	}
	if n := len(c.Inserts); n > 0 {
		also = append(also, fmt.Sprintf("%s added", rowsWord(n)))
	}
	if len(also) > 0 {
		msg += "\n\nThe commit also writes " + strings.Join(also, " and ") + "."
	}
	return "Delete " + rowsWord(len(c.Deletes)) + " from " + table, msg + "\n\nNo sends nothing."
}

// QuitQuestion is the question asked before quitting with rows changed and not yet written.
func QuitQuestion(rows int) (title, message string) {
	have := fmt.Sprintf("%d rows have", rows)
	if rows == 1 {
		have = "1 row has"
	}
	return "Quit App", have + " changes not yet written. Quit and discard them?"
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}
