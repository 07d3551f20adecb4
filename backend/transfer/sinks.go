package transfer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
)

// sink writes rows of typed values (value's output) in one format.
type sink interface {
	row(vals []any) error
	close() error
}

func newSink(f Format, w io.Writer, cols []column) (sink, error) {
	switch f {
	case CSV:
		return newCSVSink(w, cols)
	case JSONL:
		return &jsonlSink{w: bufio.NewWriterSize(w, 1<<20), cols: cols}, nil
	case Parquet:
		return newParquetSink(w, cols), nil
	}
	return nil, fmt.Errorf("unknown format %q: use %s, %s or %s", f, CSV, JSONL, Parquet)
}

// --- JSON Lines: one object a row, keys in the layout's order, null for null ---

type jsonlSink struct {
	w    *bufio.Writer
	cols []column
	buf  []byte
}

func (s *jsonlSink) row(vals []any) error {
	b := s.buf[:0]
	b = append(b, '{')
	for i, c := range s.cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, c.name) // names are ASCII identifiers: Go and JSON quote alike
		b = append(b, ':')
		var err error
		if b, err = appendJSON(b, vals[i]); err != nil {
			return fmt.Errorf("column %s: %w", c.name, err)
		}
	}
	b = append(b, '}', '\n')
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

func (s *jsonlSink) close() error { return s.w.Flush() }

// appendJSON appends v as JSON: integers exact, vectors without reflection.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case json.RawMessage:
		return append(b, x...), nil
	case []float32:
		b = append(b, '[')
		for i, f := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, float64(f), 'g', -1, 32)
		}
		return append(b, ']'), nil
	}
	out, err := json.Marshal(v)
	return append(b, out...), err
}

// --- CSV: RFC 4180, a header row of the layout's names. A null is an empty unquoted field
// and an empty text a quoted one (""), the convention of PostgreSQL's COPY, so that both read
// back as what they were. Lists, structured values, references and vectors are JSON text. ---

type csvSink struct {
	w    *bufio.Writer
	cols []column
	buf  []byte
}

