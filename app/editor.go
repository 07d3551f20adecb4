package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"app/app/dto"
	"app/backend/core"
	"app/backend/driver"
	"app/backend/explore"
	"app/backend/queries"
)

// runTimeout bounds one statement (Cancel stops it sooner).
const runTimeout = 5 * time.Minute

// EditorAPI is the query editor's view of the backend: run a statement (GraphQL read or a
// REST line) on an open connection, cancel it, and the per-connection history and saved
// queries (backend/queries). Its exported methods are bound to the frontend
// (frontend/wailsjs/go/app/EditorAPI).
//
// Whatever the driver's Classify calls a write asks the native Confirmer first (SPEC A,
// GraphQL editor rules 4). The facade never reads the text itself: a second reader once
// missed a REST line behind a byte-order mark and ran a DELETE unasked (issue 25). A GraphQL
// mutation is never asked about: Classify refuses it with the spec's reason.
type EditorAPI struct {
	base
	open    Opener
	queries *queries.Store

	// running are the statements running, by connection id.
	running explore.Running
}

// NewEditorAPI returns the editor facade; dir is the config dir holding the history file
// ("" keeps history in memory).
func NewEditorAPI(open Opener, dir string) *EditorAPI {
	return &EditorAPI{open: open, queries: queries.Open(dir)}
}

func (a *EditorAPI) wire(c *core.Core) {
	a.open, a.queries = c.OpenConnections(), queries.Open(c.Dir())
}

// Run classifies text and runs it on the open connection. A write or destructive REST line
// is confirmed natively first; No answers Kind "not_run" and nothing is sent. Errors (a
// GraphQL error, a REST error status, a refused mutation) come back as `code: message`.
// Cancel(connectionID) stops it.
func (a *EditorAPI) Run(connectionID, text string) (dto.RunResultDTO, error) {
	if strings.TrimSpace(text) == "" {
		return dto.RunResultDTO{}, invalidArgument("the statement is empty")
	}
	if strings.TrimSpace(connectionID) == "" {
		return dto.RunResultDTO{}, invalidArgument("a connection id is required")
	}
	d, ok := a.open.Driver(connectionID)
	if !ok {
		return dto.RunResultDTO{}, unavailable("the connection is not open: connect to it first")
	}
	cls, clsErr := d.Classify(text)
	if clsErr != nil {
		// Text that cannot be classified cannot run either (a malformed REST line or GraphQL
		// that does not parse): the reason, and nothing asked or sent.
		a.record(connectionID, text, clsErr)
		return dto.RunResultDTO{}, apiError(clsErr)
	}
	out := dto.RunResultDTO{Access: string(cls.Access), Destructive: cls.Destructive}

	ctx, done := a.begin(connectionID)
	defer done()

	if cls.Write() {
		confirm := a.env().confirm
		yes := false
		if confirm != nil {
			msg := fmt.Sprintf("Run this write on the connection?\n\n%s", strings.TrimSpace(text))
			if cls.Destructive {
				msg += "\n\nIt deletes or replaces data. This cannot be undone."
			}
			ok, err := confirm.Confirm(ctx, "Run a write on "+a.quotedName(connectionID), msg)
			if err != nil {
				return dto.RunResultDTO{}, apiError(err)
			}
			yes = ok
		}
		if !yes {
			out.Kind = dto.RunNotRun
			out.Message = "Not run: the write was not confirmed, nothing was sent."
			return out, nil
		}
	}

	start := time.Now()
	res, err := d.Execute(ctx, text, driver.ExecOptions{})
	out.ElapsedMs = time.Since(start).Milliseconds()
	a.record(connectionID, text, err)
	if err != nil {
		if ctx.Err() == context.Canceled {
			return dto.RunResultDTO{}, fmt.Errorf("%s: the query was cancelled", driver.KindCancelled)
		}
		return dto.RunResultDTO{}, apiError(err)
	}
	set := dto.ResultSet(res)
	out.Kind, out.Grid, out.JSON, out.Text, out.Tag, out.Notice = dto.RunKind(set.Kind), set.Grid, set.JSON, set.Text, set.Tag, set.Notice
	out.Table, out.Status = res.Table, res.Status
	out.Before = make([]dto.ResultSetDTO, len(res.Before))
	for i := range res.Before {
		out.Before[i] = dto.ResultSet(&res.Before[i])
	}
	return out, nil
}

