package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/sirupsen/logrus"

	"app/backend/config"
)

// Layout limits: what the window remembers is small and bounded, whatever the frontend (or a
// hand-edited file) sends.
const (
	layoutFile = "layout.json"
	// layoutMaxBytes bounds what is read of layout.json: a document at every limit below is
	// a few MB; a larger file is not one the app wrote, and is read as the empty layout.
	layoutMaxBytes = 16 << 20
	// layoutMaxProblems is how many broken entries one log line names.
	layoutMaxProblems = 20
	// layoutMaxTabs is the most tabs remembered.
	layoutMaxTabs = 100
	// layoutMaxTables is the most tables with remembered column widths, and the most
	// connections with a remembered last table.
	layoutMaxTables = 200
	// layoutMaxColumns is the most remembered column widths of one table.
	layoutMaxColumns = 500
	// layoutMinWidth and layoutMaxWidth bound a column's width in CSS pixels.
	layoutMinWidth = 40
	layoutMaxWidth = 2000
	// layoutMaxText bounds every id, table and column name in the document.
	layoutMaxText = 512
)

// layoutKinds are the tab kinds the window reopens; whether each names a connection and a table.
var layoutKinds = map[string]struct{ connection, table bool }{
	"connection": {true, false},
	"editor":     {true, false},
	"table":      {true, true},
	"settings":   {false, false},
}

// TabDTO is one remembered tab. ConnectionID is set for every kind but "settings"; Table only
// for "table".
type TabDTO struct {
	Kind         string `json:"kind"`
	ConnectionID string `json:"connectionId"`
	Table        string `json:"table"`
}

// LayoutDTO is what the window remembers between runs: the open tabs and the active one (its
// tab key, opaque here), the last table opened per connection id, and column widths per
// "connectionId/table" key, column name -> pixels.
type LayoutDTO struct {
	Tabs         []TabDTO                  `json:"tabs"`
	Active       string                    `json:"active"`
	LastTable    map[string]string         `json:"lastTable"`
	ColumnWidths map[string]map[string]int `json:"columnWidths"`
}

func emptyLayout() LayoutDTO {
	return LayoutDTO{Tabs: []TabDTO{}, LastTable: map[string]string{}, ColumnWidths: map[string]map[string]int{}}
}

// LayoutAPI keeps the window's layout in layout.json in the config dir: one small file, written
// atomically with mode 0600, that survives the webview's storage and that the user can delete
// to start afresh. A file that cannot be read is logged and treated as an empty layout: it is
// only layout, and it never keeps the window from opening. Its exported methods are bound to
// the frontend (frontend/wailsjs/go/app/LayoutAPI).
type LayoutAPI struct {
	path string // "" keeps the layout in memory only
	log  logrus.FieldLogger

	mu  sync.Mutex
	mem LayoutDTO
}

// NewLayoutAPI returns the layout store in dir ("" keeps it in memory); log receives the
// reason a stored layout was ignored or trimmed.
func NewLayoutAPI(dir string, log logrus.FieldLogger) *LayoutAPI {
	a := &LayoutAPI{log: log, mem: emptyLayout()}
	if dir != "" {
		a.path = filepath.Join(dir, layoutFile)
	}
	return a
}

// Layout returns the remembered layout: empty when there is none, when the file is not valid
// JSON, or trimmed of the entries that break a rule (each logged).
func (a *LayoutAPI) Layout() (LayoutDTO, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.path == "" {
		return cloneLayout(a.mem), nil
	}
	data, err := readAtMost(a.path, layoutMaxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return emptyLayout(), nil
	}
	if err != nil {
		a.warn("the layout file could not be read; starting with an empty layout", err)
		return emptyLayout(), nil
	}
	var l LayoutDTO
	if err := json.Unmarshal(data, &l); err != nil {
		a.warn("the layout file is not a layout document (bad JSON or the wrong shape); starting with an empty layout (the next change replaces it)", err)
		return emptyLayout(), nil
	}
	clean, problems := cleanLayout(l)
	if len(problems) > layoutMaxProblems {
		problems = append(problems[:layoutMaxProblems], fmt.Sprintf("and %d more", len(problems)-layoutMaxProblems))
	}
	if len(problems) > 0 {
		a.warn("the layout file breaks a rule; those entries are dropped", errors.New(strings.Join(problems, "; ")))
	}
	return clean, nil
}

// readAtMost reads a file that must not be larger than limit bytes.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MB", path, limit>>20)
	}
	return data, nil
}

