package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"app/backend/driver"
)

// Classify is the driver's classification (Classify above).
func (d *Driver) Classify(text string) (driver.Classification, error) { return Classify(text) }

// Execute runs SQL text. A read runs inside a READ ONLY transaction, so a write that passed the
// classifier as a read is refused by the server itself; its last result set is the grid,
// fetched up to opts.MaxRows (the statement is never rewritten) and cut there, said so. A write
// runs as sent, statement by statement, and answers with each command's tag.
func (d *Driver) Execute(ctx context.Context, text string, opts driver.ExecOptions) (*driver.Result, error) {
	class, err := Classify(text)
	if err != nil {
		return nil, err
	}
	if class.Write() {
		return d.execWrite(ctx, text)
	}
	return d.execRead(ctx, text, opts)
}

// acquire is one connection of the pool, for a statement of the editor's.
func (d *Driver) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	conn, err := p.Acquire(ctx)
	if err != nil {
		return nil, d.connError(ctx, err)
	}
	return conn, nil
}

// execRead runs text as a read: inside a READ ONLY transaction, rolled back afterwards, so
// the server refuses any write in it whatever the classifier thought.
func (d *Driver) execRead(ctx context.Context, text string, opts driver.ExecOptions) (*driver.Result, error) {
	conn, err := d.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	tx, err := conn.Conn().BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, d.queryError(ctx, err, "beginning a read-only transaction")
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// Each statement alone, by the extended protocol, which runs one statement a message: a
	// text the classifier read as one statement where the server reads several (a COMMIT
	// that would end the read-only transaction among them) is refused by the server.
	pc := tx.Conn().PgConn()
	stmts, err := parse(text)
	if err != nil {
		return nil, errorf(driver.KindNotPermitted, "the text is not a read PostgreSQL's grammar can read: it runs only as a write, approved")
	}
	var last *driver.Result
	for i, st := range stmts {
		if !st.read {
			return nil, errorf(driver.KindNotPermitted, "statement %d is not a read: it runs only as a write, approved", i+1)
		}
		run := st.text
		capped := false
		if opts.MaxRows > 0 && st.cursor {
			// A capped query runs through a cursor: the server computes the rows fetched and no
			// more (draining the rest would read a million rows to show five hundred).
			name := "app_read_" + strconv.Itoa(i)
			if _, err := pc.ExecParams(ctx, "DECLARE "+name+" NO SCROLL CURSOR FOR "+st.text, nil, nil, nil, nil).Close(); err != nil {
				return nil, d.queryError(ctx, err, "the statement")
			}
			run, capped = "FETCH "+strconv.Itoa(opts.MaxRows+1)+" FROM "+name, true
		}
		rr := pc.ExecParams(ctx, run, nil, nil, nil, nil)
		fields := rr.FieldDescriptions()
		if len(fields) == 0 && !capped {
			tag, err := rr.Close()
			if err != nil {
				return nil, d.queryError(ctx, err, "the statement")
			}
			last = commandResult([]string{tag.String()})
			continue
		}
		g, truncated, err := readResult(rr, fields, opts.MaxRows)
		if err != nil {
			return nil, d.queryError(ctx, err, "the statement")
		}
		res := &driver.Result{Kind: driver.ResultGrid, Grid: g}
		if truncated {
			res.Truncated, g.HasMore = true, true
			res.Notice = fmt.Sprintf("the first %d rows: the statement has more; add LIMIT and OFFSET, or a narrower WHERE, to read on", opts.MaxRows)
			g.Notice = res.Notice
		}
		last = res
	}
	if last == nil {
		last = commandResult(nil)
	}
	return last, nil
}

