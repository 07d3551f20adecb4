package activity

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
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

// where is the SQL condition and its arguments.
func (f Filter) where() (string, []any) {
	var conds []string
	var args []any
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = ?")
			args = append(args, v)
		}
	}
	eq("client_name", f.Client)
	eq("connection", f.Connection)
	if f.Token != "" {
		conds = append(conds, "(token_name = ? OR principal = ?)")
		args = append(args, f.Token, f.Token)
	}
	switch f.Outcome {
	case "":
	case OutcomeError:
		conds = append(conds, "outcome <> ?")
		args = append(args, OutcomeOK)
	default:
		eq("outcome", f.Outcome)
	}
	if !f.Since.IsZero() {
		conds = append(conds, "time >= ?")
		args = append(args, formatTime(f.Since))
	}
	if !f.Until.IsZero() {
		conds = append(conds, "time < ?")
		args = append(args, formatTime(f.Until))
	}
	if f.Search != "" {
		like := "%" + escapeLike(f.Search) + "%"
		conds = append(conds, `(statement LIKE ? ESCAPE '\' OR name LIKE ? ESCAPE '\' OR method LIKE ? ESCAPE '\' OR client_name LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func (f Filter) page() string {
	if f.Limit <= 0 && f.Offset <= 0 {
		return ""
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	return " LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(max(f.Offset, 0))
}

// List returns the entries f chooses, newest first.
func (l *Log) List(ctx context.Context, f Filter) ([]Entry, error) {
	var out []Entry
	err := l.each(ctx, f, "DESC", func(e Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// Count is how many entries f chooses, without Limit and Offset.
func (l *Log) Count(ctx context.Context, f Filter) (int, error) {
	where, args := f.where()
	var n int
	err := l.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM entries`+where, args...).Scan(&n)
	return n, err
}

func (l *Log) each(ctx context.Context, f Filter, order string, fn func(Entry) error) error {
	where, args := f.where()
	rows, err := l.db.QueryContext(ctx, `SELECT `+l.columns()+` FROM entries`+where+` ORDER BY id `+order+f.page(), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
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
	err := l.each(ctx, f, "ASC", func(e Entry) error {
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
