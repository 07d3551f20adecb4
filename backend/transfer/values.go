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

func typedList(col column, items []any, forParquet bool, bad func(error) error) (any, error) {
	switch col.kind {
	case kInt:
		out := make([]int64, len(items))
		for i, it := range items {
			v, err := scalar(col, it, forParquet, bad)
			if err != nil || v == nil {
				return nil, bad(fmt.Errorf("item %d is not an int", i+1))
			}
			out[i] = v.(int64)
		}
		return out, nil
	case kNumber, kDecimal:
		if forParquet && col.kind == kNumber {
			out := make([]float64, len(items))
			for i, it := range items {
				v, err := scalar(col, it, forParquet, bad)
				if err != nil || v == nil {
					return nil, bad(fmt.Errorf("item %d is not a number", i+1))
				}
				out[i] = v.(float64)
			}
			return out, nil
		}
		out := make([]decimal, len(items))
		for i, it := range items {
			d, ok := decimalOf(it)
			if !ok {
				return nil, bad(fmt.Errorf("item %d is not a number", i+1))
			}
			out[i] = d
		}
		return out, nil
	case kBool:
		out := make([]bool, len(items))
		for i, it := range items {
			b, ok := it.(bool)
			if !ok {
				return nil, bad(fmt.Errorf("item %d is not a boolean", i+1))
			}
			out[i] = b
		}
		return out, nil
	case kDate:
		if forParquet {
			out := make([]time.Time, len(items))
			for i, it := range items {
				v, err := scalar(col, it, forParquet, bad)
				if err != nil || v == nil {
					return nil, bad(fmt.Errorf("item %d is not a date", i+1))
				}
				out[i] = v.(time.Time)
			}
			return out, nil
		}
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, bad(fmt.Errorf("item %d is not text", i+1))
		}
		out[i] = s
	}
	return out, nil
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
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, bad(err)
		}
		return t.UTC(), nil
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