// SaveLayout replaces the remembered layout. A layout that breaks a rule (an unknown tab kind,
// a width outside 40..2000 px, too many entries, ...) is invalid_argument and changes nothing.
func (a *LayoutAPI) SaveLayout(l LayoutDTO) error {
	clean, problems := cleanLayout(l)
	if len(problems) > 0 {
		return invalidArgument("layout not saved: %s", strings.Join(problems, "; "))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.path == "" {
		a.mem = clean
		return nil
	}
	data, err := json.MarshalIndent(clean, "", "  ")
	if err != nil {
		return apiError(fmt.Errorf("encode layout: %w", err))
	}
	return apiError(config.WriteFileAtomic(a.path, append(data, '\n')))
}

func (a *LayoutAPI) warn(msg string, err error) {
	if a.log != nil {
		a.log.WithField("file", a.path).WithError(err).Warn(msg)
	}
}

// cleanLayout returns l without the entries that break a rule, with non-nil collections, and
// says what it dropped (nothing: l keeps every rule).
func cleanLayout(l LayoutDTO) (LayoutDTO, []string) {
	out := emptyLayout()
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	seen := map[TabDTO]bool{}
	for i, t := range l.Tabs {
		if len(out.Tabs) == layoutMaxTabs {
			bad("more than %d tabs", layoutMaxTabs)
			break
		}
		if msg := tabProblem(t); msg != "" {
			bad("tab %d: %s", i+1, msg)
			continue
		}
		if seen[t] {
			bad("tab %d: the same tab twice", i+1)
			continue
		}
		seen[t] = true
		out.Tabs = append(out.Tabs, t)
	}
	if len(l.Active) > 3*layoutMaxText {
		bad("the active tab key is longer than %d characters", 3*layoutMaxText)
	} else {
		out.Active = l.Active
	}

	for _, id := range sortedKeys(l.LastTable) {
		if len(out.LastTable) == layoutMaxTables {
			bad("last tables of more than %d connections", layoutMaxTables)
			break
		}
		table := l.LastTable[id]
		if msg := nameProblem("connection id", id); msg != "" {
			bad("last table: %s", msg)
			continue
		}
		if msg := nameProblem("table", table); msg != "" {
			bad("last table of %q: %s", id, msg)
			continue
		}
		out.LastTable[id] = table
	}

	for _, key := range sortedKeys(l.ColumnWidths) {
		if len(out.ColumnWidths) == layoutMaxTables {
			bad("column widths of more than %d tables", layoutMaxTables)
			break
		}
		if msg := widthKeyProblem(key); msg != "" {
			bad("column widths: %s", msg)
			continue
		}
		cols := l.ColumnWidths[key]
		kept := map[string]int{}
		for _, col := range sortedKeys(cols) {
			if len(kept) == layoutMaxColumns {
				bad("column widths of %q: more than %d columns", key, layoutMaxColumns)
				break
			}
			w := cols[col]
			if msg := nameProblem("column", col); msg != "" {
				bad("column widths of %q: %s", key, msg)
				continue
			}
			if w < layoutMinWidth || w > layoutMaxWidth {
				bad("column widths of %q: %q is %d px, outside %d..%d", key, col, w, layoutMinWidth, layoutMaxWidth)
				continue
			}
			kept[col] = w
		}
		if len(kept) > 0 {
			out.ColumnWidths[key] = kept
		}
	}
	return out, problems
}

// tabProblem says why t is not a tab the window can reopen ("" when it is).
func tabProblem(t TabDTO) string {
	k, ok := layoutKinds[t.Kind]
	if !ok {
		return fmt.Sprintf("unknown kind %q (connection, editor, table or settings)", t.Kind)
	}
	if k.connection {
		if msg := nameProblem("connection id", t.ConnectionID); msg != "" {
			return msg
		}
	} else if t.ConnectionID != "" {
		return fmt.Sprintf("a %s tab names no connection", t.Kind)
	}
	if k.table {
		return nameProblem("table", t.Table)
	}
	if t.Table != "" {
		return fmt.Sprintf("a %s tab names no table", t.Kind)
	}
	return ""
}

// widthKeyProblem checks a "connectionId/table" key.
func widthKeyProblem(key string) string {
	id, table, ok := strings.Cut(key, "/")
	if !ok {
		return fmt.Sprintf("key %q is not connectionId/table", key)
	}
	if msg := nameProblem("connection id", id); msg != "" {
		return msg
	}
	return nameProblem("table", table)
}

func nameProblem(what, s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return fmt.Sprintf("empty %s", what)
	case len(s) > layoutMaxText:
		return fmt.Sprintf("%s longer than %d characters", what, layoutMaxText)
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func cloneLayout(l LayoutDTO) LayoutDTO {
	out, _ := cleanLayout(l)
	return out
}
