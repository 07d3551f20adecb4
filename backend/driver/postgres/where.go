package postgres

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"app/backend/driver"
)

// textBases are the base types compared as text without a cast of the column.
var textBases = map[string]bool{"text": true, "varchar": true, "bpchar": true, "name": true, "citext": true}

// builder writes one WHERE: each value a parameter, cast to the column's base type (never
// to its declared length or precision, which would round or cut the value compared).
type builder struct {
	args   *[]any
	checks []valueCheck
}

// valueCheck is a value the server must read as typ before the filter runs.
type valueCheck struct {
	f    driver.Filter
	text string
	typ  string
}

func (b *builder) param(text, typ string) string {
	*b.args = append(*b.args, text)
	return "$" + strconv.Itoa(len(*b.args)) + "::" + typ
}

// filterValues are a WHERE's values the server must read as their columns' types.
type filterValues []valueCheck

// where is the WHERE of filters (groups ORed within, ANDed between), "" for none, and the values
// it binds. A filter on a column that does not take its operator is refused here, naming the
// filter; one whose value its column's type does not read fails the statement, which failed
// names it (the table is never answered instead).
func (d *Driver) where(t *table, filters []driver.Filter, args *[]any) (string, filterValues, error) {
	if len(filters) == 0 {
		return "", nil, nil
	}
	b := &builder{args: args}
	var terms []string
	for _, group := range driver.FilterGroups(filters) {
		var ors []string
		for _, f := range group {
			p, err := b.predicate(t, f)
			if err != nil {
				return "", nil, err
			}
			ors = append(ors, p)
		}
		if len(ors) == 1 {
			terms = append(terms, ors[0])
		} else {
			terms = append(terms, "("+strings.Join(ors, " OR ")+")")
		}
	}
	return " WHERE " + strings.Join(terms, " AND "), b.checks, nil
}

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

// predicate is one filter's condition on t.
func (b *builder) predicate(t *table, f driver.Filter) (string, error) {
	c, ok := t.column(f.Column)
	if !ok {
		return "", driver.RefusedFilter(f, t.qualified()+" has no such column")
	}
	if !slices.Contains(c.Filterable, f.Operator) {
		return "", driver.RefusedFilter(f, "a column of type "+c.sqlType+" does not take it")
	}
	col := ident(c.Name)
	switch f.Operator {
	case driver.OpIsNull:
		return col + " IS NULL", nil
	case driver.OpIsNotNull:
		return col + " IS NOT NULL", nil
	}
	if c.Kind == driver.ColumnArray {
		return b.arrayPredicate(c, col, f)
	}
	expr, typ := scalar(c, col)
	return b.compare(f, expr, typ, c.Kind == driver.ColumnText)
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

// compare is op on one value expression (a column, or an array's element).
func (b *builder) compare(f driver.Filter, expr, typ string, text bool) (string, error) {
	one := func() string {
		if !text {
			b.checks = append(b.checks, valueCheck{f, f.Value, typ})
		}
		return b.param(f.Value, typ)
	}
	switch f.Operator {
	case driver.OpEquals:
		return expr + " = " + one(), nil
	case driver.OpNotEquals:
		return expr + " <> " + one(), nil
	case driver.OpGreater:
		return expr + " > " + one(), nil
	case driver.OpGreaterEq:
		return expr + " >= " + one(), nil
	case driver.OpLess:
		return expr + " < " + one(), nil
	case driver.OpLessEq:
		return expr + " <= " + one(), nil
	case driver.OpBetween:
		lo := one()
		b.checks = append(b.checks, valueCheck{f, f.Value2, typ})
		hi := b.param(f.Value2, typ)
		return expr + " BETWEEN " + lo + " AND " + hi, nil
	case driver.OpIn, driver.OpNotIn:
		items, err := driver.SplitList(f.Value)
		if err != nil {
			return "", driver.RefusedFilter(f, err.Error())
		}
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = it
		}
		lit := arrayLiteral(list)
		b.checks = append(b.checks, valueCheck{f, lit, typ + "[]"})
		in := expr + " = ANY (" + b.param(lit, typ+"[]") + ")"
		if f.Operator == driver.OpNotIn {
			return "NOT (" + in + ")", nil
		}
		return in, nil
	case driver.OpContains:
		return "strpos(" + expr + ", " + b.param(f.Value, "text") + ") > 0", nil
	case driver.OpNotContains:
		return "strpos(" + expr + ", " + b.param(f.Value, "text") + ") = 0", nil
	case driver.OpStartsWith:
		return "starts_with(" + expr + ", " + b.param(f.Value, "text") + ")", nil
	case driver.OpEndsWith:
		v := b.param(f.Value, "text")
		return "right(" + expr + ", char_length(" + v + ")) = " + v, nil
	case driver.OpRegex:
		b.checks = append(b.checks, valueCheck{f, f.Value, "regex"})
		return expr + " ~ " + b.param(f.Value, "text"), nil
	case driver.OpIsEmpty:
		return expr + " = ''", nil
	case driver.OpIsNotEmpty:
		return expr + " <> ''", nil
	}
	return "", driver.RefusedFilter(f, "this driver does not run it")
}

// arrayPredicate reads op element by element (the contract's rule for arrays): a positive
// operator holds where some element meets it, a negative one where none meets its positive.
func (b *builder) arrayPredicate(c *column, col string, f driver.Filter) (string, error) {
	switch f.Operator {
	case driver.OpIsEmpty:
		return "cardinality(" + col + ") = 0", nil
	case driver.OpIsNotEmpty:
		return "cardinality(" + col + ") > 0", nil
	}
	positive := map[driver.Operator]driver.Operator{driver.OpNotEquals: driver.OpEquals, driver.OpNotContains: driver.OpContains,
		driver.OpNotIn: driver.OpIn}
	op, negative := positive[f.Operator]
	if !negative {
		op = f.Operator
	}
	elem, typ := "_e", c.elemType
	text := c.Of == driver.ColumnText
	if text {
		elem, typ = "_e::text", "text"
	}
	pf := f
	pf.Operator = op
	p, err := b.compare(pf, elem, typ, text)
	if err != nil {
		return "", err
	}
	exists := "EXISTS (SELECT 1 FROM unnest(" + col + ") AS _e WHERE " + p + ")"
	if negative {
		return "NOT " + exists, nil
	}
	return exists, nil
}
