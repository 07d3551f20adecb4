package postgres

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// maxParams is PostgreSQL's bound on one statement's parameters.
const maxParams = 65535

// WriteBatch writes an import's rows (driver.BatchWriter): each created, or replaced where a
// row with its key exists (INSERT … ON CONFLICT on the key DO UPDATE), many rows a statement.
// A statement the server refuses is written again row by row, so a row that does not fit
// fails alone with the server's reason and the others are written. A cell a row leaves out
// takes the column's default.
func (d *Driver) WriteBatch(ctx context.Context, name string, rows []driver.Row) ([]driver.RowResult, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if t.readOnly() {
		return nil, errorf(driver.KindNotPermitted, "%s is a view: its rows are read, not written", t.qualified())
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	defer d.marks.Clear()
	out := make([]driver.RowResult, len(rows))
	values := make([]map[string]any, len(rows))
	// Rows that give their whole key replace a row with it; the others are new rows whose key
	// the database makes, written after the sequences behind the key have passed the keys
	// given, so a made key never lands on (and replaces) a row that has it.
	var keyed, unkeyed []int
	for i, r := range rows {
		out[i] = driver.RowResult{Index: i}
		v, err := batchValues(t, r)
		if err != nil {
			sqlkit.Fail(&out[i], err)
			continue
		}
		values[i] = v
		if len(t.key) > 0 && coversKey(slices.Collect(maps.Keys(v)), t.key) {
			keyed = append(keyed, i)
		} else {
			unkeyed = append(unkeyed, i)
		}
	}
	if err := d.writeGroup(ctx, p, t, values, keyed, true, out); err != nil {
		return out, err
	}
	if len(unkeyed) > 0 {
		// Keys given by this batch or an earlier one (or by another program) must not be
		// where the sequence makes the next key.
		if err := d.passSequences(ctx, p, t); err != nil {
			for _, i := range unkeyed {
				sqlkit.Fail(&out[i], err)
			}
			return out, nil
		}
	}
	if err := d.writeGroup(ctx, p, t, values, unkeyed, false, out); err != nil {
		return out, err
	}
	return out, nil
}

// writeGroup writes rows (indexes into values) many a statement, replacing by key when
// replace; a statement the server refuses is written again row by row.
func (d *Driver) writeGroup(ctx context.Context, p *pgxpool.Pool, t *table, values []map[string]any, rows []int, replace bool, out []driver.RowResult) error {
	if len(rows) == 0 {
		return nil
	}
	var cols []string
	seen := map[string]bool{}
	for _, i := range rows {
		for c := range values[i] {
			if !seen[c] {
				seen[c] = true
				cols = append(cols, c)
			}
		}
	}
	sort.Strings(cols)
	per := len(rows)
	switch {
	case len(cols) == 0:
		per = 1 // DEFAULT VALUES writes one row a statement
	case per*len(cols) > maxParams:
		per = maxParams / len(cols)
	}
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(start+per, len(rows))]
		keys, err := d.upsert(ctx, p, t, cols, values, chunk, replace)
		if err == nil {
			for j, i := range chunk {
				out[i].Status, out[i].Key = driver.RowOK, keys[j]
			}
			continue
		}
		if cerr := driver.ContextError(ctx); cerr != nil {
			for _, i := range rows[start:] {
				sqlkit.Fail(&out[i], cerr)
			}
			return cerr
		}
		// One row refused the statement: each alone, to say which.
		for _, i := range chunk {
			keys, err := d.upsert(ctx, p, t, cols, values, []int{i}, replace)
			if err != nil {
				sqlkit.Fail(&out[i], d.queryError(ctx, err, fmt.Sprintf("row %d", i+1)))
				continue
			}
			out[i].Status, out[i].Key = driver.RowOK, keys[0]
		}
	}
	return nil
}

// passSequences moves each sequence behind a key column past the largest key the table
// holds, as a restore does after writing keys it was given.
func (d *Driver) passSequences(ctx context.Context, p *pgxpool.Pool, t *table) error {
	for _, k := range t.key {
		var seq *string
		if err := p.QueryRow(ctx, "SELECT pg_get_serial_sequence($1, $2)", t.sql(), k).Scan(&seq); err != nil {
			return d.queryError(ctx, err, "reading the sequence of "+k)
		}
		if seq == nil {
			continue
		}
		// Never back: past the largest key, and past the sequence's own last value.
		q := "SELECT setval($1, GREATEST((SELECT max(" + ident(k) + ") FROM " + t.sql() + "), pg_sequence_last_value($1::regclass), 1))"
		if _, err := p.Exec(ctx, q, *seq); err != nil {
			return d.queryError(ctx, err, "moving the sequence of "+k)
		}
	}
	return nil
}

