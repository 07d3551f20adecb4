package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"app/backend/config"
	"app/backend/driver"
)

// Editor limits: a statement runs at most runTimeout (Cancel stops it sooner); history
// keeps the newest historyMax entries per connection.
const (
	runTimeout     = 5 * time.Minute
	historyMax     = 500
	historyFile    = "editor-history.json"
	savedNameLimit = 200
)

// EditorAPI is the query editor's view of the backend: run a statement (GraphQL read or a
// REST line) on an open connection, cancel it, and keep the per-connection history and
// saved queries. Its exported methods are bound to the frontend
// (frontend/wailsjs/go/app/EditorAPI).
//
// Whatever the driver's Classify calls a write asks the native Confirmer first (SPEC A,
// GraphQL editor rules 4). The facade never reads the text itself: a second reader once
// missed a REST line behind a byte-order mark and ran a DELETE unasked (issue 25). A GraphQL
// mutation is never asked about: Classify refuses it with the spec's reason.
type EditorAPI struct {
	open Opener

	mu      sync.Mutex
	ctx     context.Context // the window's context once started; Background before
	confirm Confirmer
	running map[string]map[int]context.CancelFunc // connection id -> run -> cancel
	nextRun int

	// name gives a connection's saved name for the confirmation's title (set by Run).
	name func(id string) string

	history *config.JSONFile[editorStore] // nil: history is kept in memory only
	mem     editorStore
	now     func() time.Time
}

// editorStore is the history file: per connection, newest first.
type editorStore struct {
	History map[string][]HistoryEntryDTO `json:"history"`
	Saved   map[string][]SavedQueryDTO   `json:"saved"`
}

func newEditorStore() editorStore {
	return editorStore{History: map[string][]HistoryEntryDTO{}, Saved: map[string][]SavedQueryDTO{}}
}

// NewEditorAPI returns the editor facade; dir is the config dir holding the history file
// ("" keeps history in memory).
func NewEditorAPI(open Opener, dir string) *EditorAPI {
	a := &EditorAPI{open: open, ctx: context.Background(), running: map[string]map[int]context.CancelFunc{}, mem: newEditorStore(), now: time.Now}
	if dir != "" {
		a.history = config.NewJSONFile(filepath.Join(dir, historyFile), newEditorStore)
	}
	return a
}

func (a *EditorAPI) startup(ctx context.Context, confirm Confirmer) {
	a.mu.Lock()
	a.ctx, a.confirm = ctx, confirm
	a.mu.Unlock()
}

// RunResultDTO is Run's answer. Kind is "grid" (a Get: Grid holds the selected fields,
// `_additional.id` as uuid, every other `_additional` member its own column), "json" (JSON
// holds the formatted document) or "not_run" (the user said No; Message says so).
type RunResultDTO struct {
	Kind        string   `json:"kind"`
	Grid        *GridDTO `json:"grid"`
	JSON        string   `json:"json"`
	Table       string   `json:"table"`
	Status      int      `json:"status"`
	Message     string   `json:"message"`
	Access      string   `json:"access"`
	Destructive bool     `json:"destructive"`
	ElapsedMs   int64    `json:"elapsedMs"`
	// Notice is what the driver says about the answer (translated from GraphQL to the
	// server's gRPC API; cut at a row limit), "" when nothing.
	Notice string `json:"notice"`
}