func newCSVSink(w io.Writer, cols []column) (*csvSink, error) {
	s := &csvSink{w: bufio.NewWriterSize(w, 1<<20), cols: cols}
	names := make([]any, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return s, s.row(names)
}

func (s *csvSink) row(vals []any) error {
	b := s.buf[:0]
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		switch x := v.(type) {
		case nil:
		case string:
			b = appendCSVText(b, x)
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case float64:
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		case bool:
			b = strconv.AppendBool(b, x)
		default:
			j, err := appendJSON(nil, v)
			if err != nil {
				return err
			}
			b = appendCSVText(b, string(j))
		}
	}
	b = append(b, '\r', '\n')
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

// appendCSVText quotes a field when it is empty or holds a separator, a quote, a line break or
// edge spaces.
func appendCSVText(b []byte, s string) []byte {
	if s != "" && !strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[len(s)-1] != ' ' {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

func (s *csvSink) close() error { return s.w.Flush() }

// --- Parquet: columns typed from the table's schema (int64, double, boolean, timestamps in
// UTC nanoseconds, strings, lists of them; references as lists of uuids; vectors as lists of
// float32; structured values as JSON text), every column optional. ---

type parquetSink struct {
	w       *parquet.GenericWriter[any]
	cols    []column
	leaves  []parquetLeaf // by column: where its values go in a row
	order   []int         // cols' indexes in the order of their leaf columns
	buf     parquet.Row
	rows    []parquet.Row
	flushed int64 // the writer's size when the last row group was closed
}

// parquetLeaf is a layout column's leaf in the file: its column index and whether it is a list
// (optional group, repeated list, required element: definition level 2 for an item, 1 for an
// empty list, 0 for null) or an optional value (1 for a value, 0 for null).
type parquetLeaf struct {
	index int
	list  bool
}

// Rows are built as parquet.Row values, column by column, and written with WriteRows: the
// reflection parquet-go uses for a map or struct row cost more than the rest of an export of
// 768-dimension vectors (bench/transfer).
func newParquetSink(w io.Writer, cols []column) *parquetSink {
	g := parquet.Group{}
	for _, c := range cols {
		g[c.name] = parquet.Optional(parquetNode(c))
	}
	schema := parquet.NewSchema("object", g)
	s := &parquetSink{w: parquet.NewGenericWriter[any](w, schema, parquet.Compression(&parquet.Snappy)), cols: cols,
		leaves: make([]parquetLeaf, len(cols)), order: make([]int, len(cols)), rows: make([]parquet.Row, 1)}
	for i, c := range cols {
		list := c.array || c.kind == kRef || c.kind == kVector
		path := []string{c.name}
		if list {
			path = append(path, "list", "element")
		}
		leaf, _ := schema.Lookup(path...)
		s.leaves[i] = parquetLeaf{index: leaf.ColumnIndex, list: list}
		s.order[i] = i
	}
	sort.Slice(s.order, func(a, b int) bool { return s.leaves[s.order[a]].index < s.leaves[s.order[b]].index })
	return s
}

func parquetNode(c column) parquet.Node {
	var leaf parquet.Node
	switch c.kind {
	case kInt:
		leaf = parquet.Int(64)
	case kNumber:
		leaf = parquet.Leaf(parquet.DoubleType)
	case kBool:
		leaf = parquet.Leaf(parquet.BooleanType)
	case kDate:
		// Microseconds: Weaviate's dates span years 1 to 9999, past what int64 nanoseconds hold.
		leaf = parquet.Timestamp(parquet.Microsecond)
	case kRef:
		return parquet.List(parquet.String())
	case kVector:
		return parquet.List(parquet.Leaf(parquet.FloatType))
	default:
		leaf = parquet.String()
	}
	if c.array {
		return parquet.List(leaf)
	}
	return leaf
}

func (s *parquetSink) row(vals []any) error {
	r := s.buf[:0]
	for _, i := range s.order {
		leaf, v := s.leaves[i], vals[i]
		if v == nil {
			r = append(r, parquet.Value{}.Level(0, 0, leaf.index))
			continue
		}
		if !leaf.list {
			pv, err := parquetValue(v)
			if err != nil {
				return fmt.Errorf("column %s: %w", s.cols[i].name, err)
			}
			r = append(r, pv.Level(0, 1, leaf.index))
			continue
		}
		n := 0
		add := func(pv parquet.Value) {
			rep := 0
			if n > 0 {
				rep = 1
			}
			r = append(r, pv.Level(rep, 2, leaf.index))
			n++
		}
		switch x := v.(type) {
		case []float32:
			r = appendFloats(r, x, leaf.index)
			n = len(x)
		case []string:
			for _, e := range x {
				add(parquet.ByteArrayValue([]byte(e)))
			}
		case []int64:
			for _, e := range x {
				add(parquet.Int64Value(e))
			}
		case []float64:
			for _, e := range x {
				add(parquet.DoubleValue(e))
			}
		case []bool:
			for _, e := range x {
				add(parquet.BooleanValue(e))
			}
		case []time.Time:
			for _, e := range x {
				add(parquet.Int64Value(e.UnixMicro()))
			}
		default:
			return fmt.Errorf("column %s: a list of %T", s.cols[i].name, v)
		}
		if n == 0 { // an empty list: defined, no item
			r = append(r, parquet.Value{}.Level(0, 1, leaf.index))
		}
	}
	s.buf = r
	s.rows[0] = r
	if _, err := s.w.WriteRows(s.rows); err != nil {
		return err
	}
	// parquet-go keeps a row group in memory until it is flushed, by default the whole file
	// (300 MB for 100,000 rows of 768 floats). A row group is closed at rowGroupBytes: memory
	// stays bounded, and the next group reuses the last one's buffers instead of fresh memory,
	// a third of the time a row of a vector took (BenchmarkSinks).
	if size := s.w.Size(); size-s.flushed >= rowGroupBytes {
		if err := s.w.Flush(); err != nil {
			return err
		}
		s.flushed = s.w.Size()
	}
	return nil
}

// appendFloats appends a list of float32s (a vector) to r as leaf col's items. A vector is
// most of an export's values, and Value.Level, which does not inline, cost half of a row of
// 768 floats; the single-field setters inline, and the first item alone starts the list.
func appendFloats(r parquet.Row, x []float32, col int) parquet.Row {
	start := len(r)
	r = slices.Grow(r, len(x))
	for _, f := range x {
		v := parquet.FloatValue(f)
		v.SetRepetitionLevel(1)
		v.SetDefinitionLevel(2)
		v.SetColumnIndex(col)
		r = append(r, v)
	}
	if len(x) > 0 {
		r[start].SetRepetitionLevel(0)
	}
	return r
}

// rowGroupBytes is about how much data (before compression) a Parquet row group holds.
const rowGroupBytes = 8 << 20

// parquetValue is one value of an optional column.
func parquetValue(v any) (parquet.Value, error) {
	switch x := v.(type) {
	case string:
		return parquet.ByteArrayValue([]byte(x)), nil
	case json.RawMessage:
		return parquet.ByteArrayValue(x), nil
	case int64:
		return parquet.Int64Value(x), nil
	case float64:
		return parquet.DoubleValue(x), nil
	case bool:
		return parquet.BooleanValue(x), nil
	case time.Time:
		return parquet.Int64Value(x.UnixMicro()), nil
	}
	return parquet.Value{}, fmt.Errorf("a value of type %T", v)
}

func (s *parquetSink) close() error { return s.w.Close() }