// batchValues are a row's cells by column, its vectors among them as their columns' text.
func batchValues(t *table, r driver.Row) (map[string]any, error) {
	v := map[string]any{}
	for k, x := range r.InsertValues() {
		c, ok := t.column(k)
		if !ok {
			return nil, errorf(driver.KindInvalidArgument, "%s has no column %q", t.qualified(), k)
		}
		if c.ReadOnly && !c.PrimaryKey {
			return nil, errorf(driver.KindInvalidArgument, "the column %s is read-only (generated by the database)", k)
		}
		v[k] = x
	}
	for name, vec := range r.Vectors {
		col, ok := vectorColumn(t, name)
		if !ok {
			return nil, errorf(driver.KindInvalidArgument, "%s has no vector %q", t.qualified(), name)
		}
		parts := make([]string, len(vec))
		for i, f := range vec {
			parts[i] = strconv.FormatFloat(float64(f), 'g', -1, 32)
		}
		v[col] = "[" + strings.Join(parts, ",") + "]"
	}
	return v, nil
}

// vectorColumn is the column of a vector by name: "" is the table's only vector column.
func vectorColumn(t *table, name string) (string, bool) {
	return sqlkit.VectorColumn(t.described(), name)
}

// upsert writes rows (indexes into values) in one statement and returns their keys, in order.
func (d *Driver) upsert(ctx context.Context, p *pgxpool.Pool, t *table, cols []string, values []map[string]any, rows []int, replace bool) ([]driver.Key, error) {
	var args []any
	tuples := make([]string, len(rows))
	for j, i := range rows {
		cells := make([]string, len(cols))
		for k, name := range cols {
			v, given := values[i][name]
			c, _ := t.column(name)
			switch {
			case !given:
				cells[k] = "DEFAULT"
			case v == nil:
				cells[k] = "NULL"
			default:
				text, err := bindText(*c, v)
				if err != nil {
					return nil, errorf(driver.KindInvalidArgument, "%s", err.Error())
				}
				args = append(args, text)
				cells[k] = "$" + strconv.Itoa(len(args)) + "::" + c.write
			}
		}
		tuples[j] = "(" + strings.Join(cells, ", ") + ")"
	}
	q := "INSERT INTO " + t.sql()
	if len(cols) == 0 {
		q += " DEFAULT VALUES"
	} else {
		quoted := make([]string, len(cols))
		for k, c := range cols {
			quoted[k] = ident(c)
		}
		q += " (" + strings.Join(quoted, ", ") + ")"
		for _, name := range cols {
			if c, _ := t.column(name); c.always {
				// The file gives the identity's values: an import keeps them.
				q += " OVERRIDING SYSTEM VALUE"
				break
			}
		}
		q += " VALUES " + strings.Join(tuples, ", ")
		if replace {
			keys := make([]string, len(t.key))
			for k, name := range t.key {
				keys[k] = ident(name)
			}
			var sets []string
			for _, c := range cols {
				if !slices.Contains(t.key, c) {
					sets = append(sets, ident(c)+" = EXCLUDED."+ident(c))
				}
			}
			if len(sets) == 0 {
				// Only the key: the row is there or made; an update of the key to itself keeps
				// RETURNING a row for every row, so the keys stay with their rows.
				sets = append(sets, keys[0]+" = EXCLUDED."+keys[0])
			}
			q += " ON CONFLICT (" + strings.Join(keys, ", ") + ") DO UPDATE SET " + strings.Join(sets, ", ")
		}
	}
	out := make([]driver.Key, 0, len(rows))
	if len(t.key) == 0 {
		_, err := p.Exec(ctx, q, args...)
		return make([]driver.Key, len(rows)), err
	}
	res, err := p.Query(ctx, q+returningKey(t), args...)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	for res.Next() {
		k, err := scanKey(t, res)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	for len(out) < len(rows) {
		out = append(out, nil) // a row ON CONFLICT DO NOTHING left as it was
	}
	return out, nil
}

func coversKey(cols, key []string) bool {
	for _, k := range key {
		if !slices.Contains(cols, k) {
			return false
		}
	}
	return true
}