// HistoryEntryDTO is one statement run in the editor.
type HistoryEntryDTO struct {
	Text string `json:"text"`
	// At is when it ran (RFC 3339).
	At string `json:"at"`
	// OK is false when it failed; Error then holds the `code: message` text.
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// SavedQueryDTO is a named query of a connection.
type SavedQueryDTO struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Run classifies text and runs it on the open connection. A write or destructive REST line
// is confirmed natively first; No answers Kind "not_run" and nothing is sent. Errors (a
// GraphQL error, a REST error status, a refused mutation) come back as `code: message`.
// Cancel(connectionID) stops it.
func (a *EditorAPI) Run(connectionID, text string) (RunResultDTO, error) {
	if strings.TrimSpace(text) == "" {
		return RunResultDTO{}, invalidArgument("the statement is empty")
	}
	if strings.TrimSpace(connectionID) == "" {
		return RunResultDTO{}, invalidArgument("a connection id is required")
	}
	d, ok := a.open.Driver(connectionID)
	if !ok {
		return RunResultDTO{}, unavailable("the connection is not open: connect to it first")
	}
	cls, clsErr := d.Classify(text)
	if clsErr != nil {
		// Text that cannot be classified cannot run either (a malformed REST line or GraphQL
		// that does not parse): the reason, and nothing asked or sent.
		a.record(connectionID, text, clsErr)
		return RunResultDTO{}, apiError(clsErr)
	}
	out := RunResultDTO{Access: string(cls.Access), Destructive: cls.Destructive}

	ctx, done := a.begin(connectionID)
	defer done()

	if cls.Write() {
		a.mu.Lock()
		confirm := a.confirm
		a.mu.Unlock()
		yes := false
		if confirm != nil {
			msg := fmt.Sprintf("Run this write on the connection?\n\n%s", strings.TrimSpace(text))
			if cls.Destructive {
				msg += "\n\nIt deletes or replaces data. This cannot be undone."
			}
			ok, err := confirm.Confirm(ctx, "Run a write on "+a.connectionName(connectionID), msg)
			if err != nil {
				return RunResultDTO{}, apiError(err)
			}
			yes = ok
		}
		if !yes {
			out.Kind = "not_run"
			out.Message = "Not run: the write was not confirmed, nothing was sent."
			return out, nil
		}
	}

	start := a.now()
	res, err := d.Execute(ctx, text, driver.ExecOptions{})
	out.ElapsedMs = a.now().Sub(start).Milliseconds()
	a.record(connectionID, text, err)
	if err != nil {
		if ctx.Err() == context.Canceled {
			return RunResultDTO{}, fmt.Errorf("%s: the query was cancelled", driver.KindCancelled)
		}
		return RunResultDTO{}, apiError(err)
	}
	out.Kind, out.Table, out.Status, out.Notice = string(res.Kind), res.Table, res.Status, res.Notice
	if res.Kind == driver.ResultGrid && res.Grid != nil {
		g := toGridDTO(res.Grid)
		out.Grid = &g
	} else {
		out.Kind = string(driver.ResultJSON)
		out.JSON = string(res.JSON)
	}
	return out, nil
}

// connectionName is the saved name of the connection for the dialog's title.
func (a *EditorAPI) connectionName(id string) string {
	if a.name != nil {
		if name := a.name(id); name != "" {
			return "“" + name + "”"
		}
	}
	return "“" + id + "”"
}

// begin registers a cancellable run of the connection; done unregisters it.
func (a *EditorAPI) begin(connectionID string) (context.Context, func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ctx, cancel := context.WithTimeout(a.ctx, runTimeout)
	a.nextRun++
	n := a.nextRun
	if a.running[connectionID] == nil {
		a.running[connectionID] = map[int]context.CancelFunc{}
	}
	a.running[connectionID][n] = cancel
	return ctx, func() {
		cancel()
		a.mu.Lock()
		delete(a.running[connectionID], n)
		if len(a.running[connectionID]) == 0 {
			delete(a.running, connectionID)
		}
		a.mu.Unlock()
	}
}

// Cancel stops every running statement of the connection; it reports whether one was
// running.
func (a *EditorAPI) Cancel(connectionID string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	runs := a.running[connectionID]
	for _, c := range runs {
		c()
	}
	return len(runs) > 0
}

func (a *EditorAPI) update(fn func(*editorStore)) error {
	if a.history == nil {
		a.mu.Lock()
		fn(&a.mem)
		a.mu.Unlock()
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return a.history.Update(ctx, func(s *editorStore) error {
		if s.History == nil {
			s.History = map[string][]HistoryEntryDTO{}
		}
		if s.Saved == nil {
			s.Saved = map[string][]SavedQueryDTO{}
		}
		fn(s)
		return nil
	})
}

func (a *EditorAPI) load() (editorStore, error) {
	if a.history == nil {
		a.mu.Lock()
		defer a.mu.Unlock()
		s := newEditorStore()
		for k, v := range a.mem.History {
			s.History[k] = append([]HistoryEntryDTO(nil), v...)
		}
		for k, v := range a.mem.Saved {
			s.Saved[k] = append([]SavedQueryDTO(nil), v...)
		}
		return s, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return a.history.Load(ctx)
}

// record adds a run to the connection's history, newest first; a repeat of the newest
// entry replaces it.
func (a *EditorAPI) record(connectionID, text string, runErr error) {
	e := HistoryEntryDTO{Text: strings.TrimSpace(text), At: a.now().UTC().Format(time.RFC3339), OK: runErr == nil}
	if runErr != nil {
		e.Error = apiError(runErr).Error()
	}
	_ = a.update(func(s *editorStore) {
		h := s.History[connectionID]
		if len(h) > 0 && h[0].Text == e.Text {
			h = h[1:]
		}
		h = append([]HistoryEntryDTO{e}, h...)
		if len(h) > historyMax {
			h = h[:historyMax]
		}
		s.History[connectionID] = h
	})
}

// History lists the connection's history, newest first, keeping the entries whose text
// holds every word of search (case-insensitive). It never returns null.
func (a *EditorAPI) History(connectionID, search string) ([]HistoryEntryDTO, error) {
	s, err := a.load()
	if err != nil {
		return nil, apiError(err)
	}
	words := strings.Fields(strings.ToLower(search))
	out := []HistoryEntryDTO{}
	for _, e := range s.History[connectionID] {
		t := strings.ToLower(e.Text)
		match := true
		for _, w := range words {
			if !strings.Contains(t, w) {
				match = false
				break
			}
		}
		if match {
			out = append(out, e)
		}
	}
	return out, nil
}

// ClearHistory empties the connection's history.
func (a *EditorAPI) ClearHistory(connectionID string) error {
	return apiError(a.update(func(s *editorStore) { delete(s.History, connectionID) }))
}

// SavedQueries lists the connection's saved queries by name. It never returns null.
func (a *EditorAPI) SavedQueries(connectionID string) ([]SavedQueryDTO, error) {
	s, err := a.load()
	if err != nil {
		return nil, apiError(err)
	}
	return append([]SavedQueryDTO{}, s.Saved[connectionID]...), nil
}

// SaveQuery saves (or replaces, by name) a named query of the connection.
func (a *EditorAPI) SaveQuery(connectionID, name, text string) error {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > savedNameLimit {
		return invalidArgument("a saved query needs a name of 1 to %d characters", savedNameLimit)
	}
	if strings.TrimSpace(text) == "" {
		return invalidArgument("the query is empty")
	}
	return apiError(a.update(func(s *editorStore) {
		list := s.Saved[connectionID]
		for i, q := range list {
			if q.Name == name {
				list[i].Text = text
				return
			}
		}
		s.Saved[connectionID] = append(list, SavedQueryDTO{Name: name, Text: text})
	}))
}

// DeleteSavedQuery removes the named saved query of the connection.
func (a *EditorAPI) DeleteSavedQuery(connectionID, name string) error {
	return apiError(a.update(func(s *editorStore) {
		list := s.Saved[connectionID]
		for i, q := range list {
			if q.Name == name {
				s.Saved[connectionID] = append(list[:i:i], list[i+1:]...)
				return
			}
		}
	}))
}
