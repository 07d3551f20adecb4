package sqlite

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// scanStep is a walk's page when the caller names none.
const scanStep = 1000

// Scan walks a table in key order (its declared key, or its rowid), a page a call, for exports
// and the map: each page starts after the last key the one before ended on (Next, the key's
// values as JSON), so a walk reads every row once, whatever its size. The vectors come apart,
// as numbers (sqlite-vec's float32 blobs read as they are, JSON text parsed). A view, with no
// key, is walked by OFFSET.
func (d *Driver) Scan(ctx context.Context, name string, req driver.ScanRequest) (*driver.ScanPage, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	if limit <= 0 {
		limit = scanStep
	}
	var args []any
	where, err := sqlkit.Where(dialect{t}, req.Filters, &args)
	if err != nil {
		return nil, err
	}
	var cols, vecs []column
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
	all := len(vecs)
	if req.Vectors && len(req.VectorNames) > 0 {
		// only the asked vector columns are selected: SQLite reads no other blob
		names := make([]string, len(vecs))
		for i, v := range vecs {
			names[i] = v.Name
		}
		picked, err := req.PickVectors(t.name, names)
		if err != nil {
			return nil, err
		}
		kept := make([]column, len(picked))
		for i, k := range picked {
			kept[i] = vecs[k]
		}
		vecs = kept
	}
	list := make([]string, 0, len(cols)+len(vecs))
	for i := range cols {
		list = append(list, columnExpr(t, &cols[i]))
	}
	if req.Vectors {
		for _, v := range vecs {
			list = append(list, ident(v.Name))
		}
	}
	order, skip := "", ""
	if len(t.key) > 0 {
		keys := make([]string, len(t.key))
		for i := range t.key {
			keys[i] = columnExpr(t, &cols[i])
		}
		order = " ORDER BY " + strings.Join(keys, ", ")
		if req.After != "" {
			at, err := afterKey(req.After, len(keys))
			if err != nil {
				return nil, err
			}
			params := make([]string, len(at))
			for i, v := range at {
				args = append(args, v)
				params[i] = "?" + strconv.Itoa(len(args))
			}
			cond := "(" + strings.Join(keys, ", ") + ") > (" + strings.Join(params, ", ") + ")"
			if where == "" {
				where = " WHERE " + cond
			} else {
				where += " AND " + cond
			}
		}
	} else if req.After != "" {
		n, err := strconv.Atoi(req.After)
		if err != nil || n < 0 {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the walk of %s cannot go on from %q", t.name, req.After)
		}
		skip = " OFFSET " + req.After
	}
	page := &driver.ScanPage{Rows: [][]any{}}
	for _, c := range cols {
		page.Columns = append(page.Columns, c.Column)
	}
	if req.Vectors {
		for _, v := range vecs {
			page.VectorNames = append(page.VectorNames, v.Name)
		}
		if len(vecs) == 1 && all == 1 {
			page.VectorNames = []string{""} // a table's single vector
		}
	}
	var last []any
	q := "SELECT " + strings.Join(list, ", ") + " FROM " + t.sql() + where + order + " LIMIT " + strconv.Itoa(limit) + skip
	err = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, q, args, func(s *sqlite3.Stmt) error {
			row := make([]any, len(cols))
			for i := range cols {
				row[i] = cell(s, i, &cols[i], driver.VectorsFull)
			}
			page.Rows = append(page.Rows, row)
			if req.Vectors {
				vs := make([][]float32, len(vecs))
				for k := range vecs {
					vs[k] = numbers(s, len(cols)+k)
				}
				page.Vectors = append(page.Vectors, vs)
			}
			last = make([]any, len(t.key))
			for i := range t.key {
				last[i] = value(s, i)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	page.Walked = len(page.Rows)
	if len(page.Rows) == limit {
		if len(t.key) > 0 {
			b, _ := json.Marshal(last)
			page.Next = string(b)
		} else {
			done, _ := strconv.Atoi(req.After)
			page.Next = strconv.Itoa(done + limit)
		}
	}
	return page, nil
}

// afterKey reads a walk's position: the last key's values as JSON, integers as integers.
func afterKey(after string, n int) ([]any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(after)))
	dec.UseNumber()
	var vals []any
	if err := dec.Decode(&vals); err != nil || len(vals) != n {
		return nil, driver.Errorf(driver.KindInvalidArgument, "the walk cannot go on from %q: not a position it gave", after)
	}
	for i, v := range vals {
		if num, ok := v.(json.Number); ok {
			if x, err := num.Int64(); err == nil {
				vals[i] = x
			} else if f, err := num.Float64(); err == nil {
				vals[i] = f
			}
		}
	}
	return vals, nil
}

// numbers is a vector cell's numbers: sqlite-vec's float32 blob, or a JSON array's; nil for
// NULL or a cell that is neither.
func numbers(s *sqlite3.Stmt, i int) []float32 {
	switch s.ColumnType(i) {
	case sqlite3.BLOB:
		b := s.ColumnRawBlob(i)
		if len(b)%4 == 0 {
			return floatsOf(b)
		}
	case sqlite3.TEXT:
		var v []float32
		if json.Unmarshal(s.ColumnRawText(i), &v) == nil {
			return v
		}
	}
	return nil
}
