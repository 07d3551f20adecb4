package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// textBases are the base types compared as text without a cast of the column.
var textBases = map[string]bool{"text": true, "varchar": true, "bpchar": true, "name": true, "citext": true}

// dialect is PostgreSQL's SQL for sqlkit.Where: each value a parameter cast to the column's
// base type (never to its declared length or precision, which would round or cut the value
// compared), and a note of each value the server must read as that type, so that a failure
// names the filter (failed).
type dialect struct {
	t      *table
	checks []valueCheck
}

// valueCheck is a value the server must read as typ before the filter runs.
type valueCheck struct {
	f    driver.Filter
	text string
	typ  string
}

// filterValues are a WHERE's values the server must read as their columns' types.
type filterValues []valueCheck

// where is the WHERE of filters (groups ORed within, ANDed between), "" for none, and the values
// it binds. A filter on a column that does not take its operator is refused here, naming the
// filter; one whose value its column's type does not read fails the statement, which failed
// names it (the table is never answered instead).
func (d *Driver) where(t *table, filters []driver.Filter, args *[]any) (string, filterValues, error) {
	pd := &dialect{t: t}
	w, err := sqlkit.Where(pd, filters, args)
	if err != nil {
		return "", nil, err
	}
	return w, pd.checks, nil
}

func (pd *dialect) Table() string { return pd.t.qualified() }

func (pd *dialect) Column(name string) (sqlkit.Column, bool) {
	c, ok := pd.t.column(name)
	if !ok {
		return sqlkit.Column{}, false
	}
	expr, typ := scalar(c, ident(c.Name))
	return sqlkit.Column{Name: c.Name, Expr: expr, Type: typ, Text: c.Kind == driver.ColumnText, Declared: c.sqlType,
		Filterable: c.Filterable, Array: c.Kind == driver.ColumnArray}, true
}

func (pd *dialect) param(args *[]any, text, typ string) string {
	*args = append(*args, text)
	return "$" + strconv.Itoa(len(*args)) + "::" + typ
}

func (pd *dialect) Bind(args *[]any, f driver.Filter, value string, c sqlkit.Column) string {
	if !c.Text {
		pd.checks = append(pd.checks, valueCheck{f, value, c.Type})
	}
	return pd.param(args, value, c.Type)
}

func (pd *dialect) In(args *[]any, f driver.Filter, expr string, items []string, c sqlkit.Column) string {
	list := make([]any, len(items))
	for i, it := range items {
		list[i] = it
	}
	lit := arrayLiteral(list)
	pd.checks = append(pd.checks, valueCheck{f, lit, c.Type + "[]"})
	return expr + " = ANY (" + pd.param(args, lit, c.Type+"[]") + ")"
}

func (pd *dialect) Contains(expr, p string) string   { return "strpos(" + expr + ", " + p + ") > 0" }
func (pd *dialect) StartsWith(expr, p string) string { return "starts_with(" + expr + ", " + p + ")" }
func (pd *dialect) EndsWith(expr, p string) string {
	return "right(" + expr + ", char_length(" + p + ")) = " + p
}

func (pd *dialect) Regex(args *[]any, f driver.Filter, expr string) (string, error) {
	pd.checks = append(pd.checks, valueCheck{f, f.Value, "regex"})
	return expr + " ~ " + pd.param(args, f.Value, "text"), nil
}

// Element is an array's element as unnest names it (Exists).
func (pd *dialect) Element(c sqlkit.Column) sqlkit.Column {
	col, _ := pd.t.column(c.Name)
	if col.Of == driver.ColumnText {
		return sqlkit.Column{Expr: "_e::text", Type: "text", Text: true}
	}
	return sqlkit.Column{Expr: "_e", Type: col.elemType}
}

func (pd *dialect) Exists(c sqlkit.Column, cond string) string {
	return "EXISTS (SELECT 1 FROM unnest(" + c.Expr + ") AS _e WHERE " + cond + ")"
}

func (pd *dialect) Empty(c sqlkit.Column) string { return "cardinality(" + c.Expr + ") = 0" }

// failed is a statement's failure with filters: where the server could not read a value (a
// data exception), the refusal of the filter whose value it is; else the server's error. The
// values are checked only once a statement failed, so a page pays no round trip for them.
func (d *Driver) failed(ctx context.Context, vals filterValues, err error, what string) error {
	var pe *pgconn.PgError
	if len(vals) > 0 && errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22") && driver.ContextError(ctx) == nil {
		if refused := d.checkValues(ctx, vals); refused != nil && driver.IsKind(refused, driver.KindRefusedFilter) {
			return refused
		}
	}
	return d.queryError(ctx, err, what)
}

// checkValues asks the server to read each value as its type, all in one round trip; when
// one does not read, each alone, to name it.
func (d *Driver) checkValues(ctx context.Context, checks []valueCheck) error {
	if len(checks) == 0 {
		return nil
	}
	p, err := d.db()
	if err != nil {
		return err
	}
	run := func(cs []valueCheck) error {
		parts := make([]string, len(cs))
		args := make([]any, len(cs))
		for i, c := range cs {
			if c.typ == "regex" {
				parts[i] = "'' ~ $" + strconv.Itoa(i+1) + "::text"
			} else {
				parts[i] = "$" + strconv.Itoa(i+1) + "::" + c.typ + " IS NULL"
			}
			args[i] = c.text
		}
		rows, err := p.Query(ctx, "SELECT "+strings.Join(parts, ", "), args...)
		if err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	}
	if err := run(checks); err == nil {
		return nil
	} else if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	for _, c := range checks {
		if err := run([]valueCheck{c}); err != nil {
			if cerr := driver.ContextError(ctx); cerr != nil {
				return cerr
			}
			reason := strings.TrimPrefix(d.queryError(ctx, err, "x").Error(), "x: ")
			return driver.RefusedFilter(c.f, reason)
		}
	}
	return nil
}

// scalar is how a column is compared and the type its values are cast to.
func scalar(c *column, col string) (expr, typ string) {
	if c.Kind == driver.ColumnText {
		if textBases[c.base] {
			return col, "text"
		}
		return col + "::text", "text" // an enum, "char"
	}
	return col, c.cast
}
