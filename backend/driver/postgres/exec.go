package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	stmts, perr := parse(text) // once: the classification and the run read the same statements
	class, err := classification(stmts, perr)
	if err != nil {
		return nil, err
	}
	if class.Write() {
		return d.execWrite(ctx, text, stmts)
	}
	return d.execRead(ctx, stmts, perr, opts)
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

// execRead runs parsed text (parse's answer: its statements, or the grammar's refusal) as a
// read: inside a READ ONLY transaction, rolled back afterwards, so
// the server refuses any write in it whatever the classifier thought.
func (d *Driver) execRead(ctx context.Context, stmts []statement, perr error, opts driver.ExecOptions) (*driver.Result, error) {
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
	heard := d.notices.listen(pc)
	defer d.notices.stop(pc)
	if perr != nil {
		return nil, errorf(driver.KindNotPermitted, "the text is not a read PostgreSQL's grammar can read: it runs only as a write, approved")
	}
	var all []driver.Result
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
		res, err := readOne(pc.ExecParams(ctx, run, nil, nil, nil, nil), st.plan, capped, opts.MaxRows)
		if err != nil {
			return nil, d.queryError(ctx, err, "the statement")
		}
		all = append(all, *res)
	}
	return lastOf(all, heard()), nil
}

// readOne reads one statement's answer: a plan as text, rows as a grid (at most max, said
// when cut), else its command tag.
func readOne(rr *pgconn.ResultReader, plan, capped bool, max int) (*driver.Result, error) {
	if plan {
		return planResult(rr)
	}
	fields := rr.FieldDescriptions()
	if len(fields) == 0 && !capped {
		tag, err := rr.Close()
		if err != nil {
			return nil, err
		}
		return commandResult(tag.String()), nil
	}
	g, truncated, tag, err := readResult(rr, fields, max)
	if err != nil {
		return nil, err
	}
	res := &driver.Result{Kind: driver.ResultGrid, Grid: g, Tag: tag}
	switch {
	case truncated:
		res.Truncated, g.HasMore, res.Tag = true, true, ""
		res.Notice = fmt.Sprintf("the first %d rows: the statement has more; add LIMIT and OFFSET, or a narrower WHERE, to read on", max)
		g.Notice = res.Notice
	case capped:
		// The cursor's FETCH is the driver's word, not the person's: theirs was a SELECT.
		res.Tag = "SELECT " + strconv.Itoa(len(g.Rows))
	}
	return res, nil
}

// lastOf is a run's answer: the last statement's result, the ones before it in Before, and the
// server's notices of the run.
func lastOf(all []driver.Result, heard []string) *driver.Result {
	if len(all) == 0 {
		all = []driver.Result{*commandResult()}
	}
	last := all[len(all)-1]
	last.Before = all[:len(all)-1]
	last.Notice = joinNotice(last.Notice, heard)
	return &last
}

// execWrite runs a write as sent and answers with the command tags.
func (d *Driver) execWrite(ctx context.Context, text string, stmts []statement) (*driver.Result, error) {
	conn, err := d.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	pc := conn.Conn().PgConn()
	heard := d.notices.listen(pc)
	defer d.notices.stop(pc)
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
	for _, r := range results {
		if r.Err != nil {
			return nil, d.queryError(ctx, r.Err, "the statement")
		}
	}
	return lastOf(writeResults(stmts, results), heard()), nil
}

// writeResults are what each statement of a write answered: its plan (EXPLAIN ANALYZE), its
// rows as a grid (INSERT … RETURNING, or a read the person approved as a write), else its tag.
func writeResults(stmts []statement, results []*pgconn.Result) []driver.Result {
	out := make([]driver.Result, len(results))
	for i, r := range results {
		tag := r.CommandTag.String()
		switch {
		case len(r.FieldDescriptions) == 0:
			out[i] = *commandResult(tag)
		case len(stmts) == len(results) && stmts[i].plan:
			out[i] = *planOf(r.FieldDescriptions[0].DataTypeOID, r.Rows)
		default:
			g := &driver.Grid{Columns: resultColumns(r.FieldDescriptions), Rows: [][]any{}}
			for _, vals := range r.Rows {
				g.Rows = append(g.Rows, rowCells(vals, g.Columns))
			}
			out[i] = driver.Result{Kind: driver.ResultGrid, Grid: g}
		}
		out[i].Tag = tag
	}
	return out
}

// planResult reads an EXPLAIN's answer (planOf).
func planResult(rr *pgconn.ResultReader) (*driver.Result, error) {
	var oid uint32
	if f := rr.FieldDescriptions(); len(f) > 0 {
		oid = f[0].DataTypeOID
	}
	var rows [][][]byte
	for rr.NextRow() {
		rows = append(rows, [][]byte{slices.Clone(rr.Values()[0])})
	}
	if _, err := rr.Close(); err != nil {
		return nil, err
	}
	return planOf(oid, rows), nil
}

