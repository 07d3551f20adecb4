package activity

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// OutcomeError in a Filter matches every outcome but OutcomeOK.
const OutcomeError = "error"

// Filter chooses entries. Empty fields match everything.
type Filter struct {
	// Client matches the client name exactly.
	Client string
	// Token matches the token name or the principal id exactly.
	Token string
	// Connection matches the connection id exactly.
	Connection string
	// Outcome matches exactly ("ok", "query_failed", "-33007"), or OutcomeError for all
	// failures.
	Outcome string
	// Since and Until bound the time: Since <= time < Until.
	Since, Until time.Time
	// Search finds text in the statement, the tool or resource name, the method and the
	// client name (case-insensitive for ASCII).
	Search string
	// Limit caps the entries (0: no cap); Offset skips the first ones.
	Limit, Offset int
}

// ParseWhen reads a time bound of a filter: an RFC 3339 time, or a duration ago (90m, 24h);
// "" is no bound. The CLI's --since/--until and the Settings panel take the same text.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q: give an RFC 3339 time (2026-03-01T12:00:00Z) or a duration ago (90m, 24h)", s)
}

// blockWhere is the SQL condition on blocks that f's time bounds allow (a block's entries
// lie between its min_time and max_time), and its arguments; the other fields are matched
// entry by entry (match).
func (f Filter) blockWhere() (string, []any) {
	var conds []string
	var args []any
	if !f.Since.IsZero() {
		conds = append(conds, "max_time >= ?")
		args = append(args, formatTime(f.Since))
	}
	if !f.Until.IsZero() {
		conds = append(conds, "min_time < ?")
		args = append(args, formatTime(f.Until))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// matcher is a Filter ready to test entries.
type matcher struct {
	f            Filter
	since, until string // stored time text: fixed width, so text order is time order
	search       string // lower case (ASCII)
}

func (f Filter) matcher() matcher {
	m := matcher{f: f, search: lowerASCII(f.Search)}
	if !f.Since.IsZero() {
		m.since = formatTime(f.Since)
	}
	if !f.Until.IsZero() {
		m.until = formatTime(f.Until)
	}
	return m
}

// all reports whether the filter chooses every entry.
func (m matcher) all() bool {
	f := m.f
	return f.Client == "" && f.Connection == "" && f.Token == "" && f.Outcome == "" && m.since == "" && m.until == "" && f.Search == ""
}

// match reports whether f chooses e: every field given matches, text search
// case-insensitive for ASCII, as SQL's LIKE was.
func (m matcher) match(e *Entry) bool {
	f := m.f
	switch {
	case f.Client != "" && e.ClientName != f.Client,
		f.Connection != "" && e.Connection != f.Connection,
		f.Token != "" && e.TokenName != f.Token && e.Principal != f.Token,
		f.Outcome == OutcomeError && e.Outcome == OutcomeOK,
		f.Outcome != "" && f.Outcome != OutcomeError && e.Outcome != f.Outcome,
		m.since != "" && e.rawTime < m.since,
		m.until != "" && e.rawTime >= m.until:
		return false
	}
	if m.search == "" {
		return true
	}
	for _, s := range [...]string{e.Statement, e.Name, e.Method, e.ClientName} {
		if containsFoldASCII(s, m.search) {
			return true
		}
	}
	return false
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// containsFoldASCII reports whether lower (lower case) is in s, ignoring ASCII case.
func containsFoldASCII(s, lower string) bool {
	n := len(lower)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// List returns the entries f chooses, newest first.
func (l *Log) List(ctx context.Context, f Filter) ([]Entry, error) {
	var out []Entry
	err := l.each(ctx, f, true, func(e *Entry) error {
		out = append(out, *e)
		return nil
	})
	return out, err
}

// Count is how many entries f chooses, without Limit and Offset.
func (l *Log) Count(ctx context.Context, f Filter) (int, error) {
	f.Limit, f.Offset = 0, 0
	if f.matcher().all() {
		var n int
		err := l.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(last_id - first_id + 1), 0) FROM `+l.source()).Scan(&n)
		return n, err
	}
	n := 0
	err := l.scan(ctx, f, false, func(*Entry) error {
		n++
		return nil
	}, func(k int64) { n += int(k) })
	return n, err
}

// OutcomeUnreadable marks what List shows for a block that does not read.
const OutcomeUnreadable = "unreadable"

// unreadable is the entry List shows for a block that does not read.
func unreadable(b block, err error) Entry {
	return Entry{ID: b.firstID, Method: "activity/unreadable", Outcome: OutcomeUnreadable,
		Statement: fmt.Sprintf("entries %d to %d cannot be read (%v); app activity verify names the break", b.firstID, b.lastID, err)}
}

// errEnough stops each once Limit entries were given.
var errEnough = errors.New("enough")

// each gives fn the entries f chooses (after Offset, up to Limit), newest first when desc.
func (l *Log) each(ctx context.Context, f Filter, desc bool, fn func(*Entry) error) error {
	return l.scan(ctx, f, desc, fn, nil)
}

// scan is each, and Count when counted is not nil (f then has no Offset or Limit): entries
// the index or a block's times show all chosen are handed to counted as a number, undecoded.
// With the filter index (index.go) it reads, in one read transaction, only the blocks of the
// segments that may hold a match and of the runs no segment covers; without it (a database
// no app of this version has opened, read by the CLI) every block in the time range.
func (l *Log) scan(ctx context.Context, f Filter, desc bool, fn func(*Entry) error, counted func(int64)) error {
	m := f.matcher()
	skip, left := max(f.Offset, 0), f.Limit
	give := func(e *Entry, filtered bool) error {
		if filtered && !m.match(e) {
			return nil
		}
		if skip > 0 {
			skip--
			return nil
		}
		if err := fn(e); err != nil {
			return err
		}
		if left--; left == 0 {
			return errEnough
		}
		return nil
	}
	// A filter of times alone chooses every entry of a block that lies within them.
	timeOnly := counted != nil && f.Client == "" && f.Connection == "" && f.Token == "" && f.Outcome == "" && m.search == ""
	visit := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			b, err := scanBlock(rows)
			if err != nil {
				return err
			}
			if timeOnly && b.lastID >= b.firstID && (m.since == "" || b.minTime >= m.since) && (m.until == "" || b.maxTime < m.until) {
				counted(b.lastID - b.firstID + 1)
				continue
			}
			l.decoded.Add(1)
			entries, err := b.decode()
			filtered := err == nil
			if err != nil {
				// A block that does not read (edited by hand) does not hide the rest of the log:
				// it is listed as one entry that says so, whatever the filter (of the blocks the
				// filter reads: one the index rules out held no match when it was indexed), and
				// Verify names the break.
				entries = []Entry{unreadable(b, err)}
			}
			for i := range entries {
				if desc {
					i = len(entries) - 1 - i
				}
				if err := give(&entries[i], filtered); err != nil {
					return err
				}
			}
		}
		return rows.Err()
	}
	order := " ORDER BY first_id"
	if desc {
		order += " DESC"
	}
	where, args := f.blockWhere()
	// No filter: the index has nothing to rule out.
	if !l.indexed || l.noIndex || l.legacy != "" || m.all() {
		rows, err := l.db.QueryContext(ctx, `SELECT `+blockColumns+` FROM `+l.source()+where+order, args...)
		if err != nil {
			return err
		}
		if err := visit(rows); err != nil && err != errEnough {
			return err
		}
		return nil
	}

	tx, err := l.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	segs, _, err := loadSegments(ctx, tx)
	if err != nil {
		return err
	}
	var anchorID int64
	if counted != nil {
		if anchorID, _, err = anchor(ctx, tx); err != nil {
			return err
		}
	}
	spans := plan(segs, m, anchorID, counted != nil)
	if desc {
		slices.Reverse(spans)
	}
	if where == "" {
		where = " WHERE first_id BETWEEN ? AND ?"
	} else {
		where += " AND first_id BETWEEN ? AND ?"
	}
	query := `SELECT first_id, last_id, min_time, max_time, prev_hash, entries, 1 FROM blocks` + where + order
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, s := range spans {
		if s.counted {
			counted(s.n)
			continue
		}
		rows, err := stmt.QueryContext(ctx, append(args, s.lo, s.hi)...)
		if err != nil {
			return err
		}
		if err := visit(rows); err != nil {
			if err == errEnough {
				return nil
			}
			return err
		}
	}
	return nil
}

// CSVHeader is the first row of an export.
var CSVHeader = []string{"id", "time", "client_name", "client_version", "principal", "token_name", "level",
	"method", "name", "connection", "statement", "outcome", "duration_ms", "prev_hash", "hash", "traceparent"}

// WriteCSV exports the entries f chooses, oldest first, as RFC 4180 CSV with a header row.
// A cell that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR,
// other than a plain number such as the outcome -33007) is prefixed with a single quote.
func (l *Log) WriteCSV(ctx context.Context, w io.Writer, f Filter) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	err := l.each(ctx, f, false, func(e *Entry) error {
		return cw.Write([]string{
			strconv.FormatInt(e.ID, 10), formatTime(e.Time), csvSafe(e.ClientName), csvSafe(e.ClientVersion),
			csvSafe(e.Principal), csvSafe(e.TokenName), csvSafe(e.Level), csvSafe(e.Method), csvSafe(e.Name),
			csvSafe(e.Connection), csvSafe(e.Statement), csvSafe(e.Outcome), strconv.FormatInt(e.DurationMS, 10),
			e.PrevHash, e.Hash, e.Trace,
		})
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// csvSafe defuses spreadsheet formulas (CSV injection): an AI client chooses the statement.
func csvSafe(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '@', '\t', '\r':
		return "'" + s
	case '-':
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "'" + s
		}
	}
	return s
}
