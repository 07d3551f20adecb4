package sqlite

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// Insert adds rows, taking the table's defaults and the rowid or key SQLite gives, and reports
// each row's key as stored.
func (d *Driver) Insert(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.writeRows(ctx, name, rows, "insert", insertRow)
}

// Update writes the given cells of each row, found by its key, where they still hold what the
// person read (Row.Original); a row changed since is a conflict, nothing overwritten.
func (d *Driver) Update(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.writeRows(ctx, name, rows, "update", updateRow)
}

// Delete removes each row by its key.
func (d *Driver) Delete(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	return d.writeRows(ctx, name, rows, "delete", deleteRow)
}

type rowWrite func(c *sqlite3.Conn, t *table, i int, r driver.Row) (driver.Key, error)

// writeRows writes rows in one transaction (BEGIN IMMEDIATE: the file's write lock is taken
// first, so a conflict check and its write see the same row).
func (d *Driver) writeRows(ctx context.Context, name string, rows []driver.Row, action string, fn rowWrite) ([]driver.RowResult, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if t.readOnly() {
		return nil, driver.Errorf(driver.KindNotPermitted, "%s is a view: its rows are read, not written", t.name)
	}
	out, run, done := sqlkit.PlanRows(d.log, t.name, t.key, rows, action)
	if done {
		return out, nil
	}
	var failed error
	err = d.write(ctx, func(c *sqlite3.Conn) error {
		if err := c.Exec("BEGIN IMMEDIATE"); err != nil {
			return err
		}
		for _, i := range run {
			key, err := fn(c, t, i, rows[i])
			if err != nil {
				_ = c.Exec("ROLLBACK")
				if cerr := driver.ContextError(ctx); cerr != nil {
					return cerr
				}
				failed = d.failure(ctx, err)
				if !isDriverError(err) {
					failed = driver.Wrap(driver.KindOf(failed), err, "row %d: %s", i+1, failed.Error())
				}
				sqlkit.Fail(&out[i], failed)
				sqlkit.NotWritten(out, run, i)
				return nil
			}
			if key != nil {
				out[i].Key = key
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
		for _, j := range run {
			sqlkit.Fail(&out[j], err)
		}
		return out, err
	}
	return out, nil
}

// isDriverError tells an error the driver already said in words.
func isDriverError(err error) bool {
	var de *driver.Error
	return errors.As(err, &de)
}

// assignments are a row's cells as columns and bound values, checked against the table.
func assignments(t *table, values map[string]any) (cols []string, args []any, err error) {
	for _, name := range slices.Sorted(maps.Keys(values)) {
		c, ok := t.column(name)
		if !ok {
			return nil, nil, driver.Errorf(driver.KindInvalidArgument, "%s has no column %q", t.name, name)
		}
		if c.ReadOnly {
			return nil, nil, driver.Errorf(driver.KindInvalidArgument, "the column %s is read-only (SQLite makes its values)", name)
		}
		v, err := writeValue(c, values[name])
		if err != nil {
			return nil, nil, driver.Errorf(driver.KindInvalidArgument, "%s", err.Error())
		}
		cols = append(cols, columnExpr(t, c))
		args = append(args, v)
	}
	return cols, args, nil
}

// writeValue is a cell's value as SQLite stores it in column c: a number column's text as its
// number, a boolean as 0 or 1, a vector as sqlite-vec's float32 blob (in a column of declared
// vector type) or JSON text, a \x… text in a BLOB column as its bytes; text as it is.
func writeValue(c *column, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	var text string
	switch x := v.(type) {
	case string:
		text = x
	case json.Number:
		text = x.String()
	case float64:
		return x, nil
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case []any, map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		text = string(b)
	default:
		return nil, fmt.Errorf("the value of %s is a %T", c.Name, v)
	}
	switch c.Kind {
	case driver.ColumnInteger:
		if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
			return n, nil
		}
		return nil, fmt.Errorf("%s holds integers: %q is not one", c.Name, text)
	case driver.ColumnNumber:
		if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil {
			return f, nil
		}
		return nil, fmt.Errorf("%s holds numbers: %q is not one", c.Name, text)
	case driver.ColumnBoolean:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "true", "1":
			return int64(1), nil
		case "false", "0":
			return int64(0), nil
		}
		return nil, fmt.Errorf("%s holds true or false: %q is neither", c.Name, text)
	case driver.ColumnVector:
		var f []float32
		if err := json.Unmarshal([]byte(text), &f); err != nil {
			return nil, fmt.Errorf("%s holds vectors: %q is not a list of numbers", c.Name, text)
		}
		if c.Dimension > 0 && len(f) != c.Dimension {
			return nil, fmt.Errorf("%s holds vectors of %d numbers: this one has %d", c.Name, c.Dimension, len(f))
		}
		if c.blobVector {
			return blobOf(f), nil
		}
		return text, nil
	case driver.ColumnBinary:
		if strings.HasPrefix(text, `\x`) {
			b, err := hex.DecodeString(text[2:])
			if err != nil {
				return nil, fmt.Errorf("%s holds bytes: %q is not \\x and hex digits", c.Name, text)
			}
			return b, nil
		}
	case driver.ColumnOther:
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n, nil
		}
	}
	return text, nil
}

