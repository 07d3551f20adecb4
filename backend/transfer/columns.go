// Package transfer moves rows between a database and files: export of a whole table (past the
// paging limit, with the driver's cursor), a filtered or sorted view, or a result in hand, to
// CSV, JSON Lines or Parquet. The file is written under a temporary name and renamed when
// complete, so a cancelled or failed export leaves no partial file.
//
// One column layout serves every format: "uuid" (the key) first, the properties in the
// table's order, then the vectors: "vector" for a table's single vector, "vector:NAME" for
// each named vector (no property can be named so: Weaviate names are [_A-Za-z][_0-9A-Za-z]*).
package transfer

import (
	"encoding/json"
	"strings"

	"app/backend/driver"
)

// Format is a file format.
type Format string

// The formats.
const (
	CSV     Format = "csv"
	JSONL   Format = "jsonl"
	Parquet Format = "parquet"
)

// Formats lists them.
func Formats() []Format { return []Format{CSV, JSONL, Parquet} }

// FormatOf is the format a file name's extension names ("" when none does).
func FormatOf(path string) Format {
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".csv"):
		return CSV
	case strings.HasSuffix(p, ".jsonl"), strings.HasSuffix(p, ".ndjson"):
		return JSONL
	case strings.HasSuffix(p, ".parquet"):
		return Parquet
	}
	return ""
}

// kind is how a column's values are written.
type kind int

const (
	kText    kind = iota // text, uuid, and anything unknown: a string
	kInt                 // int: an exact 64-bit integer
	kNumber              // number: its digits in text files, a float64 in Parquet
	kDecimal             // an exact number (Column.Exact): its digits; a DECIMAL or text in Parquet
	kBool                // boolean
	kDate                // a date and time: RFC 3339 text; a timestamp in Parquet
	kDay                 // a calendar date (2026-12-07): its text; a DATE in Parquet
	kJSON                // object, geoCoordinates, phoneNumber, and other structured values: JSON
	kRef                 // a cross-reference: the target uuids
	kVector              // a vector: float32s
)

// column is one column of the file.
type column struct {
	name  string
	kind  kind
	array bool   // a list of kind (text[], int[], ...)
	src   int    // index in the page's cells, or -1 for a vector
	vec   int    // index in the page's vectors, for a vector
	typ   string // the database type, as DescribeTable gives it
	// precision and scale are an exact number's declared digits (Column.Precision, Scale).
	precision, scale int
}

// VectorColumn is the file column of a vector: "vector" for a table's single vector (name
// ""), else "vector:NAME".
func VectorColumn(name string) string {
	if name == "" {
		return "vector"
	}
	return "vector:" + name
}

// layout is the file's columns for a page's columns and vector names.
func layout(cols []driver.Column, vectorNames []string) []column {
	out := make([]column, 0, len(cols)+len(vectorNames))
	for i, c := range cols {
		if c.IsVector() {
			continue
		}
		k, arr := kindOf(c)
		out = append(out, column{name: c.Name, kind: k, array: arr, src: i, typ: c.Type, precision: c.Precision, scale: c.Scale})
	}
	for i, n := range vectorNames {
		out = append(out, column{name: VectorColumn(n), kind: kVector, src: -1, vec: i, typ: driver.TypeVector})
	}
	return out
}

// kindOf types a column from its portable kind (driver.ColumnKind); a column of no kind
// (a plugin that sends none, a computed field) reads as text.
func kindOf(c driver.Column) (kind, bool) {
	arr := c.Kind == driver.ColumnArray
	switch c.Scalar() {
	case driver.ColumnInteger:
		return kInt, arr
	case driver.ColumnNumber:
		if c.Exact {
			return kDecimal, arr
		}
		return kNumber, arr
	case driver.ColumnBoolean:
		return kBool, arr
	case driver.ColumnDateTime:
		return kDate, arr
	case driver.ColumnDate:
		return kDay, arr
	case driver.ColumnJSON, driver.ColumnGeo:
		return kJSON, false
	case driver.ColumnReference:
		return kRef, false
	}
	return kText, arr
}

// refUUIDs reads a reference cell (the driver's JSON text of beacons) as the target uuids.
func refUUIDs(cell any) []string {
	s, ok := cell.(string)
	if !ok || s == "" {
		return nil
	}
	var beacons []struct {
		Beacon string `json:"beacon"`
	}
	if json.Unmarshal([]byte(s), &beacons) != nil {
		return nil
	}
	out := make([]string, 0, len(beacons))
	for _, b := range beacons {
		if i := strings.LastIndexByte(b.Beacon, '/'); i >= 0 {
			out = append(out, b.Beacon[i+1:])
		}
	}
	return out
}
