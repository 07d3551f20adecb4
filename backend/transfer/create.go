package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"app/backend/driver"
)

// createTable makes req.Table from the file's columns through the driver (TableCreator): one
// pass over the file gives each column a portable kind from every value it holds (so a field
// first seen late in a JSON Lines file is not dropped, and a column of whole numbers with one
// fraction is a number); "uuid" is the key, "vector" / "vector:NAME" the table's vectors. The
// driver picks its own types for the kinds, and its refusal of a name is said with how to map
// the column to another.
func createTable(ctx context.Context, drv driver.Driver, req ImportRequest) (*driver.TableInfo, error) {
	tc, ok := drv.(driver.TableCreator)
	if !ok || !drv.Capabilities().CreateTable {
		return nil, driver.Errorf(driver.KindUnsupported, "this database's driver cannot create tables: create %s first, then import into it", req.Table)
	}
	src, err := openSource(req.Path, req.Format)
	if err != nil {
		return nil, err
	}
	defer src.close()
	kinds := map[string]string{}
	exact := map[string]bool{} // a number column with digits a double would round
	var order []string
	var vectors []string
	single := false
	for {
		rec, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *lineError
		if errors.As(err, &le) {
			continue // reported by the import itself
		}
		if err != nil {
			return nil, err
		}
		for col, v := range rec.values {
			t := col
			if mapped, ok := req.Map[col]; ok {
				if mapped == "-" {
					continue
				}
				t = mapped
			}
			if t == "uuid" {
				continue
			}
			if name, ok := vectorName(t); ok {
				if name == "" {
					single = true
				} else if !slices.Contains(vectors, name) {
					vectors = append(vectors, name)
				}
				continue
			}
			if _, seen := kinds[t]; !seen {
				order = append(order, t)
				kinds[t] = ""
			}
			kinds[t] = mergeKinds(kinds[t], kindOfValue(v, req.Format == CSV))
			exact[t] = exact[t] || manyDigits(v)
		}
	}
	if ps, ok := src.(*parquetSource); ok {
		target := func(col string) string {
			if mapped, ok := req.Map[col]; ok {
				return mapped
			}
			return col
		}
		for _, d := range ps.decimals {
			exact[target(d.name)] = true
		}
		for _, col := range ps.days { // read as the dates' text: a DATE column is a date
			switch t := target(col); kinds[t] {
			case vText:
				kinds[t] = vDay
			case vArray + vText:
				kinds[t] = vArray + vDay
			}
		}
	}
	// Columns come in the order first seen, except that a file with a header lists them all.
	for _, c := range src.columns() {
		t := c
		if mapped, ok := req.Map[c]; ok {
			t = mapped
		}
		if _, ok := kinds[t]; !ok && t != "-" && t != "uuid" && !isVectorTarget(t) {
			order = append(order, t)
			kinds[t] = ""
		}
	}
	if single && len(vectors) > 0 {
		return nil, fmt.Errorf("the file has both a single vector (vector) and named vectors (%s); a table has one or the other", strings.Join(vectors, ", "))
	}
	spec := driver.TableSpec{Name: req.Table, Columns: make([]driver.ColumnSpec, 0, len(order)), Vectors: vectors}
	if single {
		spec.Vectors = []string{""}
	}
	for _, name := range order {
		k := kinds[name]
		if k == "" {
			k = string(driver.ColumnText) // every value null: text, the most general
		}
		kind, of, _ := strings.Cut(k, ":")
		numbers := kind == vNumber || of == vNumber
		spec.Columns = append(spec.Columns, driver.ColumnSpec{Name: name, Kind: driver.ColumnKind(kind), Of: driver.ColumnKind(of), Exact: numbers && exact[name]})
	}
	info, err := tc.CreateTable(ctx, spec)
	var de *driver.Error
	if errors.As(err, &de) && de.Kind == driver.KindInvalidArgument && de.Column != "" {
		return nil, fmt.Errorf("the file's column %q cannot be a column of %s (%s): map it to another name (--map '%s=NAME') or skip it", de.Column, req.Table, de.Reason, de.Column)
	}
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", req.Table, err)
	}
	return info, nil
}

