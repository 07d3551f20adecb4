package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"app/backend/driver"
)

// scanStep is a walk's default page.
const scanStep = 1000

// Scan walks a table in key order by keyset (WHERE key > the last key read, never OFFSET), so
// a step late in a big table costs what the first does; After and Next are the last key
// read, as JSON text. A relation without a key (a view, a materialized view, a table or a
// partitioned table without a primary key) has no order to resume by, so it is walked by a
// server-side cursor instead (cursor.go), After and Next naming the walk. The filters go
// into the WHERE, so each step returns up to Limit matching rows.
func (d *Driver) Scan(ctx context.Context, name string, req driver.ScanRequest) (*driver.ScanPage, error) {
	if tok, ok := parseWalkToken(req.After); ok {
		return d.stepWalk(ctx, name, tok, req)
	}
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(t.key) == 0 {
		if req.After != "" {
			return nil, errorf(driver.KindInvalidArgument, "the walk's position %q is not one this driver gave", req.After)
		}
		return d.openWalk(ctx, t, name, req)
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	order := t.key
	limit := req.Limit
	if limit <= 0 {
		limit = scanStep
	}
	var args []any
	where, vals, err := d.where(t, req.Filters, &args)
	if err != nil {
		return nil, err
	}
	if req.After != "" {
		var after []string
		if err := json.Unmarshal([]byte(req.After), &after); err != nil || len(after) != len(order) {
			return nil, errorf(driver.KindInvalidArgument, "the walk's position %q is not one this driver gave", req.After)
		}
		cols, params := make([]string, len(order)), make([]string, len(order))
		for i, k := range order {
			c, _ := t.column(k)
			expr, typ := scalar(c, ident(k))
			args = append(args, after[i])
			cols[i], params[i] = expr, "$"+strconv.Itoa(len(args))+"::"+typ
		}
		cond := "(" + strings.Join(cols, ", ") + ") > (" + strings.Join(params, ", ") + ")"
		if where == "" {
			where = " WHERE " + cond
		} else {
			where += " AND " + cond
		}
	}
	cols, vecs, err := scanColumnsFor(t, req)
	if err != nil {
		return nil, err
	}
	list := selectList(cols)
	position := make([]string, 0, len(order))
	at := len(cols)
	for i, k := range order {
		position = append(position, ident(k)+"::text"+alias(at+i))
	}
	list += ", " + strings.Join(position, ", ")
	var formats pgx.QueryResultFormats
	if req.Vectors {
		formats = make(pgx.QueryResultFormats, at+len(position), at+len(position)+len(vecs))
		for i, v := range vecs {
			if binaryVector(v) {
				list += ", " + ident(v.Name) + alias(at+len(position)+i) // numbers in binary (vectors.go)
				formats = append(formats, pgx.BinaryFormatCode)
			} else {
				list += ", " + ident(v.Name) + "::text" + alias(at+len(position)+i)
				formats = append(formats, pgx.TextFormatCode)
			}
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		c, _ := t.column(k)
		parts[i], _ = scalar(c, ident(k))
	}
	orderBy := strings.Join(parts, ", ")
	q := "SELECT " + list + " FROM " + t.sql() + where + " ORDER BY " + orderBy + " LIMIT " + strconv.Itoa(limit)
	rows, err := p.Query(ctx, q, withFormats(formats, args)...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "walking "+t.qualified())
	}
	defer rows.Close()
	page := newScanPage(cols, vecs, req.Vectors, scanVectorCount(t))
	last, err := scanRows(rows, t, cols, len(position), req.Vectors, page)
	if err != nil {
		rows.Close() // its connection back before failed may ask the server about the values
		return nil, d.readFailed(ctx, vals, err, t)
	}
	if len(page.Rows) == limit {
		b, _ := json.Marshal(last)
		page.Next = string(b)
	}
	return page, nil
}

// scanColumns are the columns a walk's page has (the key first, then the others but vectors,
// as the contract's page has them) and the vector columns, read apart as numbers.
func scanColumns(t *table) (cols, vecs []column) {
	for _, k := range t.key {
		c, _ := t.column(k)
		cols = append(cols, *c)
	}
	for _, c := range t.columns {
		switch {
		case c.PrimaryKey:
		case c.Kind == driver.ColumnVector:
			vecs = append(vecs, c)
		default:
			cols = append(cols, c)
		}
	}
	return cols, vecs
}

// scanColumnsFor are scanColumns with only the vector columns req names (all when it names
// none): the others are not selected, so the server neither reads nor sends them.
func scanColumnsFor(t *table, req driver.ScanRequest) (cols, vecs []column, err error) {
	cols, vecs = scanColumns(t)
	if !req.Vectors || len(req.VectorNames) == 0 {
		return cols, vecs, nil
	}
	names := make([]string, len(vecs))
	for i, v := range vecs {
		names[i] = v.Name
	}
	picked, err := req.PickVectors(t.qualified(), names)
	if err != nil {
		return nil, nil, err
	}
	kept := make([]column, len(picked))
	for i, k := range picked {
		kept[i] = vecs[k]
	}
	return cols, kept, nil
}

// scanVectorCount is how many vector columns a walk of t can read (scanColumns').
func scanVectorCount(t *table) int {
	_, vecs := scanColumns(t)
	return len(vecs)
}

// newScanPage is an empty page of cols, naming the vectors when they are asked for; of is how
// many vector columns the table has (a table's single vector is named "").
func newScanPage(cols, vecs []column, vectors bool, of int) *driver.ScanPage {
	page := &driver.ScanPage{Rows: [][]any{}}
	for _, c := range cols {
		page.Columns = append(page.Columns, c.Column)
	}
	if vectors {
		for _, v := range vecs {
			page.VectorNames = append(page.VectorNames, v.Name)
		}
		if len(vecs) == 1 && of == 1 {
			page.VectorNames = []string{""} // a table's single vector
		}
	}
	return page
}

// scanRows reads rows into page: each row's cells of cols, then extra texts (the keyset's
// position, returned for the last row), then, when vectors are asked for, the texts of those
// page names. It sets page.Walked. A cell it cannot read is a driver error; the server's
// errors come as they are, for the caller to tell once it holds no connection (readFailed).
func scanRows(rows pgx.Rows, t *table, cols []column, extra int, vectors bool, page *driver.ScanPage) ([]string, error) {
	n := len(cols) + extra + len(page.VectorNames)
	texts := make([]*string, n)
	dest := make([]any, n)
	fields := rows.FieldDescriptions()
	for i := range texts {
		dest[i] = &texts[i]
		if i >= len(cols)+extra && i < len(fields) && binaryField(fields[i]) {
			dest[i] = nil // a vector in binary, read from RawValues below
		}
	}
	var last []string
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		row := make([]any, len(cols))
		var err error
		for i, c := range cols {
			if row[i], err = cell(c, texts[i]); err != nil {
				return nil, driver.Wrap(driver.KindQueryFailed, err, "reading %s", t.qualified())
			}
		}
		page.Rows = append(page.Rows, row)
		last = last[:0]
		for _, s := range texts[len(cols) : len(cols)+extra] {
			last = append(last, deref(s))
		}
		if vectors {
			vs := make([][]float32, len(page.VectorNames))
			values := rows.RawValues()
			for k, s := range texts[len(cols)+extra:] {
				if at := len(cols) + extra + k; dest[at] == nil {
					if values[at] != nil {
						if vs[k], err = decodeVector(values[at]); err != nil {
							return nil, driver.Wrap(driver.KindQueryFailed, err, "reading the vectors of %s", t.qualified())
						}
					}
					continue
				}
				if s != nil {
					if vs[k], err = floats(*s); err != nil {
						return nil, driver.Wrap(driver.KindQueryFailed, err, "reading the vectors of %s", t.qualified())
					}
				}
			}
			page.Vectors = append(page.Vectors, vs)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	page.Walked = len(page.Rows)
	return last, nil
}

// readFailed is a walk's failure as the driver says it: a cell it could not read is said
// already; a server's error is failed's (which may ask the server about the filters' values,
// so the walk's own connection must be given back first).
func (d *Driver) readFailed(ctx context.Context, vals filterValues, err error, t *table) error {
	var de *driver.Error
	if errors.As(err, &de) {
		return err
	}
	return d.failed(ctx, vals, err, "walking "+t.qualified())
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// floats reads a vector's text, [1,2,3], as float32s. pgvector writes each number plainly, so
// each is read as encoding/json reads a number into a float32 (strconv.ParseFloat at 32 bits)
// without its reflection, which cost an export three quarters of its CPU; text of any other
// shape goes through encoding/json, which says what is wrong.
func floats(s string) ([]float32, error) {
	if f, ok := plainFloats(s); ok {
		return f, nil
	}
	var f []float32
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		return nil, fmt.Errorf("a vector that is not a list of numbers")
	}
	return f, nil
}

// plainFloats reads [n,n,...], each n a JSON number (jsonNumber) and nothing else between the
// commas; ok is false for any other text.
func plainFloats(s string) ([]float32, bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	body := s[1 : len(s)-1]
	if body == "" {
		return []float32{}, true
	}
	out := make([]float32, 0, strings.Count(body, ",")+1)
	for {
		field, rest, more := strings.Cut(body, ",")
		if !jsonNumber(field) {
			return nil, false
		}
		g, err := strconv.ParseFloat(field, 32)
		if err != nil {
			return nil, false
		}
		out = append(out, float32(g))
		if !more {
			return out, true
		}
		body = rest
	}
}
