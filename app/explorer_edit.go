package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"app/backend/driver"
)

// Bounds of one commit: a grid holds at most a few pages of pending changes, and every row
// is one request, so a commit gets minutes rather than the usual call timeout.
const (
	maxCommitRows = 10000
	commitTimeout = 5 * time.Minute
)

// Commit actions, as RowOutcomeDTO.Action names them.
const (
	actionUpdate = "update"
	actionInsert = "insert"
	actionDelete = "delete"
)

// RowChangeDTO is one pending row of the grid. Key is the grid's own name for the row,
// echoed in its outcome. Updates carry the uuid and only the edited cells; inserts the typed
// cells and a uuid only when the user typed one; deletes the uuid. Each cell is the text the
// user typed, or null for NULL; the driver types it from the schema. (Values is map[string]any
// rather than map[string]*string because the Wails binding generator cannot model the
// latter; anything but text or null is refused.)
type RowChangeDTO struct {
	Key    string         `json:"key"`
	UUID   string         `json:"uuid"`
	Values map[string]any `json:"values"`
}

// CommitRequestDTO is every pending change of one table.
type CommitRequestDTO struct {
	Updates []RowChangeDTO `json:"updates"`
	Inserts []RowChangeDTO `json:"inserts"`
	Deletes []RowChangeDTO `json:"deletes"`
}

