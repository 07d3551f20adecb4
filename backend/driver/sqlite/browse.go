package sqlite

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// dialect is SQLite's SQL for sqlkit.Where: every value a ? parameter, typed as its column
// reads it (an integer column's value bound as an integer, so that SQLite compares numbers).
type dialect struct{ t *table }

func (sd dialect) Table() string { return sd.t.name }

func (sd dialect) Column(name string) (sqlkit.Column, bool) {
	c, ok := sd.t.column(name)
	if !ok {
		return sqlkit.Column{}, false
	}
	return sqlkit.Column{Name: c.Name, Expr: columnExpr(sd.t, c), Type: string(c.Kind), Text: c.Kind == driver.ColumnText,
		Declared: orWord(c.declared, "of no type"), Filterable: c.Filterable}, true
}

// Bind binds a value as a numbered parameter (?3), which a condition may name twice.
func (sd dialect) Bind(args *[]any, _ driver.Filter, value string, c sqlkit.Column) string {
	*args = append(*args, typed(value, driver.ColumnKind(c.Type)))
	return "?" + strconv.Itoa(len(*args))
}

func (sd dialect) In(args *[]any, f driver.Filter, expr string, items []string, c sqlkit.Column) string {
	if len(items) == 0 {
		return "1 = 0"
	}
	ps := make([]string, len(items))
	for i, it := range items {
		ps[i] = sd.Bind(args, f, it, c)
	}
	return expr + " IN (" + strings.Join(ps, ", ") + ")"
}

func (sd dialect) Contains(expr, p string) string { return "instr(" + expr + ", " + p + ") > 0" }
func (sd dialect) StartsWith(expr, p string) string {
	return "substr(" + expr + ", 1, length(" + p + ")) = " + p
}
func (sd dialect) EndsWith(expr, p string) string {
	return "(length(" + p + ") = 0 OR substr(" + expr + ", -length(" + p + ")) = " + p + ")"
}

func (sd dialect) Regex(args *[]any, f driver.Filter, expr string) (string, error) {
	*args = append(*args, f.Value)
	return expr + " REGEXP ?" + strconv.Itoa(len(*args)), nil
}

// Arrays are not a SQLite type: no column is one.
func (sd dialect) Element(c sqlkit.Column) sqlkit.Column { return c }
func (sd dialect) Exists(_ sqlkit.Column, cond string) string {
	return cond
}
func (sd dialect) Empty(c sqlkit.Column) string { return c.Expr + " = ''" }

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}

// typed is a filter's or a key's text as the value SQLite compares with a column of kind: an
// integer or a number where the text is one, else the text.
func typed(text string, kind driver.ColumnKind) any {
	switch kind {
	case driver.ColumnInteger, driver.ColumnNumber, driver.ColumnOther:
		if n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64); err == nil {
			return n
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil {
			return f
		}
	case driver.ColumnBoolean:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "true", "1":
			return int64(1)
		case "false", "0":
			return int64(0)
		}
	}
	return text
}

// columnExpr is how a column is named in a statement: the rowid as SQLite's own word.
func columnExpr(t *table, c *column) string {
	if t.rowidKey && c.Name == t.key[0] {
		return "_rowid_"
	}
	return ident(c.Name)
}

// selectList names t's columns for a page.
func selectList(t *table) string {
	parts := make([]string, len(t.columns))
	for i := range t.columns {
		parts[i] = columnExpr(t, &t.columns[i])
	}
	return strings.Join(parts, ", ")
}

// ordering is a page's order: the sorts, then the key (the rowid where none is declared).
func ordering(t *table, sorts []driver.Sort) (sqlkit.Order, error) {
	var out sqlkit.Order
	seen := map[string]bool{}
	for _, s := range sorts {
		c, ok := t.column(s.Column)
		if !ok {
			return nil, driver.Errorf(driver.KindInvalidArgument, "%s has no column %q to sort on", t.name, s.Column)
		}
		if !c.Sortable {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the column %s cannot be sorted", c.Name)
		}
		out = append(out, sqlkit.Term{Expr: columnExpr(t, c), Type: string(c.Kind), Desc: s.Descending, NotNull: c.notNull})
		seen[c.Name] = true
	}
	for _, k := range t.key {
		if !seen[k] {
			c, _ := t.column(k)
			out = append(out, sqlkit.Term{Expr: columnExpr(t, c), Type: string(c.Kind), NotNull: true})
		}
	}
	return out, nil
}

// bind binds an order value as read back from a row (its SQLite value).
func bind(args *[]any, v any, _ string) string {
	*args = append(*args, v)
	return "?" + strconv.Itoa(len(*args))
}

