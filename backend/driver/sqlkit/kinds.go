package sqlkit

import (
	"strings"

	"app/backend/driver"
)

// Operators are the filter operators a column of kind (an array's of) takes; regex where the
// database matches regular expressions.
func Operators(kind, of driver.ColumnKind, regex bool) []driver.Operator {
	null := []driver.Operator{driver.OpIsNull, driver.OpIsNotNull}
	ordered := []driver.Operator{driver.OpEquals, driver.OpNotEquals, driver.OpGreater, driver.OpGreaterEq, driver.OpLess,
		driver.OpLessEq, driver.OpBetween, driver.OpIn, driver.OpNotIn}
	text := []driver.Operator{driver.OpEquals, driver.OpNotEquals, driver.OpContains, driver.OpNotContains, driver.OpStartsWith,
		driver.OpEndsWith, driver.OpIn, driver.OpNotIn}
	empty := []driver.Operator{driver.OpIsEmpty, driver.OpIsNotEmpty}
	cat := func(lists ...[]driver.Operator) []driver.Operator {
		var out []driver.Operator
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}
	switch kind {
	case driver.ColumnInteger, driver.ColumnNumber, driver.ColumnDateTime, driver.ColumnDate:
		return cat(ordered, null)
	case driver.ColumnText:
		if regex {
			return cat(text, []driver.Operator{driver.OpRegex}, null, empty)
		}
		return cat(text, null, empty)
	case driver.ColumnBoolean:
		return cat([]driver.Operator{driver.OpEquals, driver.OpNotEquals}, null)
	case driver.ColumnUUID:
		return cat([]driver.Operator{driver.OpEquals, driver.OpNotEquals, driver.OpIn, driver.OpNotIn}, null)
	case driver.ColumnArray:
		switch of {
		case driver.ColumnText:
			return cat(text, null, empty)
		case driver.ColumnInteger, driver.ColumnNumber, driver.ColumnDateTime, driver.ColumnDate:
			return cat(ordered, null, empty)
		case driver.ColumnBoolean, driver.ColumnUUID:
			return cat([]driver.Operator{driver.OpEquals, driver.OpNotEquals, driver.OpIn, driver.OpNotIn}, null, empty)
		}
		return cat(null, empty)
	}
	return null
}

// Sortable tells a kind of column a page may be sorted on.
func Sortable(kind driver.ColumnKind) bool {
	switch kind {
	case driver.ColumnInteger, driver.ColumnNumber, driver.ColumnDateTime, driver.ColumnDate, driver.ColumnText,
		driver.ColumnBoolean, driver.ColumnUUID:
		return true
	}
	return false
}

// VectorColumn is the column of a vector by name among a table's columns: "" is the table's
// only vector column (an import's single vector).
func VectorColumn(cols []driver.Column, name string) (string, bool) {
	var only []string
	for _, c := range cols {
		if c.Kind == driver.ColumnVector {
			if c.Name == name {
				return c.Name, true
			}
			only = append(only, c.Name)
		}
	}
	if name == "" && len(only) == 1 {
		return only[0], true
	}
	return "", false
}

// TargetVector is the vector column a search of table uses among cols: the one named, or the
// table's only one. none says what a vector column is in the database's words, for a table
// that has none.
func TargetVector(table string, cols []driver.Column, name, none string) (string, error) {
	var vecs []string
	for _, c := range cols {
		if c.Kind == driver.ColumnVector {
			if c.Name == name {
				return c.Name, nil
			}
			vecs = append(vecs, c.Name)
		}
	}
	switch {
	case len(vecs) == 0:
		return "", driver.Errorf(driver.KindUnsupported, "%s has no vector column (%s) to search", table, none)
	case name == "" && len(vecs) == 1:
		return vecs[0], nil
	}
	return "", driver.Errorf(driver.KindInvalidArgument, "%s has several vector columns: choose one of %s", table, strings.Join(vecs, ", "))
}
