package explore

import (
	"errors"
	"strings"

	"app/backend/driver"
)

// Paging bounds of a browse: the grid asks for small pages; a bigger one is refused before
// the database is asked.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// Bounds of a search (the search panel, Find similar): how many matches by default and at
// most.
const (
	DefaultMatches = 25
	MaxMatches     = 1000
)

// MatchLimit checks how many matches a search asks for and returns the number to ask for (0
// means DefaultMatches).
func MatchLimit(limit int) (int, error) {
	switch {
	case limit < 0 || limit > MaxMatches:
		return 0, invalid("limit must be between 0 (the default, %d) and %d", DefaultMatches, MaxMatches)
	case limit == 0:
		return DefaultMatches, nil
	}
	return limit, nil
}

// PageLimit checks a page request of table and returns the limit to ask for (0 means
// DefaultPageSize).
func PageLimit(table string, offset, limit int) (int, error) {
	switch {
	case strings.TrimSpace(table) == "":
		return 0, invalid("a table name is required")
	case offset < 0:
		return 0, invalid("offset must not be negative")
	case limit < 0 || limit > MaxPageSize:
		return 0, invalid("limit must be between 0 and %d", MaxPageSize)
	case limit == 0:
		return DefaultPageSize, nil
	}
	return limit, nil
}

// CheckFilters refuses malformed requests (no column, an operator the driver does not know)
// before the database is asked; whether a known operator fits a column is the driver's to
// say.
func CheckFilters(filters []driver.Filter, sorts []driver.Sort) error {
	known := map[driver.Operator]bool{}
	for _, op := range driver.Operators() {
		known[op] = true
	}
	for i, f := range filters {
		if strings.TrimSpace(f.Column) == "" {
			return invalid("filter %d names no column", i+1)
		}
		if !known[f.Operator] {
			return invalid("filter %d: unknown operator %q", i+1, f.Operator)
		}
	}
	for i, s := range sorts {
		if strings.TrimSpace(s.Column) == "" {
			return invalid("sort %d names no column", i+1)
		}
	}
	return nil
}

// Refusal says which filter cannot run and why.
type Refusal struct {
	// Index is the refused filter's place among the request's filters (-1 when the driver's
	// message names none of them); Column and Operator repeat it.
	Index    int
	Column   string
	Operator string
	// Reason is why, for the user; Message is the driver's whole sentence.
	Reason  string
	Message string
}

// RefusalOf turns a refused_filter error into the refusal of the filter it names: the one
// whose column and operator the error carries (driver.Error.Column, Operator), the first
// such when the same filter is given twice. The reason is the error's Reason (its whole
// sentence when it has none). It returns nil for any other error; a refusal that names no
// given filter has Index -1.
func RefusalOf(err error, filters []driver.Filter) *Refusal {
	var de *driver.Error
	if !driver.IsKind(err, driver.KindRefusedFilter) || !errors.As(err, &de) {
		return nil
	}
	msg := strings.Join(strings.Fields(de.Error()), " ")
	r := &Refusal{Index: -1, Reason: msg, Message: msg}
	if de.Reason != "" {
		r.Reason = strings.Join(strings.Fields(de.Reason), " ")
	}
	for i, f := range filters {
		if de.Column != "" && f.Column == de.Column && f.Operator == de.Operator {
			r.Index, r.Column, r.Operator = i, f.Column, string(f.Operator)
			break
		}
	}
	return r
}