// Browse reads one page: the filters as a WHERE with every value bound, the sorts and then the
// key, NULLs last ascending. A page that follows one this connection read starts after that
// page's last row (keyset), never by skipping rows with OFFSET.
func (d *Driver) Browse(ctx context.Context, name string, page driver.Page, filters []driver.Filter, sorts []driver.Sort) (*driver.Grid, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	var args []any
	where, err := sqlkit.Where(dialect{t}, filters, &args)
	if err != nil {
		return nil, err
	}
	ord, err := ordering(t, sorts)
	if err != nil {
		return nil, err
	}
	plan, err := d.marks.PlanPage(t.name, where, &args, ord, len(t.key) > 0, page, d.Capabilities().DefaultPageSize, bind)
	if err != nil {
		return nil, err
	}
	limit := plan.Limit
	list := selectList(t)
	for _, e := range ord {
		list += ", " + e.Expr
	}
	q := "SELECT " + list + " FROM " + t.sql() + plan.Where + plan.Tail
	g := &driver.Grid{Columns: make([]driver.Column, len(t.columns)), Rows: [][]any{}}
	for i, c := range t.columns {
		g.Columns[i] = c.Column
	}
	var last []any
	// Whole vectors are their numbers (Floats cells) until the page is read, then printed on
	// every core (driver.PrintFloats), or left for the host to print.
	full := page.Vectors != driver.VectorsPreview
	err = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, q, args, func(s *sqlite3.Stmt) error {
			if len(g.Rows) == limit {
				g.HasMore = true
				return nil
			}
			row := make([]any, len(t.columns))
			for i := range t.columns {
				if full && t.columns[i].Kind == driver.ColumnVector && s.ColumnType(i) == sqlite3.BLOB && len(s.ColumnRawBlob(i))%4 == 0 {
					row[i] = driver.Floats(floatsOf(s.ColumnRawBlob(i)))
					continue
				}
				row[i] = cell(s, i, &t.columns[i], page.Vectors)
			}
			g.Rows = append(g.Rows, row)
			last = make([]any, len(ord))
			for i := range ord {
				last[i] = value(s, len(t.columns)+i)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if page.Vectors != driver.VectorsNumbers {
		driver.PrintFloats(g, driver.VectorText)
	}
	if page.Vectors == driver.VectorsPreview {
		for i := range g.Columns {
			if g.Columns[i].Kind == driver.ColumnVector {
				g.Columns[i].Preview = true
			}
		}
	}
	d.marks.Read(plan, page.Offset, len(g.Rows), last)
	g.Offset = page.Offset
	return g, nil
}

// Count counts the rows matching filters.
func (d *Driver) Count(ctx context.Context, name string, filters []driver.Filter) (int64, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return 0, err
	}
	var args []any
	where, err := sqlkit.Where(dialect{t}, filters, &args)
	if err != nil {
		return 0, err
	}
	var n int64
	err = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, "SELECT count(*) FROM "+t.sql()+where, args, func(s *sqlite3.Stmt) error {
			n = s.ColumnInt64(0)
			return nil
		})
	})
	return n, err
}

// value is a result column's SQLite value: int64, float64, string, []byte or nil.
func value(s *sqlite3.Stmt, i int) any {
	switch s.ColumnType(i) {
	case sqlite3.INTEGER:
		return s.ColumnInt64(i)
	case sqlite3.FLOAT:
		return s.ColumnFloat(i)
	case sqlite3.TEXT:
		return s.ColumnText(i)
	case sqlite3.BLOB:
		return s.ColumnBlob(i, nil)
	}
	return nil
}

// cell is a result column's value as a grid cell (the contract's: nil, string, bool or
// json.Number): integers and reals by their digits, text as it is, a vector as its JSON
// array (or its preview), any other blob as \x and its hex.
func cell(s *sqlite3.Stmt, i int, c *column, vectors driver.VectorRead) any {
	switch s.ColumnType(i) {
	case sqlite3.NULL:
		return nil
	case sqlite3.INTEGER:
		n := s.ColumnInt64(i)
		if c != nil && c.Kind == driver.ColumnBoolean && (n == 0 || n == 1) {
			return n == 1
		}
		return json.Number(strconv.FormatInt(n, 10))
	case sqlite3.FLOAT:
		return number(s.ColumnFloat(i))
	case sqlite3.TEXT:
		text := s.ColumnText(i)
		if c != nil && c.Kind == driver.ColumnVector && vectors == driver.VectorsPreview {
			return driver.PreviewText(c.Type, text)
		}
		return text
	}
	b := s.ColumnRawBlob(i)
	if c != nil && c.Kind == driver.ColumnVector && len(b)%4 == 0 {
		v := floatsOf(b)
		if vectors == driver.VectorsPreview {
			return driver.PreviewOf(v)
		}
		return driver.VectorText(v)
	}
	return `\x` + hex.EncodeToString(b)
}

// number is a real's cell: its shortest digits; an infinity by name (JSON has no number for
// it; SQLite keeps no NaN).
func number(f float64) any {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// floatsOf reads sqlite-vec's float32 blob (little-endian).
func floatsOf(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// blobOf is a vector as sqlite-vec's float32 blob.
func blobOf(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}