// quotedName is the saved name of the connection, quoted, for a dialog's title.
func (b *base) quotedName(id string) string {
	if name := b.connectionName(id); name != "" {
		return "“" + name + "”"
	}
	return "“" + id + "”"
}

// begin registers a cancellable run of the connection; done unregisters it.
func (a *EditorAPI) begin(connectionID string) (context.Context, func()) {
	run, done := a.running.Start(a.parent(), connectionID)
	ctx, cancel := context.WithTimeout(run, runTimeout)
	return ctx, func() { cancel(); done() }
}

// Cancel stops every running statement of the connection; it reports whether one was
// running.
func (a *EditorAPI) Cancel(connectionID string) bool { return a.running.Cancel(connectionID) }

// record adds a run to the connection's history.
func (a *EditorAPI) record(connectionID, text string, runErr error) {
	failure := ""
	if runErr != nil {
		failure = apiError(runErr).Error()
	}
	ctx, cancel := a.callContext()
	defer cancel()
	_ = a.queries.Record(ctx, connectionID, text, failure)
}

// History lists the connection's history, newest first, keeping the entries whose text
// holds every word of search (case-insensitive). It never returns null.
func (a *EditorAPI) History(connectionID, search string) ([]dto.HistoryEntryDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	h, err := a.queries.History(ctx, connectionID, search)
	return dto.FromHistory(h), apiError(err)
}

// ClearHistory empties the connection's history.
func (a *EditorAPI) ClearHistory(connectionID string) error {
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.queries.ClearHistory(ctx, connectionID))
}

// SavedQueries lists the connection's saved queries by name. It never returns null.
func (a *EditorAPI) SavedQueries(connectionID string) ([]dto.SavedQueryDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.queries.Saved(ctx, connectionID)
	return dto.FromSaved(list), apiError(err)
}

// SaveQuery saves (or replaces, by name) a named query of the connection.
func (a *EditorAPI) SaveQuery(connectionID, name, text string) error {
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.queries.Save(ctx, connectionID, name, text))
}

// DeleteSavedQuery removes the named saved query of the connection.
func (a *EditorAPI) DeleteSavedQuery(connectionID, name string) error {
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.queries.Delete(ctx, connectionID, name))
}

// Completions are the words the editor completes for the open connection, as its driver names
// them (driver.Completer): each table's columns and the functions its language calls. Named is
// false for a driver that names none (the editor then completes each table's described
// columns).
func (a *EditorAPI) Completions(connectionID string) (dto.EditorWordsDTO, error) {
	d, ok := a.open.Driver(connectionID)
	if !ok {
		return dto.EditorWordsDTO{}, unavailable("the connection is not open: connect to it first")
	}
	c, ok := d.(driver.Completer)
	if !ok || !driver.Offered(d).Completions {
		return dto.EditorWordsDTO{Tables: map[string][]string{}, Functions: []string{}}, nil
	}
	ctx, cancel := a.callContext()
	defer cancel()
	words, err := c.Completions(ctx)
	if err != nil {
		return dto.EditorWordsDTO{}, apiError(err)
	}
	out := dto.EditorWordsDTO{Named: true, Tables: words.Tables, Functions: words.Functions}
	if out.Tables == nil {
		out.Tables = map[string][]string{}
	}
	if out.Functions == nil {
		out.Functions = []string{}
	}
	return out, nil
}

// Templates are the editor's template menu for the open connection: statements in its
// driver's language written for table ("" for none chosen). A driver without templates (or a
// plugin built before them) offers none: the list is empty, never null.
func (a *EditorAPI) Templates(connectionID, table string) ([]dto.TemplateDTO, error) {
	d, ok := a.open.Driver(connectionID)
	if !ok {
		return nil, unavailable("the connection is not open: connect to it first")
	}
	out := []dto.TemplateDTO{}
	tm, ok := d.(driver.TemplateMaker)
	if !ok {
		return out, nil
	}
	ctx, cancel := a.callContext()
	defer cancel()
	ts, err := tm.Templates(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	for _, t := range ts {
		out = append(out, dto.TemplateDTO(t))
	}
	return out, nil
}
