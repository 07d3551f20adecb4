package app

import (
	"context"
	"strings"
	"time"

	"app/backend/explore"
)

// commitTimeout bounds one commit: every row is one request, so a commit gets minutes rather
// than the usual call timeout.
const commitTimeout = 5 * time.Minute

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
		v, err := explore.TypedText(name, raw)
		if err != nil {
			return nil, apiError(err)
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
	changes := explore.Changes{Updates: toRowChanges(req.Updates), Inserts: toRowChanges(req.Inserts), Deletes: toRowChanges(req.Deletes)}
	if err := explore.CheckCommit(table, changes); err != nil {
		return CommitResultDTO{}, apiError(err)
	}
	e := a.env()

	// The question is asked before the commit's time limit starts: a user who takes a while
	// to answer Yes must not find every row failed with a timeout.
	if len(req.Deletes) > 0 {
		yes := false
		if e.confirm != nil {
			title, msg := explore.DeleteQuestion(a.connectionName(id), table, changes)
			ok, err := e.confirm.Confirm(e.ctx, title, msg)
			if err != nil {
				return CommitResultDTO{}, apiError(err)
			}
			yes = ok
		}
		if !yes {
			return CommitResultDTO{Outcomes: []RowOutcomeDTO{}, Declined: true}, nil
		}
	}

	ctx, cancel := context.WithTimeout(e.ctx, commitTimeout)
	defer cancel()
	outcomes := explore.Commit(ctx, d, table, changes)
	out := CommitResultDTO{Outcomes: make([]RowOutcomeDTO, len(outcomes))}
	for i, o := range outcomes {
		out.Outcomes[i] = RowOutcomeDTO{Key: o.Key, Action: o.Action, UUID: o.UUID, Status: o.Status, Code: o.Kind, Message: o.Message}
		if o.Err != nil {
			out.Outcomes[i].Code, out.Outcomes[i].Message = errorCode(o.Err), errorMessage(o.Err)+o.Message
		}
	}
	return out, nil
}

func toRowChanges(in []RowChangeDTO) []explore.RowChange {
	out := make([]explore.RowChange, len(in))
	for i, r := range in {
		out[i] = explore.RowChange(r)
	}
	return out
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
	title, msg := explore.QuitQuestion(rows)
	yes, err := confirm.Confirm(ctx, title, msg)
	return err == nil && !yes
}
