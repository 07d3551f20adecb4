package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// failAfter is a file that fails once it holds n bytes (a full disk).
type failAfter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		w := f.n
		f.n = 0
		return w, errDiskFull
	}
	f.n -= len(p)
	return len(p), nil
}

func vectorRows(n int) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		v := make([]float32, 768)
		for j := range v {
			v[j] = float32(i*768+j) / 1e6
		}
		rows[i] = []any{"row", int64(i), v}
	}
	return rows
}

var vectorCols = []column{{name: "title", kind: kText}, {name: "n", kind: kInt}, {name: "vector", kind: kVector}}

// A Parquet file whose writing fails (the disk fills while the encoder writes a row group) ends
// the export with that error, from the row being written or from close, and leaves no encoder
// running; an export that stops early (abort) leaves none either.
func TestAParquetWriteThatFailsEndsTheExportWithItsError(t *testing.T) {
	before := runtime.NumGoroutine()
	s := newParquetSink(&failAfter{n: 4 << 20}, vectorCols)
	var err error
	for _, r := range vectorRows(20000) { // 60 MB of vectors: past the 4 MB the disk holds
		if err = s.row(r); err != nil {
			break
		}
	}
	if err == nil {
		err = s.close()
	}
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("the export ended with %v, want the disk's error", err)
	}
	s.abort()

	stopped := newParquetSink(&bytes.Buffer{}, vectorCols)
	for _, r := range vectorRows(100) {
		if err := stopped.row(r); err != nil {
			t.Fatal(err)
		}
	}
	stopped.abort()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Fatalf("%d goroutines after the sinks ended, %d before", n, before)
	}
}

// Rows written in batches through the encoder read back in order with their values, a row
// whose value cannot be typed is refused whole (no column keeps a part of it), and the vector
// column is stored uncompressed.
func TestParquetBatchesKeepRowsWhole(t *testing.T) {
	var buf bytes.Buffer
	s := newParquetSink(&buf, vectorCols)
	rows := vectorRows(300)
	for i, r := range rows {
		if i == 150 {
			if err := s.row([]any{"bad", struct{}{}, []float32{1}}); err == nil {
				t.Fatal("a row with a value of no Parquet type was written")
			}
		}
		if err := s.row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if f.NumRows() != int64(len(rows)) {
		t.Fatalf("%d rows read back, want %d", f.NumRows(), len(rows))
	}
	for _, rg := range f.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if c.MetaData.PathInSchema[0] == "vector" && c.MetaData.Codec.String() != "UNCOMPRESSED" {
				t.Fatalf("the vector column is %s", c.MetaData.Codec)
			}
		}
	}
	r := parquet.NewReader(f)
	defer r.Close()
	for i := range rows {
		var got struct {
			Title  *string   `parquet:"title"`
			N      *int64    `parquet:"n"`
			Vector []float32 `parquet:"vector,list"`
		}
		if err := r.Read(&got); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		want := rows[i][2].([]float32)
		if got.Title == nil || *got.Title != "row" || got.N == nil || *got.N != int64(i) || len(got.Vector) != len(want) || got.Vector[767] != want[767] {
			t.Fatalf("row %d read back as title=%v n=%v, %d floats", i, got.Title, got.N, len(got.Vector))
		}
	}
}

// The struct path (structSink) writes the same columns as the general path: the same names,
// types, logical types and optionality, nulls as nulls, dates as UTC microseconds; the vectors
// uncompressed and in order. Tables it cannot take (an array, a reference, a DECIMAL, more
// columns of a kind than it has slots) take the general path.
func TestTheStructPathWritesWhatTheGeneralPathWrites(t *testing.T) {
	cols := []column{{name: "uuid", kind: kText}, {name: "title", kind: kText}, {name: "n", kind: kInt},
		{name: "price", kind: kNumber}, {name: "ok", kind: kBool}, {name: "at", kind: kDate},
		{name: "meta", kind: kJSON}, {name: "vector", kind: kVector}, {name: "vector:image", kind: kVector},
		{name: "amount", kind: kDecimal}}
	at := time.Date(1, 2, 3, 4, 5, 6, 7000, time.UTC) // year 1: past int64 nanoseconds
	rows := [][]any{
		{"u1", "first", int64(1 << 60), 2.5, true, at, json.RawMessage(`{"a":1}`), []float32{1, 2, 3}, []float32{4}, "12345678901234567890.5"},
		{"u2", nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{"u3", "third", int64(-3), -0.5, false, at.AddDate(9000, 0, 0), json.RawMessage(`[]`), []float32{7, 8, 9}, nil, "NaN"},
	}
	write := func(s sink) []byte {
		t.Helper()
		for _, r := range rows {
			if err := s.row(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.close(); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	var fast, general bytes.Buffer
	ss := newStructSink(&fast, cols)
	if ss == nil {
		t.Fatal("a table of scalars and vectors did not take the struct path")
	}
	write(ss)
	write(newParquetSink(&general, cols))

	open := func(b *bytes.Buffer) *parquet.File {
		f, err := parquet.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	ff, fg := open(&fast), open(&general)
	leaves := func(f *parquet.File) map[string]string {
		out := map[string]string{}
		for _, path := range f.Schema().Columns() {
			leaf, _ := f.Schema().Lookup(path...)
			out[strings.Join(path, ".")] = fmt.Sprintf("%v optional=%v repeated=%v", leaf.Node.Type(), leaf.Node.Optional(), leaf.Node.Repeated())
		}
		return out
	}
	if lf, lg := leaves(ff), leaves(fg); !reflect.DeepEqual(lf, lg) {
		t.Fatalf("the struct path's columns\n%v\nthe general path's\n%v", lf, lg)
	}
	for _, rg := range ff.Metadata().RowGroups {
		for _, c := range rg.Columns {
			if strings.HasPrefix(c.MetaData.PathInSchema[0], "vector") && c.MetaData.Codec.String() != "UNCOMPRESSED" {
				t.Fatalf("%v is %s", c.MetaData.PathInSchema, c.MetaData.Codec)
			}
		}
	}
	read := func(f *parquet.File) []map[string]any {
		r := parquet.NewReader(f)
		defer r.Close()
		out := make([]map[string]any, f.NumRows())
		for i := range out {
			out[i] = map[string]any{}
			if err := r.Read(&out[i]); err != nil {
				t.Fatalf("row %d: %v", i, err)
			}
		}
		return out
	}
	if rf, rg := read(ff), read(fg); !reflect.DeepEqual(rf, rg) {
		t.Fatalf("the struct path's rows\n%v\nthe general path's\n%v", rf, rg)
	}

	for name, cols := range map[string][]column{
		"an array":    {{name: "tags", kind: kText, array: true}},
		"a reference": {{name: "author", kind: kRef}},
		"a DECIMAL":   {{name: "price", kind: kDecimal, precision: 10, scale: 2}},
		"nine vectors": func() []column {
			var out []column
			for i := range 9 {
				out = append(out, column{name: fmt.Sprintf("vector:v%d", i), kind: kVector})
			}
			return out
		}(),
		"a comma in a name":   {{name: "a,b", kind: kText}},
		"a column named -":    {{name: "uuid", kind: kText}, {name: "-", kind: kText}},
		"a column named \"\"": {{name: "uuid", kind: kText}, {name: "", kind: kInt}},
		"no column":           nil,
	} {
		if newStructSink(io.Discard, cols) != nil {
			t.Errorf("%s took the struct path", name)
		}
	}
}