// keyWhere is the WHERE that finds the row k names.
func keyWhere(t *table, k driver.Key, args *[]any) string {
	parts := make([]string, len(t.key))
	for i, name := range t.key {
		c, _ := t.column(name)
		*args = append(*args, typed(driver.KeyValueText(k[name]), c.Kind))
		parts[i] = columnExpr(t, c) + " = ?"
	}
	return " WHERE " + strings.Join(parts, " AND ")
}

// returningKey is the RETURNING of the key's columns.
func returningKey(t *table) string {
	parts := make([]string, len(t.key))
	for i, k := range t.key {
		c, _ := t.column(k)
		parts[i] = columnExpr(t, c)
	}
	return " RETURNING " + strings.Join(parts, ", ")
}

// keyOf reads a RETURNING key as the row's key (each value's text).
func keyOf(t *table, s *sqlite3.Stmt) driver.Key {
	k := make(driver.Key, len(t.key))
	for i, name := range t.key {
		k[name] = s.ColumnText(i)
	}
	return k
}

func insertRow(c *sqlite3.Conn, t *table, i int, r driver.Row) (driver.Key, error) {
	cols, args, err := assignments(t, r.InsertValues())
	if err != nil {
		return nil, err
	}
	q := "INSERT INTO " + t.sql()
	if len(cols) == 0 {
		q += " DEFAULT VALUES"
	} else {
		q += " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Repeat("?, ", len(cols)-1) + "?)"
	}
	if len(t.key) == 0 {
		return nil, each(c, q, args, func(*sqlite3.Stmt) error { return nil })
	}
	var k driver.Key
	err = each(c, q+returningKey(t), args, func(s *sqlite3.Stmt) error {
		k = keyOf(t, s)
		return nil
	})
	return k, err
}

func updateRow(c *sqlite3.Conn, t *table, i int, r driver.Row) (driver.Key, error) {
	cols, args, err := assignments(t, r.Values)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(r.Values)) {
		if slices.Contains(t.key, name) {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the key column %s names the row: it is not updated", name)
		}
	}
	// The row is written only where the edited cells still show what the person read, each
	// compared as the grid shows it.
	var keyArgs []any
	where := keyWhere(t, r.Key, &keyArgs)
	found := false
	if len(r.Original) > 0 {
		names := slices.Sorted(maps.Keys(r.Original))
		list := make([]string, 0, len(names))
		var held []*column
		for _, name := range names {
			if col, ok := t.column(name); ok {
				list = append(list, columnExpr(t, col))
				held = append(held, col)
			}
		}
		var changed []string
		if len(list) > 0 {
			err := each(c, "SELECT "+strings.Join(list, ", ")+" FROM "+t.sql()+where, keyArgs, func(s *sqlite3.Stmt) error {
				found = true
				for j, col := range held {
					now := cell(s, j, col, driver.VectorsFull)
					if !sameCell(now, r.Original[col.Name]) {
						changed = append(changed, col.Name)
					}
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			if found && len(changed) > 0 {
				return nil, driver.Errorf(driver.KindConflict, "row %d (%s) changed since it was read (%s): nothing overwritten; reload it to see the new values, then edit again",
					i+1, r.Key.Text(t.key...), strings.Join(changed, ", "))
			}
		}
	}
	sets := make([]string, len(cols))
	for j := range cols {
		sets[j] = cols[j] + " = ?"
	}
	var k driver.Key
	err = each(c, "UPDATE "+t.sql()+" SET "+strings.Join(sets, ", ")+where+returningKey(t), append(args, keyArgs...), func(s *sqlite3.Stmt) error {
		k = keyOf(t, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, driver.Errorf(driver.KindNotFound, "row %d: %s has no row %s", i+1, t.name, r.Key.Text(t.key...))
	}
	return k, nil
}

// sameCell tells a cell as read now from one as the person read it (a grid cell's text).
func sameCell(now, then any) bool {
	if now == nil || then == nil {
		return now == nil && then == nil
	}
	return driver.KeyValueText(now) == driver.KeyValueText(then)
}

func deleteRow(c *sqlite3.Conn, t *table, i int, r driver.Row) (driver.Key, error) {
	var args []any
	var k driver.Key
	err := each(c, "DELETE FROM "+t.sql()+keyWhere(t, r.Key, &args)+returningKey(t), args, func(s *sqlite3.Stmt) error {
		k = keyOf(t, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, driver.Errorf(driver.KindNotFound, "row %d: %s has no row %s", i+1, t.name, r.Key.Text(t.key...))
	}
	return k, nil
}

// CheckCells types the cells a person typed into one row as Insert and Update will, writing
// nothing.
func (d *Driver) CheckCells(ctx context.Context, name string, values map[string]*string) (map[string]string, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for col, v := range values {
		c, ok := t.column(col)
		switch {
		case !ok:
			out[col] = fmt.Sprintf("%s has no column %q", t.name, col)
		case c.ReadOnly:
			out[col] = "the column " + col + " is read-only (SQLite makes its values)"
		case v != nil:
			if _, err := writeValue(c, *v); err != nil {
				out[col] = err.Error()
			}
		}
	}
	return out, nil
}
