package transfer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

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
	// The schema is made at run time, so the rows are maps. parquet-go's GenericWriter[any],
	// which deprecates Writer, writes a map's zero values (0, false) as nulls in optional
	// columns (v0.32; TestARoundTripGivesIdenticalObjects catches it); Writer keeps them.
	//lint:ignore SA1019 the replacement loses zero values (see above)
	w    *parquet.Writer
	cols []column
	m    map[string]any
}

func newParquetSink(w io.Writer, cols []column) *parquetSink {
	g := parquet.Group{}
	for _, c := range cols {
		g[c.name] = parquet.Optional(parquetNode(c))
	}
	return &parquetSink{w: parquet.NewWriter(w, parquet.NewSchema("object", g), parquet.Compression(&parquet.Zstd)),
		cols: cols, m: make(map[string]any, len(cols))}
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
		leaf = parquet.Timestamp(parquet.Nanosecond)
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
	for i, c := range s.cols {
		v := vals[i]
		if raw, ok := v.(json.RawMessage); ok {
			v = string(raw)
		}
		s.m[c.name] = v
	}
	return s.w.Write(s.m)
}

func (s *parquetSink) close() error { return s.w.Close() }
