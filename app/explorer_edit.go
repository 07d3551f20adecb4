package app

import (
	"context"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/explore"
)

// commitTimeout bounds one commit: every row is one request, so a commit gets minutes rather
// than the usual call timeout.
const commitTimeout = 5 * time.Minute

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
func (a *ExplorerAPI) Commit(id, table string, req dto.CommitRequestDTO) (dto.CommitResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.CommitResultDTO{}, err
	}
	changes := explore.Changes{Updates: dto.RowChanges(req.Updates), Inserts: dto.RowChanges(req.Inserts), Deletes: dto.RowChanges(req.Deletes)}
	if err := explore.CheckCommit(table, changes); err != nil {
		return dto.CommitResultDTO{}, apiError(err)
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
				return dto.CommitResultDTO{}, apiError(err)
			}
			yes = ok
		}
		if !yes {
			return dto.CommitResultDTO{Outcomes: []dto.RowOutcomeDTO{}, Declined: true}, nil
		}
	}

	ctx, cancel := context.WithTimeout(e.ctx, commitTimeout)
	defer cancel()
	outcomes := explore.Commit(ctx, d, table, changes)
	out := dto.CommitResultDTO{Outcomes: make([]dto.RowOutcomeDTO, len(outcomes))}
	for i, o := range outcomes {
		out.Outcomes[i] = dto.RowOutcomeDTO{Ref: o.Ref, Action: o.Action, Key: o.Key, Status: o.Status, Code: o.Kind, Message: o.Message}
		if o.Err != nil {
			out.Outcomes[i].Code, out.Outcomes[i].Message = errorCode(o.Err), errorMessage(o.Err)+o.Message
		}
	}
	return out, nil
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
