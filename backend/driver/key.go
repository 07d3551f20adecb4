package driver

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Key names one stored row by the cells of its table's primary key, column by column
// (TableInfo.PrimaryKey), as Update, Delete and a search near a row take it. A value is what
// the row's cell holds as a grid gives it (text, a json.Number, a bool) or what JSON decodes
// (a float64 for a number); the driver types it from the column, as it types Row.Values.
type Key map[string]any

// KeyOf is the key of a grid row: the cells of the key columns. It is nil when the grid
// lacks a key column or a key cell is null (an editor result without the key selected).
func KeyOf(columns []Column, primaryKey []string, row []any) Key {
	if len(primaryKey) == 0 {
		return nil
	}
	k := make(Key, len(primaryKey))
	for _, name := range primaryKey {
		at := -1
		for j, c := range columns {
			if c.Name == name {
				at = j
				break
			}
		}
		if at < 0 || at >= len(row) || row[at] == nil {
			return nil
		}
		k[name] = row[at]
	}
	return k
}

// CheckKey holds k to the table's primary key: every key column and nothing else, none of
// them null. what names the key in the error ("the key of row 3").
func CheckKey(primaryKey []string, k Key, what string) error {
	if len(primaryKey) == 0 {
		return Errorf(KindUnsupported, "%s: the table has no primary key, so its rows cannot be named one by one", what)
	}
	if len(k) == 0 {
		return Errorf(KindInvalidArgument, "%s is missing: give %s", what, KeyShape(primaryKey))
	}
	for name := range k {
		if !slices.Contains(primaryKey, name) {
			return Errorf(KindInvalidArgument, "%s names %q, which is not a key column: give %s", what, name, KeyShape(primaryKey))
		}
	}
	for _, name := range primaryKey {
		v, ok := k[name]
		if !ok {
			return Errorf(KindInvalidArgument, "%s lacks the key column %q: give %s", what, name, KeyShape(primaryKey))
		}
		if v == nil || (isText(v) && strings.TrimSpace(v.(string)) == "") {
			return Errorf(KindInvalidArgument, "%s has no value for the key column %q", what, name)
		}
	}
	return nil
}

// KeyShape says in words what a key of these columns is: {"id": …} or {"a": …, "b": …}.
func KeyShape(primaryKey []string) string {
	parts := make([]string, len(primaryKey))
	for i, c := range primaryKey {
		parts[i] = strconv.Quote(c) + ": …"
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Text is the key for a person and a log: the value alone for a one-column key
// ("8a0c…", "42"), else column=value pairs in the key's order, or in name order when the
// order is not known.
func (k Key) Text(primaryKey ...string) string {
	if len(k) == 0 {
		return ""
	}
	names := primaryKey
	if len(names) == 0 {
		for n := range k {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	if len(k) == 1 {
		for _, v := range k {
			return KeyValueText(v)
		}
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if v, ok := k[n]; ok {
			parts = append(parts, n+"="+KeyValueText(v))
		}
	}
	return strings.Join(parts, ", ")
}

// KeyValueText is one key value as the text a filter on its column takes: text as it is, a
// number by its digits (a float64 that holds an integer without a fraction), a bool as
// true/false.
func KeyValueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case json.RawMessage:
		return string(x)
	}
	return fmt.Sprint(v)
}

// KeyFilters are the filters that select the row k names: one equality per key column.
func KeyFilters(primaryKey []string, k Key) []Filter {
	out := make([]Filter, 0, len(primaryKey))
	for _, name := range primaryKey {
		out = append(out, Filter{Column: name, Operator: OpEquals, Value: KeyValueText(k[name])})
	}
	return out
}

// SameKey tells whether a and b name the same row: the same columns with the same values as
// text (a grid's json.Number 42 and JSON's float64 42 are one key).
func SameKey(a, b Key) bool {
	if len(a) != len(b) {
		return false
	}
	for n, v := range a {
		w, ok := b[n]
		if !ok || KeyValueText(v) != KeyValueText(w) {
			return false
		}
	}
	return true
}

func isText(v any) bool {
	_, ok := v.(string)
	return ok
}
