package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
)

// Classify is the driver's classification (Classify, the package's function).
func (d *Driver) Classify(text string) (driver.Classification, error) { return Classify(text) }

// Execute runs SQL text statement by statement, as SQLite itself splits it. A read runs on the
// read connection (opened read-only, query_only on), and each statement must be one SQLite
// itself calls read-only (sqlite3_stmt_readonly), so a write the classifier missed is refused
// twice over; a write runs on the write connection. A read's grid is cut at opts.MaxRows, said
// so; each statement's answer is kept (Result.Before).
func (d *Driver) Execute(ctx context.Context, text string, opts driver.ExecOptions) (*driver.Result, error) {
	class, err := Classify(text) // refuses what no approval lets run
	if err != nil {
		return nil, err
	}
	var results []driver.Result
	run := func(c *sqlite3.Conn) error {
		rest := text
		for n := 1; strings.TrimSpace(rest) != ""; n++ {
			s, tail, err := c.Prepare(rest)
			if err != nil {
				return fmt.Errorf("statement %d: %w", n, err)
			}
			if s == nil { // only a comment or spaces were left
				if tail == rest {
					break
				}
				rest = tail
				continue
			}
			if !class.Write() && !s.ReadOnly() {
				s.Close()
				return driver.Errorf(driver.KindNotPermitted, "statement %d is not a read: it runs only as a write, approved", n)
			}
			sql := rest[:len(rest)-len(tail)]
			r, err := result(s, opts.MaxRows)
			s.Close()
			if err != nil {
				return fmt.Errorf("statement %d: %w", n, err)
			}
			if r.Kind == driver.ResultJSON {
				var changes int64
				r.Tag, changes = answer(sql, c.Changes())
				r.JSON, _ = json.MarshalIndent(map[string]any{"command": r.Tag, "rowsChanged": changes}, "", "  ")
			}
			results = append(results, *r)
			rest = tail
		}
		return nil
	}
	if class.Write() {
		err = d.write(ctx, run)
	} else {
		err = d.read(ctx, run)
	}
	if err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return &driver.Result{Kind: driver.ResultJSON, JSON: json.RawMessage(`{}`)}, nil
	}
	last := results[len(results)-1]
	last.Before = results[:len(results)-1]
	return &last, nil
}

// result reads one prepared statement's answer: its rows as a grid (at most maxRows, 0 for
// all), or for a statement that returns none, a JSON answer Execute fills in.
func result(s *sqlite3.Stmt, maxRows int) (*driver.Result, error) {
	n := s.ColumnCount()
	if n == 0 {
		if err := s.Exec(); err != nil {
			return nil, err
		}
		return &driver.Result{Kind: driver.ResultJSON}, nil
	}
	cols := make([]column, n)
	g := &driver.Grid{Columns: make([]driver.Column, n), Rows: [][]any{}}
	for i := range cols {
		cols[i] = newColumn(s.ColumnName(i), s.ColumnDeclType(i), &table{})
		cols[i].ReadOnly = true
		g.Columns[i] = cols[i].Column
	}
	r := &driver.Result{Kind: driver.ResultGrid, Grid: g}
	for s.Step() {
		if maxRows > 0 && len(g.Rows) == maxRows {
			r.Truncated, g.HasMore = true, true
			r.Notice = fmt.Sprintf("Only the first %d rows are shown: add a LIMIT, or a WHERE, to read others", maxRows)
			g.Notice = r.Notice
			break
		}
		row := make([]any, n)
		for i := range row {
			row[i] = cell(s, i, &cols[i], driver.VectorsFull)
		}
		g.Rows = append(g.Rows, row)
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	r.Tag = fmt.Sprintf("SELECT %d", len(g.Rows))
	return r, nil
}

// answer is a statement's answer: its tag, in a word or two (its verb and, for a change of rows,
// how many), and the rows it changed, which SQLite's count of the connection's last change
// (changes) tells only for INSERT, UPDATE, DELETE and REPLACE.
func answer(sql string, changes int64) (tag string, rows int64) {
	toks := tokens(sql)
	v := verb(toks)
	switch v {
	case "INSERT", "UPDATE", "DELETE", "REPLACE":
		return fmt.Sprintf("%s %d", v, changes), changes
	case "CREATE", "DROP", "ALTER":
		words := []string{v}
		for _, t := range toks[1:] {
			if t.kind != tokWord || len(words) == 3 {
				break
			}
			w := strings.ToUpper(t.text)
			words = append(words, w)
			if w == "TABLE" || w == "VIEW" || w == "INDEX" || w == "TRIGGER" {
				break
			}
		}
		return strings.Join(words, " "), 0
	}
	return v, 0
}
