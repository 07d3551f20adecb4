package transfer

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/parquet-go/parquet-go"
)

// sink writes rows of typed values (value's output) in one format. close ends the file;
// abort, for a write that stopped early, releases what the sink holds.
type sink interface {
	row(vals []any) error
	close() error
	abort()
}

func newSink(f Format, w io.Writer, cols []column) (sink, error) {
	switch f {
	case CSV:
		return newCSVSink(w, cols)
	case JSONL:
		return &jsonlSink{w: bufio.NewWriterSize(w, 1<<20), cols: cols}, nil
	case Parquet:
		if s := newStructSink(w, cols); s != nil {
			return s, nil
		}
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

func (s *jsonlSink) abort() {}

// appendJSON appends v as JSON: integers exact, numbers by their digits, vectors without
// reflection.
func appendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case decimal:
		return appendDecimal(b, x), nil
	case []decimal:
		b = append(b, '[')
		for i, d := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendDecimal(b, d)
		}
		return append(b, ']'), nil
	case []any: // an array's items, some null
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
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
// back as what they were. Numbers are the driver's digits (NaN and the infinities by name).
// Lists, structured values, references and vectors are JSON text. ---

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
		case decimal:
			b = append(b, x...) // digits, a sign, a point, an exponent or a name: never quoted
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

func (s *csvSink) abort() {}

// --- Parquet: columns typed from the table's schema (int64, double, boolean, timestamps in
// UTC nanoseconds, strings, lists of them; exact numbers as DECIMAL where the column declares
// its digits, else as their text; references as lists of uuids; vectors as lists of float32;
// structured values as JSON text), every column optional. ---

type parquetSink struct {
	w      *parquet.GenericWriter[any]
	cols   []column
	leaves []parquetLeaf // by column: its leaf column in the file
	// vals holds each column's values of the rows not yet handed to the encoder, by column;
	// rows counts those rows.
	vals [][]parquet.Value
	ends []int // len(vals[i]) after the last whole row
	rows int
	// The encoder (encode, its own goroutine) writes a batch into the file while the next
	// is built: batches carries full batches to it, free brings their slices back, done
	// its result. failed is set once it failed, so rows stop early.
	batches chan [][]parquet.Value
	free    chan [][]parquet.Value
	done    chan error
	failed  atomic.Bool
	closed  bool
}

// parquetLeaf is a layout column's leaf in the file: its column index and whether it is a list
// (optional group, repeated list, required element: definition level 2 for an item, 1 for an
// empty list, 0 for null) or an optional value (1 for a value, 0 for null).
type parquetLeaf struct {
	index int
	list  bool
	// item is a list item's definition level: 3 where items may be null (an array's), 2 where
	// they may not (a vector's numbers, a reference's ids).
	item int
}

// A batch, the rows the sink hands each column writer at once, ends at batchRows rows or when
// a column holds batchValues values: past that (a few rows of long vectors) the values no
// longer stay in the CPU's cache between being built and being copied into the column.
const (
	batchRows   = 64
	batchValues = 4096
)

// Rows are built as parquet values, column by column, and handed to each column's writer in
// batches (Writer.ColumnWriters): the reflection parquet-go uses for a map or struct row cost
// more than the rest of an export of 768-dimension vectors (bench/transfer), and WriteRows
// copies every value of a row once more to split it into columns.
func newParquetSink(w io.Writer, cols []column) *parquetSink {
	g := parquet.Group{}
	for _, c := range cols {
		g[c.name] = parquet.Optional(parquetNode(c))
	}
	schema := parquet.NewSchema("object", g)
	opts := []parquet.WriterOption{schema, parquet.Compression(&parquet.Snappy)}
	for _, c := range cols {
		if c.kind == kVector {
			opts = append(opts, vectorOptions(c.name)...)
		}
	}
	s := &parquetSink{w: parquet.NewGenericWriter[any](w, opts...), cols: cols,
		leaves: make([]parquetLeaf, len(cols)), vals: make([][]parquet.Value, len(cols)), ends: make([]int, len(cols)),
		batches: make(chan [][]parquet.Value, 1), free: make(chan [][]parquet.Value, 2), done: make(chan error, 1)}
	s.free <- make([][]parquet.Value, len(cols))
	go s.encode()
	for i, c := range cols {
		list := c.array || c.kind == kRef || c.kind == kVector
		path := []string{c.name}
		if list {
			path = append(path, "list", "element")
		}
		leaf, _ := schema.Lookup(path...)
		s.leaves[i] = parquetLeaf{index: leaf.ColumnIndex, list: list, item: leaf.MaxDefinitionLevel}
	}
	return s
}

func parquetNode(c column) parquet.Node {
	var leaf parquet.Node
	switch c.kind {
	case kInt:
		leaf = parquet.Int(64)
	case kNumber:
		leaf = parquet.Leaf(parquet.DoubleType)
	case kDecimal:
		leaf = parquet.String()
		if c.hasDecimal() {
			// A fixed-length array holds any precision, where INT32 and INT64 stop at 9 and
			// 18 digits: one encoding for every column, and the one Spark and Arrow write.
			leaf = parquet.Decimal(c.scale, c.precision, parquet.FixedLenByteArrayType(decimalSize(c.precision)))
		}
	case kBool:
		leaf = parquet.Leaf(parquet.BooleanType)
	case kDay:
		leaf = parquet.Date()
	case kDate:
		// Microseconds: Weaviate's dates span years 1 to 9999, past what int64 nanoseconds hold.
		leaf = parquet.Timestamp(parquet.Microsecond)
	case kRef:
		return parquet.List(parquet.String())
	case kVector:
		// Uncompressed: an embedding's floats do not compress (Snappy wrote 309.4 MB of
		// bench/transfer's 307.2 MB of vectors), and trying cost time in every page.
		return parquet.List(parquet.Compressed(parquet.Leaf(parquet.FloatType), &parquet.Uncompressed))
	default:
		leaf = parquet.String()
	}
	if c.array {
		// Optional items, as Arrow and Spark write them: a PostgreSQL array may hold NULL.
		return parquet.List(parquet.Optional(leaf))
	}
	return leaf
}

func (s *parquetSink) row(vals []any) error {
	full := false
	for i, v := range vals {
		r, err := appendParquet(s.vals[i], s.leaves[i], v)
		if err != nil {
			// The row is not written: the columns before this one forget its values.
			for j := range i {
				s.vals[j] = s.vals[j][:s.ends[j]]
			}
			return fmt.Errorf("column %s: %w", s.cols[i].name, err)
		}
		s.vals[i] = r
		full = full || len(r) >= batchValues
	}
	for i, r := range s.vals {
		s.ends[i] = len(r)
	}
	if s.rows++; full || s.rows == batchRows {
		return s.handOver()
	}
	return nil
}

// handOver sends the batch to the encoder and takes the next one's slices.
func (s *parquetSink) handOver() error {
	if s.failed.Load() {
		return s.finish()
	}
	s.batches <- s.vals
	s.vals = <-s.free
	s.rows = 0
	clear(s.ends)
	return nil
}

// encode is the encoder: it writes each batch into the file, column by column. After a failure
// it only gives batches back, so handOver never waits for it.
func (s *parquetSink) encode() {
	var flushed int64 // the writer's size when the last row group was closed
	var err error
	for vals := range s.batches {
		if err == nil {
			err = s.writeBatch(vals, &flushed)
			if err != nil {
				s.failed.Store(true)
			}
		}
		// Not cleared: the values of byte arrays left behind point into rows already
		// written, two batches at most, until they are overwritten or the sink is dropped;
		// clearing cost a tenth of the building (the lines move between the two cores).
		for i, r := range vals {
			vals[i] = r[:0]
		}
		s.free <- vals
	}
	s.done <- err
}

// finish ends the encoder and returns its result.
func (s *parquetSink) finish() error {
	if s.closed {
		return fmt.Errorf("the Parquet writer stopped")
	}
	s.closed = true
	close(s.batches)
	return <-s.done
}

// appendParquet appends one row's value of a column to r.
func appendParquet(r []parquet.Value, leaf parquetLeaf, v any) ([]parquet.Value, error) {
	if v == nil {
		return append(r, parquet.Value{}.Level(0, 0, leaf.index)), nil
	}
	if !leaf.list {
		pv, err := parquetValue(v)
		if err != nil {
			return r, err
		}
		return append(r, pv.Level(0, 1, leaf.index)), nil
	}
	n := 0
	add := func(pv parquet.Value) {
		rep := 0
		if n > 0 {
			rep = 1
		}
		r = append(r, pv.Level(rep, leaf.item, leaf.index))
		n++
	}
	switch x := v.(type) {
	case []any: // items of which some are null
		for _, e := range x {
			if e == nil {
				rep := 0
				if n > 0 {
					rep = 1
				}
				r = append(r, parquet.Value{}.Level(rep, leaf.item-1, leaf.index))
				n++
				continue
			}
			pv, err := parquetValue(e)
			if err != nil {
				return r, err
			}
			add(pv)
		}
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
	case []decimal:
		for _, e := range x {
			add(parquet.ByteArrayValue([]byte(e)))
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
		return r, fmt.Errorf("a list of %T", v)
	}
	if n == 0 { // an empty list: defined, no item
		r = append(r, parquet.Value{}.Level(0, 1, leaf.index))
	}
	return r, nil
}

// writeBatch writes a batch's values into their columns.
func (s *parquetSink) writeBatch(vals [][]parquet.Value, flushed *int64) error {
	writers := s.w.ColumnWriters()
	for i, r := range vals {
		if len(r) == 0 {
			continue
		}
		if _, err := writers[s.leaves[i].index].WriteRowValues(r); err != nil {
			return fmt.Errorf("column %s: %w", s.cols[i].name, err)
		}
	}
	return closeFullRowGroup(s.w, flushed)
}

// vectorOptions are the writer options of a vector column: a page's smallest and largest
// vector component help no reader skip a page, and computing them (for the column index and
// again for the page header) cost a sixth of a row (BenchmarkSinks).
func vectorOptions(name string) []parquet.WriterOption {
	return []parquet.WriterOption{parquet.SkipPageBounds(name, "list", "element"),
		parquet.SkipPageStatistics(name, "list", "element")}
}

// closeFullRowGroup closes the row group being written once it holds rowGroupBytes since the
// last was closed (flushed, the writer's size then). parquet-go keeps a row group in memory
// until it is flushed, by default the whole file (300 MB for 100,000 rows of 768 floats):
// memory stays bounded, and the next group reuses the last one's buffers instead of fresh
// memory, a third of the time a row of a vector took (BenchmarkSinks).
func closeFullRowGroup(w interface {
	Size() int64
	Flush() error
}, flushed *int64) error {
	if w.Size()-*flushed < rowGroupBytes {
		return nil
	}
	if err := w.Flush(); err != nil {
		return err
	}
	*flushed = w.Size()
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
	case fixedDecimal:
		return parquet.FixedLenByteArrayValue(x), nil
	case int64:
		return parquet.Int64Value(x), nil
	case float64:
		return parquet.DoubleValue(x), nil
	case bool:
		return parquet.BooleanValue(x), nil
	case time.Time:
		return parquet.Int64Value(x.UnixMicro()), nil
	case day:
		return parquet.Int32Value(int32(x)), nil
	}
	return parquet.Value{}, fmt.Errorf("a value of type %T", v)
}

func (s *parquetSink) close() error {
	if s.closed {
		return errors.New("the Parquet writer was closed")
	}
	if s.rows > 0 && !s.failed.Load() {
		s.batches <- s.vals
	}
	if err := s.finish(); err != nil {
		return err
	}
	return s.w.Close()
}

func (s *parquetSink) abort() {
	if !s.closed {
		_ = s.finish()
	}
}