// execWrite runs a write as sent and answers with the command tags.
func (d *Driver) execWrite(ctx context.Context, text string) (*driver.Result, error) {
	conn, err := d.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	pc := conn.Conn().PgConn()
	results, err := pc.Exec(ctx, text).ReadAll()
	// The connection goes back to the pool as it came: a transaction the text left open is
	// rolled back (and said so), and what it changed in the session (SET ROLE, search_path,
	// temp tables, LISTEN, advisory locks) is discarded, so no later read meets it.
	open := pc.TxStatus() != 'I'
	if open {
		_, _ = pc.Exec(context.WithoutCancel(ctx), "ROLLBACK").ReadAll()
	}
	_, _ = pc.Exec(context.WithoutCancel(ctx), "DISCARD ALL").ReadAll()
	d.forget() // DDL may have changed any table
	if err != nil {
		return nil, d.queryError(ctx, err, "the statement")
	}
	if open {
		return nil, errorf(driver.KindInvalidArgument, "the statements left a transaction open, so it was rolled back: end it with COMMIT in the same run")
	}
	var tags []string
	for _, r := range results {
		if r.Err != nil {
			return nil, d.queryError(ctx, r.Err, "the statement")
		}
		tags = append(tags, r.CommandTag.String())
	}
	// A write that answers rows (INSERT … RETURNING, or a read the person approved as a
	// write) shows its last rows as a grid.
	if n := len(results); n > 0 && len(results[n-1].FieldDescriptions) > 0 {
		last := results[n-1]
		g := &driver.Grid{Columns: make([]driver.Column, len(last.FieldDescriptions)), Rows: [][]any{}}
		numeric := make([]bool, len(last.FieldDescriptions))
		for i, f := range last.FieldDescriptions {
			kind, name := oidKind(f.DataTypeOID)
			g.Columns[i] = driver.Column{Name: f.Name, Type: name, Kind: kind}
			numeric[i] = kind == driver.ColumnInteger || kind == driver.ColumnNumber
		}
		for _, vals := range last.Rows {
			g.Rows = append(g.Rows, rowCells(vals, g.Columns, numeric))
		}
		return &driver.Result{Kind: driver.ResultGrid, Grid: g, Notice: strings.Join(tags, "; ")}, nil
	}
	return commandResult(tags), nil
}

// rowCells are one result row's text values as grid cells: numbers by their digits, booleans
// as booleans, the rest as text.
func rowCells(vals [][]byte, cols []driver.Column, numeric []bool) []any {
	row := make([]any, len(vals))
	for i, v := range vals {
		switch {
		case v == nil:
		case numeric[i]:
			row[i] = json.Number(string(v))
		case cols[i].Kind == driver.ColumnBoolean:
			row[i] = string(v) == "t"
		default:
			row[i] = string(v)
		}
	}
	return row
}

func commandResult(tags []string) *driver.Result {
	if tags == nil {
		tags = []string{}
	}
	b, _ := json.MarshalIndent(map[string]any{"commands": tags}, "", "  ")
	return &driver.Result{Kind: driver.ResultJSON, JSON: b}
}

// readResult reads a result set's rows as text cells (numbers by their digits), at most max
// (0: all), and whether more were there.
func readResult(rr *pgconn.ResultReader, fields []pgconn.FieldDescription, max int) (*driver.Grid, bool, error) {
	g := &driver.Grid{Columns: make([]driver.Column, len(fields)), Rows: [][]any{}}
	numeric := make([]bool, len(fields))
	for i, f := range fields {
		kind, name := oidKind(f.DataTypeOID)
		g.Columns[i] = driver.Column{Name: f.Name, Type: name, Kind: kind}
		numeric[i] = kind == driver.ColumnInteger || kind == driver.ColumnNumber
	}
	truncated := false
	for rr.NextRow() {
		if max > 0 && len(g.Rows) == max {
			truncated = true
			break
		}
		g.Rows = append(g.Rows, rowCells(rr.Values(), g.Columns, numeric))
	}
	if _, err := rr.Close(); err != nil {
		return nil, false, err
	}
	return g, truncated, nil
}

// oidKind is the kind and name of a built-in type by its OID (an editor result's column).
func oidKind(oid uint32) (driver.ColumnKind, string) {
	switch oid {
	case 20, 21, 23, 26:
		return driver.ColumnInteger, map[uint32]string{20: "bigint", 21: "smallint", 23: "integer", 26: "oid"}[oid]
	case 700, 701, 1700:
		return driver.ColumnNumber, map[uint32]string{700: "real", 701: "double precision", 1700: "numeric"}[oid]
	case 16:
		return driver.ColumnBoolean, "boolean"
	case 25, 1043, 1042, 19:
		return driver.ColumnText, "text"
	case 1184, 1114:
		return driver.ColumnDateTime, "timestamp"
	case 1082:
		return driver.ColumnDate, "date"
	case 2950:
		return driver.ColumnUUID, "uuid"
	case 114, 3802:
		return driver.ColumnJSON, "json"
	case 17:
		return driver.ColumnBinary, "bytea"
	}
	return driver.ColumnOther, ""
}