// The kinds a file's value reads as, in portable names (driver.ColumnKind), a list as
// "array:<kind of its elements>".
const (
	vText   = string(driver.ColumnText)
	vInt    = string(driver.ColumnInteger)
	vNumber = string(driver.ColumnNumber)
	vBool   = string(driver.ColumnBoolean)
	vTime   = string(driver.ColumnDateTime)
	vDay    = string(driver.ColumnDate)
	vArray  = string(driver.ColumnArray) + ":"
)

// kindOfValue is the kind a value reads as ("" for null): numbers, booleans, date-times and
// lists of them, else text. Only CSV text is read by its content (a column of "42" is an
// integer, as CSV holds every value as text); a string of JSON Lines or Parquet is text
// ("01234" stays), or a date-time when it is a full RFC 3339 time.
func kindOfValue(v any, sniff bool) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		return vBool
	case int64, int32, int:
		return vInt
	case float64, float32:
		return vNumber
	case time.Time:
		return vTime
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return vInt
		}
		return vNumber
	case string:
		if !sniff {
			// A full RFC 3339 time is a date-time whatever the format (JSON has no date type).
			if _, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return vTime
			}
			// The numbers JSON has no number for, as an export writes them: no kind of their
			// own, so a column of numbers and NaN stays a number column.
			if x == "NaN" || x == "Infinity" || x == "-Infinity" {
				return ""
			}
			return vText
		}
		return textKind(x)
	case []any:
		el := ""
		for _, e := range x {
			el = mergeKinds(el, kindOfValue(e, sniff))
		}
		if el == "" || strings.HasPrefix(el, vArray) {
			el = vText
		}
		return vArray + el
	case []string:
		return vArray + vText
	case map[string]any:
		return vText // an object needs its nested fields declared: kept as JSON text
	}
	return vText
}

// manyDigits tells a number (or a list holding one) of more significant digits than a double
// keeps (15), as a file writes an exact number's digits: its column is made exact.
func manyDigits(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return significantDigits(string(x)) > 15
	case string: // CSV's text
		if _, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return significantDigits(strings.TrimSpace(x)) > 15
		}
	case []any:
		return slices.ContainsFunc(x, manyDigits)
	}
	return false
}

// significantDigits counts a number's digits from its first that is not zero, up to its
// exponent.
func significantDigits(s string) int {
	n, started := 0, false
	for _, c := range s {
		switch {
		case c == 'e' || c == 'E':
			return n
		case c == '0' && !started:
		case '0' <= c && c <= '9':
			n, started = n+1, true
		}
	}
	return n
}

// textKind reads a text value by its content: CSV holds every value as text.
func textKind(s string) string {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return vText
	case t == "true" || t == "false":
		return vBool
	}
	if _, err := strconv.ParseInt(t, 10, 64); err == nil {
		return vInt
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return vNumber
	}
	if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
		return vTime
	}
	if _, err := time.Parse(time.DateOnly, t); err == nil {
		return vDay
	}
	if strings.HasPrefix(t, "[") {
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var list []any
		if dec.Decode(&list) == nil {
			return kindOfValue(list, true)
		}
	}
	return vText
}

// mergeKinds is the kind that holds values of both: integer and number make number, a list and
// a scalar or two different kinds make text.
func mergeKinds(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	case (a == vInt && b == vNumber) || (a == vNumber && b == vInt):
		return vNumber
	case (a == vArray+vInt && b == vArray+vNumber) || (a == vArray+vNumber && b == vArray+vInt):
		return vArray + vNumber
	case strings.HasPrefix(a, vArray) && strings.HasPrefix(b, vArray):
		return vArray + vText
	}
	return vText
}
