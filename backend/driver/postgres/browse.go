package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// selectList reads each column as JSON text (to_json: numbers with all their digits,
// timestamps in ISO 8601, arrays as JSON arrays), a vector by its own text ("[1,2,3]", a JSON
// array), so one decoder types every cell.
func selectList(cols []column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		switch {
		case binaryVector(c):
			parts[i] = ident(c.Name) // read in binary (vectors.go)
		case c.Kind == driver.ColumnVector:
			parts[i] = ident(c.Name) + "::text"
		default:
			parts[i] = "to_json(" + ident(c.Name) + ")::text"
		}
		parts[i] += alias(i)
	}
	return strings.Join(parts, ", ")
}

// shown is the SQL of a cell's text as the grid shows it (explore.CellText of cell): a JSON
// string unquoted, any other JSON as its text, a vector by its own text. Comparing it with the
// text a person read tells whether the cell still holds what they saw.
func shown(c column) string {
	col := ident(c.Name)
	switch c.Kind {
	case driver.ColumnVector:
		return col + "::text"
	case driver.ColumnJSON:
		return "to_json(" + col + ")::text"
	}
	return "CASE json_typeof(to_json(" + col + ")) WHEN 'string' THEN to_json(" + col + ") #>> '{}' ELSE to_json(" + col + ")::text END"
}

// alias names the i-th selected expression apart from every column, so that an ORDER BY of a
// column's name means the column, never an output of the same name (which would sort as text).
func alias(i int) string { return ` AS "_app_out_` + strconv.Itoa(i) + `"` }

// cell is one cell from its JSON text: text, a json.Number, a bool, nil, or for an array, an
// object or a vector the JSON text itself.
func cell(c column, text *string) (any, error) {
	if text == nil {
		return nil, nil
	}
	return cellOf(c, *text)
}

// cellOf is cell of a non-NULL text. The texts the server writes (to_json's numbers, its
// strings without escapes, true, false, arrays) are read without a JSON decoder, which cost a
// 1,000-row page milliseconds and megabytes of garbage; each shortcut gives exactly what the
// decoder gives, and any other text still goes through the decoder.
func cellOf(c column, text string) (any, error) {
	if c.Kind == driver.ColumnVector {
		return text, nil // "[1,2,3]": a vector's text is its JSON
	}
	if v, ok := jsonScalar(text); ok {
		if c.Kind == driver.ColumnJSON {
			return text, nil // a JSON scalar is shown as the document it is
		}
		return v, nil
	}
	// The decoder would read a whole array or document only to hand back its text.
	if text != "" && (text[0] == '[' || text[0] == '{') && json.Valid([]byte(text)) {
		return text, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("column %s: %w", c.Name, err)
	}
	switch v.(type) {
	case map[string]any, []any:
		return text, nil // an array's or a document's cell is its JSON text (the contract's)
	}
	if c.Kind == driver.ColumnJSON {
		return text, nil // a JSON scalar is shown as the document it is
	}
	return v, nil
}

