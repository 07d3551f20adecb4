package transfer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// value types one cell of col (a driver Grid cell) as the Go value a file holds: string,
// int64, decimal, bool or a slice of one, json.RawMessage for structured values, []string for
// references; for Parquet (forParquet), float64 for a number, fixedDecimal or string for an
// exact one, and time.Time for a date. nil is null. A cell the type does not fit is an error
// naming the column: an export never writes a value that would read back as another.
func value(col column, cell any, forParquet bool) (any, error) {
	if cell == nil {
		return nil, nil
	}
	bad := func(err error) error { return fmt.Errorf("column %s (%s): %v: %w", col.name, col.typ, cell, err) }
	switch col.kind {
	case kRef:
		return refUUIDs(cell), nil
	case kJSON:
		if s, ok := cell.(string); ok && json.Valid([]byte(s)) {
			return json.RawMessage(s), nil
		}
		b, err := json.Marshal(cell)
		return json.RawMessage(b), err
	}
	if col.array {
		s, ok := cell.(string)
		if !ok {
			return nil, bad(fmt.Errorf("an array is JSON text"))
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var items []any
		if err := dec.Decode(&items); err != nil {
			return nil, bad(err)
		}
		return typedList(col, items, forParquet, bad)
	}
	return scalar(col, cell, forParquet, bad)
}

// typedList types an array's items: a slice of the items' type ([]int64, []decimal, …), or,
// when an item is null (a PostgreSQL array may hold NULL) or the items are exact decimals for
// Parquet, []any of the typed items with nil for each null.
func typedList(col column, items []any, forParquet bool, bad func(error) error) (any, error) {
	what := map[kind]string{kInt: "an int", kNumber: "a number", kDecimal: "a number", kBool: "a boolean", kDate: "a date", kDay: "a date"}[col.kind]
	if what == "" || (col.kind == kDate || col.kind == kDay) && !forParquet {
		what = "text"
	}
	vals := make([]any, len(items))
	// No slice type of their own: an exact decimal (fixedDecimal or digits, by the column) and
	// a calendar date.
	nulls := forParquet && (col.kind == kDecimal || col.kind == kDay)
	for i, it := range items {
		if it == nil {
			nulls = true
			continue
		}
		v, err := listItem(col, it, forParquet, bad)
		if err != nil || v == nil {
			return nil, bad(fmt.Errorf("item %d is not %s", i+1, what))
		}
		vals[i] = v
	}
	if nulls {
		return vals, nil
	}
	switch what {
	case "an int":
		return collect[int64](vals), nil
	case "a number":
		if forParquet {
			return collect[float64](vals), nil
		}
		return collect[decimal](vals), nil
	case "a boolean":
		return collect[bool](vals), nil
	case "a date":
		return collect[time.Time](vals), nil
	}
	return collect[string](vals), nil
}

// listItem types one item of an array that is not null.
func listItem(col column, it any, forParquet bool, bad func(error) error) (any, error) {
	switch col.kind {
	case kInt:
		return scalar(col, it, forParquet, bad)
	case kNumber, kDecimal:
		if forParquet {
			return scalar(col, it, forParquet, bad)
		}
		if d, ok := decimalOf(it); ok {
			return d, nil
		}
		return nil, bad(fmt.Errorf("not a number"))
	case kBool:
		if b, ok := it.(bool); ok {
			return b, nil
		}
		return nil, bad(fmt.Errorf("not a boolean"))
	case kDate, kDay:
		if forParquet {
			return scalar(col, it, forParquet, bad)
		}
	}
	if s, ok := it.(string); ok {
		return s, nil
	}
	return nil, bad(fmt.Errorf("not text"))
}

// dateTimeLayouts are the texts of a date and time an export reads: RFC 3339 (Weaviate, and a
// PostgreSQL table's cells, which are JSON's), then PostgreSQL's own text (an editor result's
// cells: "2026-01-02 01:04:05.5+00", a zone of hours or hours and minutes), then either without
// a zone (PostgreSQL's timestamp), which keeps its wall clock, written as UTC's.
var dateTimeLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07", "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"}

func dateTime(s string) (time.Time, bool) {
	for _, layout := range dateTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// day is a calendar date for Parquet: days since 1970-01-01.
type day int32

// collect is typed items as a slice of their type.
func collect[T any](vals []any) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = v.(T)
	}
	return out
}

func scalar(col column, cell any, forParquet bool, bad func(error) error) (any, error) {
	switch col.kind {
	case kInt:
		n, ok := cell.(json.Number)
		if !ok {
			return nil, bad(fmt.Errorf("not a number"))
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			// Weaviate may write a whole float (3.0) for an int.
			f, ferr := strconv.ParseFloat(string(n), 64)
			if ferr != nil || f != float64(int64(f)) {
				return nil, bad(err)
			}
			i = int64(f)
		}
		return i, nil
	case kNumber, kDecimal:
		d, ok := decimalOf(cell)
		switch {
		case !ok:
			return nil, bad(fmt.Errorf("not a number"))
		case !forParquet:
			return d, nil
		case col.kind == kNumber:
			f, err := strconv.ParseFloat(string(d), 64)
			if err != nil {
				return nil, bad(err)
			}
			return f, nil
		case col.hasDecimal():
			b, err := toFixedDecimal(d, col.precision, col.scale)
			if err != nil {
				return nil, bad(err)
			}
			return b, nil
		}
		return string(d), nil // an exact number of no declared precision: its digits as text
	case kBool:
		b, ok := cell.(bool)
		if !ok {
			return nil, bad(fmt.Errorf("not a boolean"))
		}
		return b, nil
	case kDate:
		s, ok := cell.(string)
		if !ok {
			return nil, bad(fmt.Errorf("not a date"))
		}
		if !forParquet {
			return s, nil
		}
		t, ok := dateTime(s)
		if !ok {
			return nil, bad(fmt.Errorf("not a date and time (RFC 3339)"))
		}
		return t.UTC(), nil
	case kDay:
		s, ok := cell.(string)
		if !ok {
			return nil, bad(fmt.Errorf("not a date"))
		}
		if !forParquet {
			return s, nil
		}
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, bad(fmt.Errorf("not a date Parquet can hold (YYYY-MM-DD)"))
		}
		return day(t.Unix() / 86400), nil
	}
	switch x := cell.(type) {
	case string:
		return x, nil
	case json.Number:
		return string(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	}
	return fmt.Sprint(cell), nil
}
