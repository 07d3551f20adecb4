package sqlkit

import (
	"slices"
	"strings"

	"app/backend/driver"
)

// Column is what a filter needs of a column: how it is compared and what it takes.
type Column struct {
	Name string
	// Expr is the SQL compared (the quoted name, or a cast of it).
	Expr string
	// Type is what a value is bound as for it (the dialect's word), Text that it is compared as
	// text (a value needs no reading by the database first).
	Type string
	Text bool
	// Declared is the column's type as a refusal names it ("integer", "text[]").
	Declared string
	// Filterable are the operators the column takes (driver.Column.Filterable).
	Filterable []driver.Operator
	// Array: the column holds a list, compared element by element.
	Array bool
}

// Dialect is how one database's SQL says what a WHERE needs.
type Dialect interface {
	// Table names the table in refusals.
	Table() string
	// Column is a filter's column, ok false when the table has none of that name.
	Column(name string) (c Column, ok bool)
	// Bind binds value (of filter f) for comparison with c and returns the parameter's SQL.
	Bind(args *[]any, f driver.Filter, value string, c Column) string
	// In is the condition that expr (compared as c) is one of items.
	In(args *[]any, f driver.Filter, expr string, items []string, c Column) string
	// Contains, StartsWith and EndsWith compare text expr with the bound text p.
	Contains(expr, p string) string
	StartsWith(expr, p string) string
	EndsWith(expr, p string) string
	// Regex is the condition that text expr matches the pattern of f, or the refusal where the
	// database cannot match one.
	Regex(args *[]any, f driver.Filter, expr string) (string, error)
	// Element is how one element of array column c is compared, and Exists the condition
	// that some element of c meets cond (written over that element).
	Element(c Column) Column
	Exists(c Column, cond string) string
	// Empty is the condition that array column c has no element.
	Empty(c Column) string
}

// Where is the WHERE of filters (groups ORed within, ANDed between), "" for none, each value
// bound through the dialect. A filter on a column that does not take its operator is refused,
// naming the filter.
func Where(d Dialect, filters []driver.Filter, args *[]any) (string, error) {
	if len(filters) == 0 {
		return "", nil
	}
	var terms []string
	for _, group := range driver.FilterGroups(filters) {
		var ors []string
		for _, f := range group {
			p, err := predicate(d, f, args)
			if err != nil {
				return "", err
			}
			ors = append(ors, p)
		}
		if len(ors) == 1 {
			terms = append(terms, ors[0])
		} else {
			terms = append(terms, "("+strings.Join(ors, " OR ")+")")
		}
	}
	return " WHERE " + strings.Join(terms, " AND "), nil
}

// predicate is one filter's condition.
func predicate(d Dialect, f driver.Filter, args *[]any) (string, error) {
	c, ok := d.Column(f.Column)
	if !ok {
		return "", driver.RefusedFilter(f, d.Table()+" has no such column")
	}
	if !slices.Contains(c.Filterable, f.Operator) {
		return "", driver.RefusedFilter(f, "a column of type "+c.Declared+" does not take it")
	}
	switch f.Operator {
	case driver.OpIsNull:
		return c.Expr + " IS NULL", nil
	case driver.OpIsNotNull:
		return c.Expr + " IS NOT NULL", nil
	}
	if c.Array {
		return arrayPredicate(d, c, f, args)
	}
	return compare(d, f, c, args)
}

// text is how a value searched in text is bound.
var text = Column{Type: "text", Text: true}

// compare is op on one value expression (a column, or an array's element).
func compare(d Dialect, f driver.Filter, c Column, args *[]any) (string, error) {
	expr := c.Expr
	one := func() string { return d.Bind(args, f, f.Value, c) }
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
		return expr + " BETWEEN " + lo + " AND " + d.Bind(args, f, f.Value2, c), nil
	case driver.OpIn, driver.OpNotIn:
		items, err := driver.SplitList(f.Value)
		if err != nil {
			return "", driver.RefusedFilter(f, err.Error())
		}
		in := d.In(args, f, expr, items, c)
		if f.Operator == driver.OpNotIn {
			return "NOT (" + in + ")", nil
		}
		return in, nil
	case driver.OpContains:
		return d.Contains(expr, d.Bind(args, f, f.Value, text)), nil
	case driver.OpNotContains:
		return "NOT (" + d.Contains(expr, d.Bind(args, f, f.Value, text)) + ")", nil
	case driver.OpStartsWith:
		return d.StartsWith(expr, d.Bind(args, f, f.Value, text)), nil
	case driver.OpEndsWith:
		return d.EndsWith(expr, d.Bind(args, f, f.Value, text)), nil
	case driver.OpRegex:
		return d.Regex(args, f, expr)
	case driver.OpIsEmpty:
		return expr + " = ''", nil
	case driver.OpIsNotEmpty:
		return expr + " <> ''", nil
	}
	return "", driver.RefusedFilter(f, "this driver does not run it")
}

// arrayPredicate reads op element by element (the contract's rule for arrays): a positive
// operator holds where some element meets it, a negative one where none meets its positive.
func arrayPredicate(d Dialect, c Column, f driver.Filter, args *[]any) (string, error) {
	switch f.Operator {
	case driver.OpIsEmpty:
		return d.Empty(c), nil
	case driver.OpIsNotEmpty:
		return "NOT (" + d.Empty(c) + ")", nil
	}
	positive := map[driver.Operator]driver.Operator{driver.OpNotEquals: driver.OpEquals, driver.OpNotContains: driver.OpContains,
		driver.OpNotIn: driver.OpIn}
	op, negative := positive[f.Operator]
	if !negative {
		op = f.Operator
	}
	pf := f
	pf.Operator = op
	p, err := compare(d, pf, d.Element(c), args)
	if err != nil {
		return "", err
	}
	exists := d.Exists(c, p)
	if negative {
		return "NOT " + exists, nil
	}
	return exists, nil
}