// planOf is a plan as the server wrote it: EXPLAIN (FORMAT JSON) a JSON document, every other
// format text, one line a row (as psql prints it), not a grid of one column.
func planOf(oid uint32, rows [][][]byte) *driver.Result {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = string(r[0])
	}
	text := strings.Join(lines, "\n")
	if oid == 114 { // json
		var doc bytes.Buffer
		if json.Indent(&doc, []byte(text), "", "  ") == nil {
			return &driver.Result{Kind: driver.ResultJSON, JSON: doc.Bytes()}
		}
	}
	return &driver.Result{Kind: driver.ResultText, Text: text}
}

// joinNotice puts the server's notices (RAISE NOTICE, a DROP … IF EXISTS that found nothing)
// after what the driver says of the result.
func joinNotice(notice string, heard []string) string {
	if len(heard) == 0 {
		return notice
	}
	if notice != "" {
		heard = append([]string{notice}, heard...)
	}
	return strings.Join(heard, "\n")
}

// notices collects the server's notices for the statements of the editor, each connection's
// while one of them runs on it, and drops those of the driver's own queries.
type notices struct{ m sync.Map } // *pgconn.PgConn -> *heard

type heard struct {
	mu    sync.Mutex
	lines []string
}

// add is pgconn's notice handler, for every connection of the pool.
func (n *notices) add(pc *pgconn.PgConn, msg *pgconn.Notice) {
	v, ok := n.m.Load(pc)
	if !ok {
		return
	}
	h := v.(*heard)
	h.mu.Lock()
	defer h.mu.Unlock()
	// A statement that raises without end is not read to the end into memory.
	if len(h.lines) < maxNotices {
		h.lines = append(h.lines, msg.Severity+": "+msg.Message)
	} else if len(h.lines) == maxNotices {
		h.lines = append(h.lines, "(more notices were left out)")
	}
}

// maxNotices caps the notices kept of one run.
const maxNotices = 100

// listen collects the notices of pc until stop; the function returns those heard so far.
func (n *notices) listen(pc *pgconn.PgConn) func() []string {
	h := &heard{}
	n.m.Store(pc, h)
	return func() []string {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.Clone(h.lines)
	}
}

func (n *notices) stop(pc *pgconn.PgConn) { n.m.Delete(pc) }

// commandResult is the answer of statements that return no rows: their tags.
func commandResult(tags ...string) *driver.Result {
	if tags == nil {
		tags = []string{}
	}
	b, _ := json.MarshalIndent(map[string]any{"commands": tags}, "", "  ")
	out := &driver.Result{Kind: driver.ResultJSON, JSON: b}
	if len(tags) == 1 {
		out.Tag = tags[0]
	}
	return out
}

// readResult reads a result set's rows as text cells (numbers by their digits), at most max
// (0: all), whether more were there, and the statement's tag.
func readResult(rr *pgconn.ResultReader, fields []pgconn.FieldDescription, max int) (*driver.Grid, bool, string, error) {
	g := &driver.Grid{Columns: resultColumns(fields), Rows: [][]any{}}
	truncated := false
	for rr.NextRow() {
		if max > 0 && len(g.Rows) == max {
			truncated = true
			break
		}
		g.Rows = append(g.Rows, rowCells(rr.Values(), g.Columns))
	}
	tag, err := rr.Close()
	if err != nil {
		return nil, false, "", err
	}
	return g, truncated, tag.String(), nil
}

// resultColumns are a result set's columns, typed from the built-in types' OIDs.
func resultColumns(fields []pgconn.FieldDescription) []driver.Column {
	cols := make([]driver.Column, len(fields))
	for i, f := range fields {
		kind, name := oidKind(f.DataTypeOID)
		cols[i] = driver.Column{Name: f.Name, Type: name, Kind: kind}
		if name == "numeric" { // its digits kept by an export, as a table's numeric column's are
			cols[i].Exact, cols[i].Precision, cols[i].Scale = numericDigits(name, f.TypeModifier)
		}
	}
	return cols
}

// rowCells are one result row's text values as grid cells: numbers by their digits, booleans
// as booleans, the rest as text.
func rowCells(vals [][]byte, cols []driver.Column) []any {
	row := make([]any, len(vals))
	for i, v := range vals {
		switch {
		case v == nil:
		case cols[i].Kind == driver.ColumnInteger || cols[i].Kind == driver.ColumnNumber:
			row[i] = json.Number(string(v))
		case cols[i].Kind == driver.ColumnBoolean:
			row[i] = string(v) == "t"
		default:
			row[i] = string(v)
		}
	}
	return row
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
