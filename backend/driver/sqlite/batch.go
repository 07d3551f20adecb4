package sqlite

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// WriteBatch writes an import's rows (driver.BatchWriter) in one transaction: each created, or
// replaced where a row with its key exists (INSERT … ON CONFLICT on the key DO UPDATE). Each
// row is its own savepoint, so a row SQLite refuses fails alone with SQLite's reason and the
// others are written. A cell a row leaves out takes the column's default; a row without its
// key is given one by SQLite (the rowid), never one a row of the file names.
func (d *Driver) WriteBatch(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if t.readOnly() {
		return nil, driver.Errorf(driver.KindNotPermitted, "%s is a view: its rows are read, not written", t.name)
	}
	out := make([]driver.RowResult, len(rows))
	err = d.write(ctx, func(c *sqlite3.Conn) error {
		if err := c.Exec("BEGIN IMMEDIATE"); err != nil {
			return err
		}
		for i, r := range rows {
			out[i] = driver.RowResult{Index: i}
			values, err := batchValues(t, r)
			if err == nil {
				var cols []string
				var args []any
				if cols, args, err = assignments(t, values); err == nil {
					err = upsert(c, t, cols, args, &out[i])
				}
			}
			if err != nil {
				if cerr := driver.ContextError(ctx); cerr != nil {
					_ = c.Exec("ROLLBACK")
					return cerr
				}
				sqlkit.Fail(&out[i], d.failure(ctx, err))
				continue
			}
			out[i].Status = driver.RowOK
		}
		if err := c.Exec("COMMIT"); err != nil {
			_ = c.Exec("ROLLBACK")
			return err
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	return out, nil
}

// upsert writes one row in its own savepoint, reporting its key.
func upsert(c *sqlite3.Conn, t *table, cols []string, args []any, res *driver.RowResult) error {
	if err := c.Exec("SAVEPOINT app_row"); err != nil {
		return err
	}
	q := "INSERT INTO " + t.sql()
	if len(cols) == 0 {
		q += " DEFAULT VALUES"
	} else {
		q += " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Repeat("?, ", len(cols)-1) + "?)"
		keyCols := make([]string, len(t.key))
		for i, k := range t.key {
			kc, _ := t.column(k)
			keyCols[i] = columnExpr(t, kc)
		}
		var sets []string
		for _, col := range cols {
			if !slices.Contains(keyCols, col) {
				sets = append(sets, col+" = excluded."+col)
			}
		}
		if len(t.key) > 0 && len(sets) > 0 && !t.rowidKey {
			q += " ON CONFLICT (" + strings.Join(keyCols, ", ") + ") DO UPDATE SET " + strings.Join(sets, ", ")
		}
	}
	if len(t.key) > 0 {
		q += returningKey(t)
	}
	err := each(c, q, args, func(s *sqlite3.Stmt) error {
		if len(t.key) > 0 {
			res.Key = keyOf(t, s)
		}
		return nil
	})
	if err != nil {
		_ = c.Exec("ROLLBACK TO app_row")
		_ = c.Exec("RELEASE app_row")
		return err
	}
	return c.Exec("RELEASE app_row")
}

// batchValues are a row's cells and vectors (each a JSON array, written as sqlite-vec's blob
// where the column declares a vector type), checked against the table.
func batchValues(t *table, r driver.Row) (map[string]any, error) {
	v := map[string]any{}
	for k, x := range r.InsertValues() {
		c, ok := t.column(k)
		if !ok {
			return nil, driver.Errorf(driver.KindInvalidArgument, "%s has no column %q", t.name, k)
		}
		if c.ReadOnly && !c.PrimaryKey {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the column %s is read-only (SQLite makes its values)", k)
		}
		v[k] = x
	}
	for _, name := range slices.Sorted(maps.Keys(r.Vectors)) {
		col, ok := vectorColumn(t, name)
		if !ok {
			return nil, driver.Errorf(driver.KindInvalidArgument, "%s has no vector %q", t.name, name)
		}
		v[col] = driver.VectorText(r.Vectors[name])
	}
	return v, nil
}

// vectorColumn is the column of a vector by name: "" is the table's only vector column.
func vectorColumn(t *table, name string) (string, bool) {
	return sqlkit.VectorColumn(t.described(), name)
}