// jsonScalar reads text that is wholly one JSON number, true, false, null, or a string with
// no escape in it, as a decoder with UseNumber reads it; ok is false for anything else.
func jsonScalar(text string) (v any, ok bool) {
	switch text {
	case "null":
		return nil, true
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if jsonNumber(text) {
		return json.Number(text), true
	}
	if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' {
		return nil, false
	}
	inner := text[1 : len(text)-1]
	ascii := true
	for i := 0; i < len(inner); i++ {
		switch b := inner[i]; {
		case b == '"' || b == '\\' || b < 0x20:
			return nil, false
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	// The decoder replaces invalid UTF-8 (which a server in SQL_ASCII may send); that case
	// is left to it.
	if !ascii && !utf8.ValidString(inner) {
		return nil, false
	}
	return inner, true
}

// jsonNumber tells text that is one number by JSON's grammar, nothing before or after it.
func jsonNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i == len(s):
		return false
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// digits is the index after the run of ASCII digits in s from i.
func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// readPage reads rows of cols (selected by selectList, with resultFormats), each followed by
// extra order values as text, into a grid of at most limit rows, and returns the last row's
// order values. Vectors read in binary are printed once the rows are in: whole, or as their
// previews when vectors asks for those (the columns then marked Preview).
func readPage(rows pgx.Rows, cols []column, extra, limit int, vectors driver.VectorRead) (*driver.Grid, []*string, error) {
	defer rows.Close()
	g := &driver.Grid{Columns: make([]driver.Column, len(cols)), Rows: [][]any{}}
	for i, c := range cols {
		g.Columns[i] = c.Column
	}
	fields := rows.FieldDescriptions()
	texts := make([]*string, len(cols)+extra)
	dest := make([]any, len(texts))
	binary := make([]bool, len(texts))
	for i := range texts {
		dest[i] = &texts[i]
		if i < len(cols) && i < len(fields) && binaryField(fields[i]) {
			binary[i], dest[i] = true, nil // read from RawValues below
		}
	}
	// A vector read in binary is its numbers (a Floats cell) until the page is read, then
	// printed as vectors asks (printVectors).
	vector := func(row []any, i int, b []byte) error {
		v, err := decodeVector(b)
		if err != nil {
			return fmt.Errorf("column %s: %w", cols[i].Name, err)
		}
		row[i] = driver.Floats(v)
		return nil
	}
	// Every other expression a page selects is cast to text, whose bytes on the wire are the
	// text itself in either format: read as they arrive, each cell is one string, where
	// Scan would also allocate a pointer to it.
	raw := allText(fields, binary, len(texts))
	var block []any // cells for the rows to come: one allocation for a run of rows, not one a row
	var last []*string
	for rows.Next() {
		if limit > 0 && len(g.Rows) == limit {
			g.HasMore = true
			break
		}
		if block == nil || len(block) < len(cols) {
			n := max(16, min(len(g.Rows), 1024))
			if limit > 0 {
				n = min(n, limit-len(g.Rows))
			}
			block = make([]any, n*len(cols))
		}
		row := block[:len(cols):len(cols)]
		block = block[len(cols):]
		if raw {
			values := rows.RawValues()
			for i, c := range cols {
				if values[i] == nil {
					continue
				}
				if binary[i] {
					if err := vector(row, i, values[i]); err != nil {
						return nil, nil, err
					}
					continue
				}
				v, err := cellOf(c, string(values[i]))
				if err != nil {
					return nil, nil, err
				}
				row[i] = v
			}
			last = make([]*string, extra)
			for i, b := range values[len(cols):] {
				if b != nil {
					s := string(b)
					last[i] = &s
				}
			}
		} else {
			if err := rows.Scan(dest...); err != nil {
				return nil, nil, err
			}
			values := rows.RawValues()
			for i, c := range cols {
				if binary[i] {
					if values[i] != nil {
						if err := vector(row, i, values[i]); err != nil {
							return nil, nil, err
						}
					}
					continue
				}
				v, err := cell(c, texts[i])
				if err != nil {
					return nil, nil, err
				}
				row[i] = v
			}
			last = append(last[:0:0], texts[len(cols):]...)
		}
		g.Rows = append(g.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	printVectors(g, vectors)
	if vectors == driver.VectorsPreview {
		for i := range cols {
			if binary[i] {
				g.Columns[i].Preview = true
			}
		}
	}
	return g, last, nil
}

// allText tells a result of n columns, each of type text.
func allText(fields []pgconn.FieldDescription, binary []bool, n int) bool {
	if len(fields) != n {
		return false
	}
	for i, f := range fields {
		if f.DataTypeOID != pgtype.TextOID && !binary[i] {
			return false
		}
	}
	return true
}

// Browse reads one page: the filters as a WHERE with every value bound as a parameter, the
// sorts and then the key (so pages never overlap), NULLs last ascending. A page that follows
// one this connection read (the grid scrolling on) starts after that page's last row by its
// sort and key values (keyset), never by skipping rows with OFFSET, so page 5,000 costs what
// page 1 does; a jump elsewhere reads by OFFSET.
func (d *Driver) Browse(ctx context.Context, name string, page driver.Page, filters []driver.Filter, sorts []driver.Sort) (*driver.Grid, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	var args []any
	where, vals, err := d.where(t, filters, &args)
	if err != nil {
		return nil, err
	}
	ord, err := ordering(t, sorts)
	if err != nil {
		return nil, err
	}
	plan, err := d.marks.PlanPage(t.qualified(), where, &args, ord, unique(ord, t), page, d.Capabilities().DefaultPageSize, bind)
	if err != nil {
		return nil, err
	}
	limit := plan.Limit
	list := selectList(t.columns)
	for i, e := range ord {
		list += ", " + e.Expr + "::text" + alias(len(t.columns)+i)
	}
	q := "SELECT " + list + " FROM " + t.sql() + plan.Where + plan.Tail
	rows, err := p.Query(ctx, q, withFormats(resultFormats(t.columns, len(ord)), args)...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "reading "+t.qualified())
	}
	g, last, err := readPage(rows, t.columns, len(ord), limit, page.Vectors)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "reading "+t.qualified())
	}
	d.marks.Read(plan, page.Offset, len(g.Rows), position(last))
	if page.Vectors == driver.VectorsPreview {
		// The grid shows a vector's length and first numbers: only those cross the plugin
		// boundary, and it asks for a whole vector when a person opens one.
		driver.PreviewVectors(g)
	}
	g.Offset = page.Offset
	return g, nil
}

// Count counts the rows the filters select, exactly.
func (d *Driver) Count(ctx context.Context, name string, filters []driver.Filter) (int64, error) {
	var n int64
	return n, d.countWith(ctx, name, filters, "SELECT count(*) FROM ", "counting", &n)
}

// countWith runs head+table+WHERE for the filters (their values bound) and scans its one
// value into dest: Count's query and Estimate's plan of the same query.
func (d *Driver) countWith(ctx context.Context, name string, filters []driver.Filter, head, doing string, dest any) error {
	t, err := d.table(ctx, name)
	if err != nil {
		return err
	}
	p, err := d.db()
	if err != nil {
		return err
	}
	var args []any
	where, vals, err := d.where(t, filters, &args)
	if err != nil {
		return err
	}
	if err := p.QueryRow(ctx, head+t.sql()+where, args...).Scan(dest); err != nil {
		return d.failed(ctx, vals, err, doing+" "+t.qualified())
	}
	return nil
}

// ordering is a page's whole order: the sorts, then the key's columns (or, without a key,
// ctid), so that every page has one order; empty for a view without a key.
func ordering(t *table, sorts []driver.Sort) (sqlkit.Order, error) {
	var out sqlkit.Order
	seen := map[string]bool{}
	for _, s := range sorts {
		c, ok := t.column(s.Column)
		if !ok {
			return nil, errorf(driver.KindInvalidArgument, "%s has no column %q to sort on", t.qualified(), s.Column)
		}
		if !c.Sortable {
			return nil, errorf(driver.KindInvalidArgument, "the column %s (%s) cannot be sorted", c.Name, c.sqlType)
		}
		expr, typ := scalar(c, ident(c.Name))
		out = append(out, sqlkit.Term{Expr: expr, Type: typ, Desc: s.Descending, NotNull: c.notNull})
		seen[c.Name] = true
	}
	for _, k := range t.key {
		if !seen[k] {
			c, _ := t.column(k)
			expr, typ := scalar(c, ident(k))
			out = append(out, sqlkit.Term{Expr: expr, Type: typ, NotNull: true})
		}
	}
	if len(t.key) == 0 {
		switch t.kind {
		case "r", "m":
			out = append(out, sqlkit.Term{Expr: "ctid", Type: "tid", NotNull: true})
		case "p":
			// A place repeats across partitions: the partition first.
			out = append(out, sqlkit.Term{Expr: "tableoid", Type: "oid", NotNull: true}, sqlkit.Term{Expr: "ctid", Type: "tid", NotNull: true})
		}
	}
	return out, nil
}

// unique tells an order that no two rows share: it ends in the key or in the rows' places.
// Only such an order can start a page after a row (keyset); any other ties rows it would skip.
func unique(o sqlkit.Order, t *table) bool {
	if len(o) == 0 {
		return false
	}
	return len(t.key) > 0 || o[len(o)-1].Expr == "ctid"
}

// bind binds an order value (its text) as a parameter of the term's type.
func bind(args *[]any, v any, typ string) string {
	*args = append(*args, v)
	return "$" + strconv.Itoa(len(*args)) + "::" + typ
}

// position is a row's order values (their text, nil for NULL) as sqlkit.Order.After reads them.
func position(last []*string) []any {
	at := make([]any, len(last))
	for i, s := range last {
		if s != nil {
			at[i] = *s
		}
	}
	return at
}

// CheckCells types the cells a person typed into one row, as Insert and Update will: each
// bound as text and cast to its column's type by the server, without writing anything.
func (d *Driver) CheckCells(ctx context.Context, name string, values map[string]*string) (map[string]string, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for col, v := range values {
		c, ok := t.column(col)
		if !ok {
			out[col] = fmt.Sprintf("%s has no column %q", t.qualified(), col)
			continue
		}
		if c.ReadOnly {
			out[col] = "the column " + col + " is read-only (the database makes its values)"
			continue
		}
		if v == nil {
			continue
		}
		text, err := bindText(*c, *v)
		if err != nil {
			out[col] = err.Error()
			continue
		}
		var ok2 bool
		if err := p.QueryRow(ctx, "SELECT $1::"+c.write+" IS NOT NULL", text).Scan(&ok2); err != nil {
			if cerr := driver.ContextError(ctx); cerr != nil {
				return nil, cerr
			}
			out[col] = strings.TrimPrefix(d.queryError(ctx, err, c.Name).Error(), c.Name+": ")
		}
	}
	return out, nil
}

// bindText is a value for column c as the text its type's input function reads: text as it
// is, a number by its digits, a bool as true/false, a list (Go or JSON text) as an array
// literal for an array column, JSON for a json column.
func bindText(c column, v any) (string, error) {
	switch x := v.(type) {
	case string:
		if c.Kind == driver.ColumnArray {
			s := strings.TrimSpace(x)
			if strings.HasPrefix(s, "[") {
				var list []any
				dec := json.NewDecoder(strings.NewReader(s))
				dec.UseNumber()
				if err := dec.Decode(&list); err != nil {
					return "", fmt.Errorf("the value of %s is not a JSON list", c.Name)
				}
				return arrayLiteral(list), nil
			}
		}
		return x, nil
	case json.Number:
		return x.String(), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case bool:
		return strconv.FormatBool(x), nil
	case []any:
		if c.Kind == driver.ColumnArray {
			return arrayLiteral(x), nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("the value of %s cannot be read", c.Name)
	}
	return string(b), nil
}

// arrayLiteral is a list as PostgreSQL's array input reads it: {"a","b",NULL}.
func arrayLiteral(list []any) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		switch x := e.(type) {
		case nil:
			b.WriteString("NULL")
		case []any:
			b.WriteString(arrayLiteral(x))
		default:
			s := driver.KeyValueText(x)
			if m, ok := x.(map[string]any); ok {
				j, _ := json.Marshal(m)
				s = string(j)
			}
			b.WriteByte('"')
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s))
			b.WriteByte('"')
		}
	}
	b.WriteByte('}')
	return b.String()
}
