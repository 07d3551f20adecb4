package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"app/backend/driver"
)

// Insert, Update and Delete write their rows in one transaction: all of them or none. The row
// that fails says why; the others say they were not written because of it. A row without a
// key (Update, Delete) or without edited cells (Update) is skipped and logged, nothing sent.

// Insert adds rows, taking the table's defaults and generated keys for cells not given, and
// reports each row's key as stored.
func (d *Driver) Insert(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.write(ctx, name, rows, "insert", d.insertRow)
}

// Update writes the given cells of each row, found by its key.
func (d *Driver) Update(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.write(ctx, name, rows, "update", d.updateRow)
}

// Delete removes each row by its key.
func (d *Driver) Delete(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.write(ctx, name, rows, "delete", d.deleteRow)
}

type rowWrite func(ctx context.Context, tx pgx.Tx, t *table, i int, r driver.Row) (driver.Key, error)

func (d *Driver) write(ctx context.Context, name string, rows []driver.Row, action string, fn rowWrite) ([]driver.RowResult, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if t.readOnly() {
		return nil, errorf(driver.KindNotPermitted, "%s is a view: its rows are read, not written", t.qualified())
	}
	out := make([]driver.RowResult, len(rows))
	run := make([]int, 0, len(rows))
	for i, r := range rows {
		out[i] = driver.RowResult{Index: i, Key: r.Key}
		switch {
		case action != "insert" && len(t.key) == 0:
			out[i].Status, out[i].Kind = driver.RowFailed, driver.KindUnsupported
			out[i].Message = t.qualified() + " has no primary key, so its rows are not " + action + "d one by one"
		case action != "insert" && len(r.Key) == 0:
			d.log.WithFields(map[string]any{"table": t.qualified(), "row": i, "action": action}).Warn("row without a key skipped; no statement sent")
			out[i].Status, out[i].Message = driver.RowSkipped, fmt.Sprintf("row %d has no key: %s skipped, nothing sent", i+1, action)
		case action == "update" && len(r.Values) == 0:
			out[i].Status, out[i].Message = driver.RowSkipped, "no edited cells: nothing sent"
		case action != "insert":
			if err := driver.CheckKey(t.key, r.Key, fmt.Sprintf("the key of row %d", i+1)); err != nil {
				fail(&out[i], err)
				break
			}
			run = append(run, i)
		default:
			run = append(run, i)
		}
	}
	// A row refused before anything was sent stops the transaction as a failed row would.
	for i := range out {
		if out[i].Status == driver.RowFailed {
			for _, j := range run {
				out[j].Status, out[j].Message = driver.RowFailed, fmt.Sprintf("not written: row %d failed, and a commit writes all its rows or none", i+1)
			}
			return out, nil
		}
	}
	if len(run) == 0 {
		return out, nil
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	tx, err := p.Begin(ctx)
	if err != nil {
		return nil, d.queryError(ctx, err, "beginning the "+action)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	for _, i := range run {
		key, err := fn(ctx, tx, t, i, rows[i])
		if err != nil {
			if cerr := driver.ContextError(ctx); cerr != nil {
				for _, j := range run {
					fail(&out[j], cerr)
				}
				return out, cerr
			}
			fail(&out[i], err)
			for _, j := range run {
				if j != i {
					out[j].Status, out[j].Kind = driver.RowFailed, ""
					out[j].Message = fmt.Sprintf("not written: row %d failed, and a commit writes all its rows or none", i+1)
				}
			}
			return out, nil
		}
		if key != nil {
			out[i].Key = key
		}
		out[i].Status = driver.RowOK
	}
	// Where pages end may have moved: the grid reads from the start after a commit.
	defer d.marks.Clear()
	if err := tx.Commit(ctx); err != nil {
		e := d.queryError(ctx, err, "the commit")
		// The server's own refusal (a deferred constraint, a serialization failure) rolled the
		// transaction back; a lost connection leaves its outcome unknown.
		var pe *pgconn.PgError
		refused := errors.As(err, &pe)
		for _, j := range run {
			fail(&out[j], e)
			if !refused {
				out[j].MaybeWritten = true
				out[j].Message += "; the row " + driver.MaybeWritten + ": reload to see"
			}
		}
		return out, e
	}
	return out, nil
}

func fail(r *driver.RowResult, err error) {
	r.Status, r.Kind, r.Message = driver.RowFailed, driver.KindOf(err), err.Error()
}

// assignments are a row's cells as column = $n::type, checked against the table.
func assignments(t *table, values map[string]any, args *[]any) (cols []string, params []string, err error) {
	for _, name := range slices.Sorted(maps.Keys(values)) {
		c, ok := t.column(name)
		if !ok {
			return nil, nil, errorf(driver.KindInvalidArgument, "%s has no column %q", t.qualified(), name)
		}
		if c.ReadOnly {
			return nil, nil, errorf(driver.KindInvalidArgument, "the column %s is read-only (generated by the database)", name)
		}
		v := values[name]
		cols = append(cols, ident(name))
		if v == nil {
			params = append(params, "NULL")
			continue
		}
		text, err := bindText(*c, v)
		if err != nil {
			return nil, nil, errorf(driver.KindInvalidArgument, "%s", err.Error())
		}
		*args = append(*args, text)
		params = append(params, fmt.Sprintf("$%d::%s", len(*args), c.write))
	}
	return cols, params, nil
}

// keyWhere is the WHERE that finds the row k names.
func keyWhere(t *table, k driver.Key, args *[]any) string {
	parts := make([]string, len(t.key))
	for i, name := range t.key {
		c, _ := t.column(name)
		expr, typ := scalar(c, ident(name))
		*args = append(*args, driver.KeyValueText(k[name]))
		parts[i] = fmt.Sprintf("%s = $%d::%s", expr, len(*args), typ)
	}
	return " WHERE " + strings.Join(parts, " AND ")
}

// returningKey is the RETURNING of the key's columns as text.
func returningKey(t *table) string {
	if len(t.key) == 0 {
		return ""
	}
	parts := make([]string, len(t.key))
	for i, k := range t.key {
		parts[i] = ident(k) + "::text"
	}
	return " RETURNING " + strings.Join(parts, ", ")
}

func scanKey(t *table, row pgx.Row) (driver.Key, error) {
	texts := make([]string, len(t.key))
	dest := make([]any, len(t.key))
	for i := range texts {
		dest[i] = &texts[i]
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	k := make(driver.Key, len(t.key))
	for i, name := range t.key {
		k[name] = texts[i]
	}
	return k, nil
}

func (d *Driver) insertRow(ctx context.Context, tx pgx.Tx, t *table, i int, r driver.Row) (driver.Key, error) {
	var args []any
	cols, params, err := assignments(t, r.InsertValues(), &args)
	if err != nil {
		return nil, err
	}
	q := "INSERT INTO " + t.sql()
	if len(cols) == 0 {
		q += " DEFAULT VALUES"
	} else {
		q += " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(params, ", ") + ")"
	}
	if len(t.key) == 0 {
		_, err := tx.Exec(ctx, q, args...)
		return nil, d.rowError(ctx, err, i)
	}
	k, err := scanKey(t, tx.QueryRow(ctx, q+returningKey(t), args...))
	return k, d.rowError(ctx, err, i)
}

func (d *Driver) updateRow(ctx context.Context, tx pgx.Tx, t *table, i int, r driver.Row) (driver.Key, error) {
	var args []any
	cols, params, err := assignments(t, r.Values, &args)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		for _, k := range t.key {
			if c == ident(k) {
				return nil, errorf(driver.KindInvalidArgument, "the key column %s names the row: it is not updated", k)
			}
		}
	}
	sets := make([]string, len(cols))
	for j := range cols {
		sets[j] = cols[j] + " = " + params[j]
	}
	// The row is written only where the edited cells still hold what the person read.
	keyArgs := len(args)
	where := keyWhere(t, r.Key, &args)
	var held []string
	for _, name := range slices.Sorted(maps.Keys(r.Original)) {
		c, ok := t.column(name)
		if !ok {
			continue
		}
		v := r.Original[name]
		if v == nil {
			held = append(held, ident(name)+" IS NULL")
			continue
		}
		args = append(args, driver.KeyValueText(v))
		held = append(held, fmt.Sprintf("(%s) IS NOT DISTINCT FROM $%d::text", shown(*c), len(args)))
	}
	q := "UPDATE " + t.sql() + " SET " + strings.Join(sets, ", ") + where
	if len(held) > 0 {
		q += " AND " + strings.Join(held, " AND ")
	}
	k, err := scanKey(t, tx.QueryRow(ctx, q+returningKey(t), args...))
	if err == pgx.ErrNoRows {
		// Not written: the row is gone, or it changed since it was read.
		var there bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+t.sql()+keyWhere(t, r.Key, new([]any))+")", args[keyArgs:keyArgs+len(t.key)]...).Scan(&there); err != nil {
			return nil, d.rowError(ctx, err, i)
		}
		if there {
			return nil, errorf(driver.KindConflict, "row %d (%s) changed on the server since it was read: nothing overwritten; reload it to see the new values, then edit again", i+1, r.Key.Text(t.key...))
		}
		return nil, errorf(driver.KindNotFound, "row %d: %s has no row %s", i+1, t.qualified(), r.Key.Text(t.key...))
	}
	return k, d.rowError(ctx, err, i)
}

func (d *Driver) deleteRow(ctx context.Context, tx pgx.Tx, t *table, i int, r driver.Row) (driver.Key, error) {
	var args []any
	q := "DELETE FROM " + t.sql() + keyWhere(t, r.Key, &args) + returningKey(t)
	k, err := scanKey(t, tx.QueryRow(ctx, q, args...))
	if err == pgx.ErrNoRows {
		return nil, errorf(driver.KindNotFound, "row %d: %s has no row %s", i+1, t.qualified(), r.Key.Text(t.key...))
	}
	return k, d.rowError(ctx, err, i)
}

func (d *Driver) rowError(ctx context.Context, err error, i int) error {
	if err == nil {
		return nil
	}
	return d.queryError(ctx, err, fmt.Sprintf("row %d", i+1))
}
