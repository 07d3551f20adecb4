package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"app/backend/driver"
)

// scanStep is a walk's default page.
const scanStep = 1000

// Scan walks a table in key order by keyset (WHERE key > the last key read, never OFFSET), so
// a step late in a big table costs what the first does; a table without a key walks by its
// rows' physical places (ctid). After and Next are the last key read, as JSON text. The
// filters go into the WHERE, so each step returns up to Limit matching rows.
func (d *Driver) Scan(ctx context.Context, name string, req driver.ScanRequest) (*driver.ScanPage, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	order := t.key
	byPlace := len(order) == 0
	if byPlace && t.kind != "r" && t.kind != "m" {
		return nil, errorf(driver.KindUnsupported, "%s has no key to walk it by: read it by pages", t.qualified())
	}
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
		if err := json.Unmarshal([]byte(req.After), &after); err != nil || (!byPlace && len(after) != len(order)) || (byPlace && len(after) != 1) {
			return nil, errorf(driver.KindInvalidArgument, "the walk's position %q is not one this driver gave", req.After)
		}
		var cond string
		if byPlace {
			args = append(args, after[0])
			cond = "ctid > $" + strconv.Itoa(len(args)) + "::tid"
		} else {
			cols, params := make([]string, len(order)), make([]string, len(order))
			for i, k := range order {
				c, _ := t.column(k)
				expr, typ := scalar(c, ident(k))
				args = append(args, after[i])
				cols[i], params[i] = expr, "$"+strconv.Itoa(len(args))+"::"+typ
			}
			cond = "(" + strings.Join(cols, ", ") + ") > (" + strings.Join(params, ", ") + ")"
		}
		if where == "" {
			where = " WHERE " + cond
		} else {
			where += " AND " + cond
		}
	}
	// The key first, then the other columns but vectors, as the contract's page has them.
	var cols, vecs []column
	for _, k := range order {
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
	list := selectList(cols)
	position := make([]string, 0, len(order))
	at := len(cols)
	if byPlace {
		position = append(position, "ctid::text"+alias(at))
	} else {
		for i, k := range order {
			position = append(position, ident(k)+"::text"+alias(at+i))
		}
	}
	list += ", " + strings.Join(position, ", ")
	if req.Vectors {
		for i, v := range vecs {
			list += ", " + ident(v.Name) + "::text" + alias(at+len(position)+i)
		}
	}
	orderBy := "ctid"
	if !byPlace {
		parts := make([]string, len(order))
		for i, k := range order {
			c, _ := t.column(k)
			parts[i], _ = scalar(c, ident(k))
		}
		orderBy = strings.Join(parts, ", ")
	}
	q := "SELECT " + list + " FROM " + t.sql() + where + " ORDER BY " + orderBy + " LIMIT " + strconv.Itoa(limit)
	rows, err := p.Query(ctx, q, args...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "walking "+t.qualified())
	}
	defer rows.Close()
	page := &driver.ScanPage{Rows: [][]any{}}
	for _, c := range cols {
		page.Columns = append(page.Columns, c.Column)
	}
	if req.Vectors {
		for _, v := range vecs {
			page.VectorNames = append(page.VectorNames, v.Name)
		}
		if len(vecs) == 1 {
			page.VectorNames = []string{""} // a table's single vector
		}
	}
	n := len(cols) + len(position) + len(page.VectorNames)
	texts := make([]*string, n)
	dest := make([]any, n)
	for i := range texts {
		dest[i] = &texts[i]
	}
	var last []string
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, d.failed(ctx, vals, err, "walking "+t.qualified())
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			if row[i], err = cell(c, texts[i]); err != nil {
				return nil, driver.Wrap(driver.KindQueryFailed, err, "reading %s", t.qualified())
			}
		}
		page.Rows = append(page.Rows, row)
		last = last[:0]
		for _, s := range texts[len(cols) : len(cols)+len(position)] {
			last = append(last, deref(s))
		}
		if req.Vectors {
			vs := make([][]float32, len(page.VectorNames))
			for k, s := range texts[len(cols)+len(position):] {
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
		return nil, d.failed(ctx, vals, err, "walking "+t.qualified())
	}
	page.Walked = len(page.Rows)
	if len(page.Rows) == limit {
		b, _ := json.Marshal(last)
		page.Next = string(b)
	}
	return page, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// floats reads a vector's text, [1,2,3], as float32s.
func floats(s string) ([]float32, error) {
	var f []float32
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		return nil, fmt.Errorf("a vector that is not a list of numbers")
	}
	return f, nil
}
