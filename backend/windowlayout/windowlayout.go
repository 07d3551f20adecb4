// Package windowlayout is what the window remembers between runs (the open tabs, the active
// one, the last table per connection, column widths) and the rules such a layout keeps: one
// small file, layout.json in the config dir, written atomically with mode 0600. A file that
// breaks a rule is trimmed of the broken entries (each logged); one that cannot be read is
// logged and read as the empty layout: it is only layout, and never keeps the window from
// opening.
package windowlayout

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
	"app/backend/driver"
)

// Limits: what the window remembers is small and bounded, whatever the frontend (or a
// hand-edited file) sends.
const (
	File = "layout.json"
	// maxBytes bounds what is read of layout.json: a document at every limit below is
	// a few MB; a larger file is not one the app wrote, and is read as the empty layout.
	maxBytes = 16 << 20
	// maxProblems is how many broken entries one log line names.
	maxProblems = 20
	// MaxTabs is the most tabs remembered.
	MaxTabs = 100
	// MaxTables is the most tables with remembered column widths, and the most
	// connections with a remembered last table.
	MaxTables = 200
	// MaxColumns is the most remembered column widths of one table.
	MaxColumns = 500
	// MinWidth and MaxWidth bound a column's width in CSS pixels.
	MinWidth = 40
	MaxWidth = 2000
	// MaxText bounds every id, table and column name in the document.
	MaxText = 512
)

// TabKind is what a remembered tab shows.
type TabKind string

// The tab kinds the window reopens.
const (
	TabConnection TabKind = "connection"
	TabEditor     TabKind = "editor"
	TabTable      TabKind = "table"
	TabSettings   TabKind = "settings"
)

// kinds are the tab kinds the window reopens; whether each names a connection and a table.
var kinds = map[TabKind]struct{ connection, table bool }{
	TabConnection: {true, false},
	TabEditor:     {true, false},
	TabTable:      {true, true},
	TabSettings:   {false, false},
}

// Tab is one remembered tab. ConnectionID is set for every kind but "settings"; Table only
// for "table".
type Tab struct {
	Kind         TabKind `json:"kind"`
	ConnectionID string  `json:"connectionId"`
	Table        string  `json:"table"`
}

// Layout is what the window remembers between runs: the open tabs and the active one (its
// tab key, opaque here), the last table opened per connection id, and column widths per
// "connectionId/table" key, column name -> pixels.
type Layout struct {
	Tabs         []Tab                     `json:"tabs"`
	Active       string                    `json:"active"`
	LastTable    map[string]string         `json:"lastTable"`
	ColumnWidths map[string]map[string]int `json:"columnWidths"`
}

func Empty() Layout {
	return Layout{Tabs: []Tab{}, LastTable: map[string]string{}, ColumnWidths: map[string]map[string]int{}}
}

// Store keeps the layout in the config dir's layout.json, or in memory.
type Store struct {
	path string // "" keeps the layout in memory only
	log  logrus.FieldLogger

	mu  sync.Mutex
	mem Layout
}

// Open returns the layout store in dir ("" keeps it in memory); log receives the reason a
// stored layout was ignored or trimmed.
func Open(dir string, log logrus.FieldLogger) *Store {
	s := &Store{log: log, mem: Empty()}
	if dir != "" {
		s.path = filepath.Join(dir, File)
	}
	return s
}

// Load returns the remembered layout: empty when there is none, when the file is not valid
// JSON, or trimmed of the entries that break a rule (each logged).
func (a *Store) Load() (Layout, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.path == "" {
		return cloneLayout(a.mem), nil
	}
	data, err := readAtMost(a.path, maxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return Empty(), nil
	}
	if err != nil {
		a.warn("the layout file could not be read; starting with an empty layout", err)
		return Empty(), nil
	}
	var l Layout
	if err := json.Unmarshal(data, &l); err != nil {
		a.warn("the layout file is not a layout document (bad JSON or the wrong shape); starting with an empty layout (the next change replaces it)", err)
		return Empty(), nil
	}
	clean, problems := cleanLayout(l)
	if len(problems) > maxProblems {
		problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", len(problems)-maxProblems))
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

// Save replaces the remembered layout. A layout that breaks a rule (an unknown tab kind, a
// width outside 40..2000 px, too many entries, ...) is an invalid_argument driver.Error and
// changes nothing.
func (a *Store) Save(l Layout) error {
	clean, problems := cleanLayout(l)
	if len(problems) > 0 {
		return driver.Errorf(driver.KindInvalidArgument, "layout not saved: %s", strings.Join(problems, "; "))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.path == "" {
		a.mem = clean
		return nil
	}
	data, err := json.MarshalIndent(clean, "", "  ")
	if err != nil {
		return fmt.Errorf("encode layout: %w", err)
	}
	return config.WriteFileAtomic(a.path, append(data, '\n'))
}

func (a *Store) warn(msg string, err error) {
	if a.log != nil {
		a.log.WithField("file", a.path).WithError(err).Warn(msg)
	}
}

// cleanLayout returns l without the entries that break a rule, with non-nil collections, and
// says what it dropped (nothing: l keeps every rule).
func cleanLayout(l Layout) (Layout, []string) {
	out := Empty()
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	seen := map[Tab]bool{}
	for i, t := range l.Tabs {
		if len(out.Tabs) == MaxTabs {
			bad("more than %d tabs", MaxTabs)
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
	if len(l.Active) > 3*MaxText {
		bad("the active tab key is longer than %d characters", 3*MaxText)
	} else {
		out.Active = l.Active
	}

	for _, id := range sortedKeys(l.LastTable) {
		if len(out.LastTable) == MaxTables {
			bad("last tables of more than %d connections", MaxTables)
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
		if len(out.ColumnWidths) == MaxTables {
			bad("column widths of more than %d tables", MaxTables)
			break
		}
		if msg := widthKeyProblem(key); msg != "" {
			bad("column widths: %s", msg)
			continue
		}
		cols := l.ColumnWidths[key]
		kept := map[string]int{}
		for _, col := range sortedKeys(cols) {
			if len(kept) == MaxColumns {
				bad("column widths of %q: more than %d columns", key, MaxColumns)
				break
			}
			w := cols[col]
			if msg := nameProblem("column", col); msg != "" {
				bad("column widths of %q: %s", key, msg)
				continue
			}
			if w < MinWidth || w > MaxWidth {
				bad("column widths of %q: %q is %d px, outside %d..%d", key, col, w, MinWidth, MaxWidth)
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
func tabProblem(t Tab) string {
	k, ok := kinds[t.Kind]
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
	case len(s) > MaxText:
		return fmt.Sprintf("%s longer than %d characters", what, MaxText)
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

func cloneLayout(l Layout) Layout {
	out, _ := cleanLayout(l)
	return out
}
