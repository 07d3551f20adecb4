package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"app/backend/driver"
)

// CellText renders a driver cell (nil, string, bool, json.Number; arrays and objects are
// already JSON text) as display text, or nil for null.
func CellText(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case json.Number:
		s = x.String()
	case json.RawMessage:
		s = string(x)
	default: // a driver that breaks the cell contract still shows something sensible
		if b, err := json.Marshal(x); err == nil {
			s = string(b)
		} else {
			s = fmt.Sprint(x)
		}
	}
	return &s
}

// GridFromText reads back a grid a window holds as text (an editor result, Find similar's
// matches): numbers of number columns as their digits (json.Number, exact), booleans of
// boolean columns as booleans, the rest as text.
func GridFromText(cols []driver.Column, rows [][]*string) *driver.Grid {
	out := &driver.Grid{Columns: cols, Rows: make([][]any, len(rows))}
	for r, row := range rows {
		cells := make([]any, len(row))
		for j, c := range row {
			if c == nil || j >= len(cols) {
				continue
			}
			switch cols[j].Kind {
			case driver.ColumnInteger, driver.ColumnNumber:
				cells[j] = json.Number(*c)
			case driver.ColumnBoolean:
				cells[j] = *c == "true"
			default:
				cells[j] = *c
			}
		}
		out.Rows[r] = cells
	}
	return out
}

// invalid is the error of a malformed request.
func invalid(format string, args ...any) error {
	return driver.Errorf(driver.KindInvalidArgument, format, args...)
}

// TargetVector is the vector of table to search by, among its named vectors: target when the
// table has it, the only one when target is "", and "" for a table with its own vector alone.
func TargetVector(table string, named []string, target string) (string, error) {
	switch {
	case target != "" && !slices.Contains(named, target):
		return "", invalid("%s has no named vector %q", table, target)
	case target == "" && len(named) == 1:
		return named[0], nil
	case target == "" && len(named) > 1:
		return "", invalid("%s has several named vectors: choose one of %s", table, strings.Join(named, ", "))
	}
	return target, nil
}

// RowVector is the vector of the one row of g: the vector column's JSON array, or for named
// vectors its object's member target.
func RowVector(g *driver.Grid, target string) ([]float64, error) {
	if len(g.Rows) == 0 {
		return nil, driver.Errorf(driver.KindNotFound, "the row no longer exists")
	}
	col, own := -1, false
	for j, c := range g.Columns {
		if c.IsVector() && (col < 0 || !own) {
			col = j
			// A table whose vectors are columns of their own names the target by its column.
			own = target != "" && c.Name == target
		}
	}
	if col < 0 || g.Rows[0][col] == nil {
		return nil, invalid("the row has no vector to search with")
	}
	raw := json.RawMessage(*CellText(g.Rows[0][col]))
	if target != "" && !own {
		var byName map[string]json.RawMessage
		if err := json.Unmarshal(raw, &byName); err != nil || byName[target] == nil {
			return nil, invalid("the row has no %s vector", target)
		}
		raw = byName[target]
	}
	if t := bytes.TrimSpace(raw); len(t) > 1 && t[0] == '[' && bytes.HasPrefix(bytes.TrimSpace(t[1:]), []byte("[")) {
		return nil, invalid("the row's vector is a multi-vector: Find similar searches with one vector (search with one of them in the query editor)")
	}
	var vec []float64
	if err := json.Unmarshal(raw, &vec); err != nil || len(vec) == 0 {
		return nil, invalid("the row's vector is not a list of numbers")
	}
	return vec, nil
}

// VectorsOfRows reads the full vector cell of each row keys name, as its JSON text: out[i]
// is keys[i]'s, nil for a row without a vector or one the table does not hold. A one-column
// key is read in one Browse (IN), a key of several columns (or a text key holding a comma,
// which IN's list cannot carry) one Browse per row.
func VectorsOfRows(ctx context.Context, d driver.Driver, table string, info *driver.TableInfo, keys []driver.Key) ([]*string, error) {
	for i, k := range keys {
		if err := driver.CheckKey(info.PrimaryKey, k, fmt.Sprintf("key %d", i+1)); err != nil {
			return nil, err
		}
	}
	out := make([]*string, len(keys))
	page := func(filters []driver.Filter, limit int) (*driver.Grid, error) {
		return d.Browse(ctx, table, driver.Page{Limit: limit, Vectors: driver.VectorsFull}, filters, nil)
	}
	fill := func(g *driver.Grid) {
		vec := -1
		for j, c := range g.Columns {
			if c.IsVector() {
				vec = j
			}
		}
		if vec < 0 {
			return
		}
		for _, r := range g.Rows {
			k := driver.KeyOf(g.Columns, info.PrimaryKey, r)
			for i, want := range keys {
				if out[i] == nil && k != nil && driver.SameKey(k, want) {
					out[i] = CellText(r[vec])
				}
			}
		}
	}
	if oneList(info.PrimaryKey, keys) {
		vals := make([]string, len(keys))
		for i, k := range keys {
			vals[i] = driver.KeyValueText(k[info.PrimaryKey[0]])
		}
		g, err := page([]driver.Filter{{Column: info.PrimaryKey[0], Operator: driver.OpIn, Value: strings.Join(vals, ",")}}, len(keys))
		if err != nil {
			return nil, err
		}
		fill(g)
		return out, nil
	}
	for _, k := range keys {
		g, err := page(driver.KeyFilters(info.PrimaryKey, k), 1)
		if err != nil {
			return nil, err
		}
		fill(g)
	}
	return out, nil
}

// oneList tells whether keys fit one IN filter: one key column, no value with a comma.
func oneList(primaryKey []string, keys []driver.Key) bool {
	if len(primaryKey) != 1 {
		return false
	}
	for _, k := range keys {
		if strings.Contains(driver.KeyValueText(k[primaryKey[0]]), ",") {
			return false
		}
	}
	return true
}

// ImportTargets are the columns of an existing table a file column may go to: its
// non-vector columns, then each vector's column (transfer.VectorColumn names them).
func ImportTargets(info *driver.TableInfo, vectorColumn func(name string) string) []string {
	out := []string{}
	for _, c := range info.Columns {
		if !c.IsVector() {
			out = append(out, c.Name)
		}
	}
	for _, n := range info.Settings.Vectors() {
		out = append(out, vectorColumn(n))
	}
	return out
}

// ReadRowVector reads back the stored vector of the row whose key is key (the table's primary
// key column), on the named vector target ("" picks the only one, or is refused naming the
// choices): what Find similar searches near, and what a search by words takes as "a row's
// vector" for a mode with a vector parameter. It returns the target vector chosen.
func ReadRowVector(ctx context.Context, d driver.Driver, table string, key driver.Key, target string) ([]float64, string, error) {
	if len(key) == 0 {
		return nil, "", invalid("give the key of the row whose vector to search with")
	}
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, "", err
	}
	if err := driver.CheckKey(info.PrimaryKey, key, "the row's key"); err != nil {
		return nil, "", err
	}
	if target, err = TargetVector(table, info.Settings.NamedVectors, target); err != nil {
		return nil, "", err
	}
	row, err := d.Browse(ctx, table, driver.Page{Limit: 1}, driver.KeyFilters(info.PrimaryKey, key), nil)
	if err != nil {
		return nil, "", err
	}
	vec, err := RowVector(row, target)
	return vec, target, err
}
