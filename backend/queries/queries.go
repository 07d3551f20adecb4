// Package queries keeps what the query editor remembers per connection: the statements run
// (newest first, the newest HistoryMax) and the named, saved queries. Both live in one JSON
// file of the config dir (editor-history.json, written atomically under a lock, so the window
// and a CLI command may share it), or in memory when there is no config dir.
package queries

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"app/backend/config"
	"app/backend/driver"
)

// Limits: the history keeps the newest HistoryMax entries per connection; a saved query's
// name is 1 to NameLimit characters.
const (
	HistoryMax = 500
	NameLimit  = 200
	// File is the document's name in the config dir.
	File = "editor-history.json"
)

// Entry is one statement run.
type Entry struct {
	Text string `json:"text"`
	// At is when it ran (RFC 3339, UTC).
	At string `json:"at"`
	// OK is false when it failed; Error then holds the reason.
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// Query is a named query of a connection.
type Query struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// document is the file: per connection id, the history newest first and the saved queries in
// the order they were saved.
type document struct {
	History map[string][]Entry `json:"history"`
	Saved   map[string][]Query `json:"saved"`
}

func newDocument() document {
	return document{History: map[string][]Entry{}, Saved: map[string][]Query{}}
}

// Store is the editor's history and saved queries.
type Store struct {
	file *config.JSONFile[document] // nil: in memory only
	// Now is the clock of Record (time.Now).
	Now func() time.Time

	mu  sync.Mutex
	mem document
}

// Open returns the store in the config dir dir ("" keeps it in memory).
func Open(dir string) *Store {
	s := &Store{Now: time.Now, mem: newDocument()}
	if dir != "" {
		s.file = config.NewJSONFile(filepath.Join(dir, File), newDocument)
	}
	return s
}

func (s *Store) update(ctx context.Context, fn func(*document)) error {
	if s.file == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		fn(&s.mem)
		return nil
	}
	return s.file.Update(ctx, func(d *document) error {
		if d.History == nil {
			d.History = map[string][]Entry{}
		}
		if d.Saved == nil {
			d.Saved = map[string][]Query{}
		}
		fn(d)
		return nil
	})
}

// load returns a copy of the document: the caller may keep it.
func (s *Store) load(ctx context.Context) (document, error) {
	if s.file != nil {
		return s.file.Load(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := newDocument()
	for k, v := range s.mem.History {
		d.History[k] = append([]Entry(nil), v...)
	}
	for k, v := range s.mem.Saved {
		d.Saved[k] = append([]Query(nil), v...)
	}
	return d, nil
}

// Record adds a run to the connection's history, newest first: failure is why it failed (""
// when it ran). A repeat of the newest entry replaces it.
func (s *Store) Record(ctx context.Context, connectionID, text, failure string) error {
	e := Entry{Text: strings.TrimSpace(text), At: s.Now().UTC().Format(time.RFC3339), OK: failure == "", Error: failure}
	return s.update(ctx, func(d *document) {
		h := d.History[connectionID]
		if len(h) > 0 && h[0].Text == e.Text {
			h = h[1:]
		}
		h = append([]Entry{e}, h...)
		if len(h) > HistoryMax {
			h = h[:HistoryMax]
		}
		d.History[connectionID] = h
	})
}

// History lists the connection's history, newest first, keeping the entries whose text holds
// every word of search (ignoring case). It never returns nil.
func (s *Store) History(ctx context.Context, connectionID, search string) ([]Entry, error) {
	d, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	words := strings.Fields(strings.ToLower(search))
	out := []Entry{}
	for _, e := range d.History[connectionID] {
		if containsAll(strings.ToLower(e.Text), words) {
			out = append(out, e)
		}
	}
	return out, nil
}

func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// ClearHistory empties the connection's history.
func (s *Store) ClearHistory(ctx context.Context, connectionID string) error {
	return s.update(ctx, func(d *document) { delete(d.History, connectionID) })
}

// Saved lists the connection's saved queries in the order they were saved. It never returns
// nil.
func (s *Store) Saved(ctx context.Context, connectionID string) ([]Query, error) {
	d, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	return append([]Query{}, d.Saved[connectionID]...), nil
}

// Save saves a named query of the connection, replacing the one of that name. A name outside
// 1..NameLimit characters or an empty text is an invalid_argument driver.Error.
func (s *Store) Save(ctx context.Context, connectionID, name, text string) error {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > NameLimit {
		return driver.Errorf(driver.KindInvalidArgument, "a saved query needs a name of 1 to %d characters", NameLimit)
	}
	if strings.TrimSpace(text) == "" {
		return driver.Errorf(driver.KindInvalidArgument, "the query is empty")
	}
	return s.update(ctx, func(d *document) {
		list := d.Saved[connectionID]
		for i, q := range list {
			if q.Name == name {
				list[i].Text = text
				return
			}
		}
		d.Saved[connectionID] = append(list, Query{Name: name, Text: text})
	})
}

// Delete removes the named saved query of the connection (an unknown name does nothing).
func (s *Store) Delete(ctx context.Context, connectionID, name string) error {
	return s.update(ctx, func(d *document) {
		list := d.Saved[connectionID]
		for i, q := range list {
			if q.Name == name {
				d.Saved[connectionID] = append(list[:i:i], list[i+1:]...)
				return
			}
		}
	})
}