// RowOutcomeDTO is what happened to one pending row.
type RowOutcomeDTO struct {
	Key    string `json:"key"`
	Action string `json:"action"`
	// UUID is the row's uuid; for an insert, the one the database gave it.
	UUID string `json:"uuid"`
	// Status is "ok", "skipped" (nothing sent: a row without uuid, no edited cells) or
	// "failed"; Code and Message say why when it is not ok.
	Status  string `json:"status"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// CommitResultDTO is Commit's answer: one outcome per pending row, in the request's order
// (updates, inserts, deletes), or Declined when the deletion was not confirmed and nothing
// was sent.
type CommitResultDTO struct {
	Outcomes []RowOutcomeDTO `json:"outcomes"`
	Declined bool            `json:"declined"`
}

// CheckCells types the cells a user typed into one row, as the commit will, without sending
// anything: the driver's rule (Driver.CheckCells). It answers column -> reason for each cell
// that would be refused ({} when all fit), so the grid names a bad value where it was typed.
func (a *ExplorerAPI) CheckCells(id, table string, values map[string]any) (map[string]string, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(table) == "" {
		return nil, invalidArgument("a table name is required")
	}
	cells := make(map[string]*string, len(values))
	for name, raw := range values {
		v, err := typedText(name, raw)
		if err != nil {
			return nil, err
		}
		cells[name] = v
	}
	ctx, cancel := a.callContext()
	defer cancel()
	out, err := d.CheckCells(ctx, table, cells)
	if err != nil {
		return nil, apiError(err)
	}
	if out == nil {
		out = map[string]string{}
	}
	return out, nil
}

// typedText is one typed cell: text, or nil for NULL. Anything else (a number, a list) is not
// what the grid sends and is refused rather than guessed at.
func typedText(column string, v any) (*string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return &x, nil
	}
	return nil, invalidArgument("the value of %s must be text or null", column)
}

// Commit writes a table's pending changes: PATCH with only the edited cells of each updated
// row, POST for each new row, DELETE for each deleted one (SPEC A, Endpoints). Deleting asks
// first in a native dialog that names how many rows; No sends nothing at all. Each row
// reports its own outcome: one that fails does not stop the others, so the grid keeps the
// failed rows pending with their reason and drops the rest. A row without uuid is skipped
// and logged by the driver, no request sent.
func (a *ExplorerAPI) Commit(id, table string, req CommitRequestDTO) (CommitResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return CommitResultDTO{}, err
	}
	if err := checkCommit(table, req); err != nil {
		return CommitResultDTO{}, err
	}
	e := a.env()
	parent, confirm := e.ctx, e.confirm

	// The question is asked before the commit's time limit starts: a user who takes a while
	// to answer Yes must not find every row failed with a timeout.
	if n := len(req.Deletes); n > 0 {
		yes := false
		if confirm != nil {
			ok, err := confirm.Confirm(parent, "Delete "+rowsWord(n)+" from "+table, deleteQuestion(a.connectionName(id), table, req))
			if err != nil {
				return CommitResultDTO{}, apiError(err)
			}
			yes = ok
		}
		if !yes {
			return CommitResultDTO{Outcomes: []RowOutcomeDTO{}, Declined: true}, nil
		}
	}

	ctx, cancel := context.WithTimeout(parent, commitTimeout)
	defer cancel()
	out := CommitResultDTO{Outcomes: make([]RowOutcomeDTO, 0, len(req.Updates)+len(req.Inserts)+len(req.Deletes))}
	steps := []struct {
		action string
		rows   []RowChangeDTO
		run    func(context.Context, string, []driver.Row) ([]driver.RowResult, error)
	}{
		{actionUpdate, req.Updates, d.Update},
		{actionInsert, req.Inserts, d.Insert},
		{actionDelete, req.Deletes, d.Delete},
	}
	for _, s := range steps {
		if len(s.rows) == 0 {
			continue
		}
		results, err := s.run(ctx, table, toDriverRows(s.rows))
		out.Outcomes = append(out.Outcomes, outcomes(s.action, s.rows, results, err)...)
	}
	return out, nil
}

// checkCommit refuses a malformed commit before anything is sent.
func checkCommit(table string, req CommitRequestDTO) error {
	if strings.TrimSpace(table) == "" {
		return invalidArgument("a table name is required")
	}
	n := len(req.Updates) + len(req.Inserts) + len(req.Deletes)
	if n == 0 {
		return invalidArgument("there are no changes to commit")
	}
	if n > maxCommitRows {
		return invalidArgument("a commit holds at most %d rows; this one holds %d", maxCommitRows, n)
	}
	seen := make(map[string]bool, n)
	for _, group := range [][]RowChangeDTO{req.Updates, req.Inserts, req.Deletes} {
		for _, r := range group {
			for name, v := range r.Values {
				if _, err := typedText(name, v); err != nil {
					return err
				}
			}
			if r.Key == "" {
				return invalidArgument("every changed row needs a key")
			}
			if seen[r.Key] {
				return invalidArgument("row %q is changed twice in one commit", r.Key)
			}
			seen[r.Key] = true
		}
	}
	return nil
}

func toDriverRows(in []RowChangeDTO) []driver.Row {
	out := make([]driver.Row, len(in))
	for i, r := range in {
		// The values are text or null (checkCommit), which is what the driver types.
		out[i] = driver.Row{UUID: strings.TrimSpace(r.UUID), Values: r.Values}
	}
	return out
}

// outcomes pairs the driver's per-row results with the grid's rows. A batch that failed as a
// whole (an unknown table, the commit cancelled before a row ran) fails each of its rows
// that has no result, with the batch's reason. A batch cut off midway without results (the
// driver's plugin process died, the commit's time ran out while the plugin worked) may have
// written some of them: those rows say so, rather than claim that nothing was written.
func outcomes(action string, rows []RowChangeDTO, results []driver.RowResult, batchErr error) []RowOutcomeDTO {
	out := make([]RowOutcomeDTO, len(rows))
	for i, r := range rows {
		out[i] = RowOutcomeDTO{Key: r.Key, Action: action, UUID: r.UUID, Status: string(driver.RowFailed)}
		if batchErr != nil {
			out[i].Code, out[i].Message = errorCode(batchErr), errorMessage(batchErr)
			if driver.MayHaveWritten(batchErr) {
				out[i].Message += "; the commit was interrupted: this row " + driver.MaybeWritten + "; reload to see"
			}
		} else {
			out[i].Code, out[i].Message = string(driver.KindQueryFailed), "the driver gave no outcome for this row: it "+driver.MaybeWritten+"; reload to see"
		}
	}
	for _, res := range results {
		if res.Index < 0 || res.Index >= len(rows) {
			continue
		}
		o := &out[res.Index]
		o.Status = string(res.Status)
		if res.UUID != "" {
			o.UUID = res.UUID
		}
		o.Code, o.Message = "", ""
		if res.Status != driver.RowOK {
			o.Code, o.Message = string(res.Kind), res.Message
		}
	}
	return out
}

// deleteQuestion is the native dialog's question: how many rows, where, and what else the
// commit carries.
func deleteQuestion(conn, table string, req CommitRequestDTO) string {
	where := table
	if conn != "" {
		where = table + " on " + conn
	}
	msg := fmt.Sprintf("Delete %s from %s? This cannot be undone.", rowsWord(len(req.Deletes)), where)
	var also []string
	if n := len(req.Updates); n > 0 {
		also = append(also, fmt.Sprintf("%s edited", rowsWord(n)))
	}
	if n := len(req.Inserts); n > 0 {
		also = append(also, fmt.Sprintf("%s added", rowsWord(n)))
	}
	if len(also) > 0 {
		msg += "\n\nThe commit also writes " + strings.Join(also, " and ") + "."
	}
	return msg + "\n\nNo sends nothing."
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return fmt.Sprintf("%d rows", n)
}

// SetPendingChanges tells the backend how many rows have changes not yet written in the
// window (all table tabs), so that quitting can ask first.
func (a *ExplorerAPI) SetPendingChanges(rows int) {
	a.mu.Lock()
	a.pendingRows = max(rows, 0)
	a.mu.Unlock()
}

// beforeClose is the window's OnBeforeClose: with pending changes it asks natively whether
// to quit and discard them, as an editor asks about unsaved work (also when the session
// ends with SIGTERM, which Wails turns into the same quit). It reports whether to stay open.
func (a *ExplorerAPI) beforeClose(ctx context.Context) (prevent bool) {
	confirm := a.env().confirm
	a.mu.Lock()
	rows, asking := a.pendingRows, a.quitAsking
	if rows > 0 && confirm != nil && !asking {
		a.quitAsking = true
	}
	a.mu.Unlock()
	if rows == 0 || confirm == nil {
		return false
	}
	if asking {
		return true // the question already open decides (a signal and a click, or two signals)
	}
	defer func() {
		a.mu.Lock()
		a.quitAsking = false
		a.mu.Unlock()
	}()
	yes, err := confirm.Confirm(ctx, "Quit App", fmt.Sprintf("%s changes not yet written. Quit and discard them?", haveWord(rows)))
	return err == nil && !yes
}

// haveWord is "1 row has" or "N rows have".
func haveWord(n int) string {
	if n == 1 {
		return "1 row has"
	}
	return fmt.Sprintf("%d rows have", n)
}
