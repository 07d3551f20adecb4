package transfer

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// structRow is a Parquet row of a table whose columns are all scalars and vectors: each column
// takes a slot of its kind, renamed to the column's name when the writer is made, and the
// slots no column took are left out of the file (parquet.StructTag). parquet-go writes a Go
// struct column by column from the rows' memory, a vector as one copy of its floats, where a
// layout built at run time goes through a parquet.Value for every float: 4 µs a row of 768
// floats against 19 µs (BenchmarkSinks). Tables with arrays or references, or with more
// columns of a kind than it has slots, are written the general way (parquetSink), because
// parquet-go's struct path writes an empty list as null; so are tables with a DECIMAL, which
// has no slot (its values are rare in the wide tables this path is for).
type structRow struct {
	S0  *string
	S1  *string
	S2  *string
	S3  *string
	S4  *string
	S5  *string
	S6  *string
	S7  *string
	S8  *string
	S9  *string
	S10 *string
	S11 *string
	S12 *string
	S13 *string
	S14 *string
	S15 *string
	S16 *string
	S17 *string
	S18 *string
	S19 *string
	S20 *string
	S21 *string
	S22 *string
	S23 *string
	S24 *string
	S25 *string
	S26 *string
	S27 *string
	S28 *string
	S29 *string
	S30 *string
	S31 *string
	I0  *int64
	I1  *int64
	I2  *int64
	I3  *int64
	I4  *int64
	I5  *int64
	I6  *int64
	I7  *int64
	I8  *int64
	I9  *int64
	I10 *int64
	I11 *int64
	I12 *int64
	I13 *int64
	I14 *int64
	I15 *int64
	F0  *float64
	F1  *float64
	F2  *float64
	F3  *float64
	F4  *float64
	F5  *float64
	F6  *float64
	F7  *float64
	F8  *float64
	F9  *float64
	F10 *float64
	F11 *float64
	F12 *float64
	F13 *float64
	F14 *float64
	F15 *float64
	B0  *bool
	B1  *bool
	B2  *bool
	B3  *bool
	B4  *bool
	B5  *bool
	B6  *bool
	B7  *bool
	D0  *int64
	D1  *int64
	D2  *int64
	D3  *int64
	D4  *int64
	D5  *int64
	D6  *int64
	D7  *int64
	V0  []float32
	V1  []float32
	V2  []float32
	V3  []float32
	V4  []float32
	V5  []float32
	V6  []float32
	V7  []float32
}

// slotPrefix is the slot kind a column's values take, or "" when it has none.
func slotPrefix(c column) string {
	if c.array {
		return ""
	}
	switch c.kind {
	case kText, kJSON:
		return "S"
	case kInt:
		return "I"
	case kNumber:
		return "F"
	case kDecimal:
		if !c.hasDecimal() {
			return "S" // its digits as text
		}
	case kBool:
		return "B"
	case kDate:
		return "D"
	case kVector:
		return "V"
	}
	return ""
}

// structSink writes Parquet through structRow.
type structSink struct {
	w       *parquet.GenericWriter[structRow]
	cols    []column
	offsets []uintptr // by column: its slot's offset in structRow
	slots   []string  // by column: its slot's kind
	rows    []structRow
	n       int // rows of rows in use
	// The values a batch's pointers point to.
	strs    []string
	ints    []int64
	floats  []float64
	bools   []bool
	flushed int64 // the writer's size when the last row group was closed
	err     error // the first failed write: the file is not whole, nothing more is written
}

// newStructSink is a structSink for cols, or nil when they do not fit structRow: a kind
// without slots, more columns of a kind than slots, or a name a struct tag cannot carry
// ("" keeps the slot's own name, "-" drops the column, a comma ends the name). A table of no
// columns has no struct either (parquet-go refuses a struct without fields).
func newStructSink(w io.Writer, cols []column) *structSink {
	if len(cols) == 0 {
		return nil
	}
	t := reflect.TypeFor[structRow]()
	used := map[string]int{}
	s := &structSink{cols: cols, offsets: make([]uintptr, len(cols)), slots: make([]string, len(cols)), rows: make([]structRow, batchRows)}
	opts := []parquet.WriterOption{parquet.Compression(&parquet.Snappy)}
	taken := map[string]bool{}
	for i, c := range cols {
		p := slotPrefix(c)
		if p == "" || c.name == "" || c.name == "-" || strings.ContainsAny(c.name, ",") {
			return nil
		}
		k := used[p]
		field, ok := t.FieldByName(p + strconv.Itoa(k))
		if !ok {
			return nil // more columns of this kind than slots
		}
		used[p] = k + 1
		taken[field.Name] = true
		s.offsets[i], s.slots[i] = field.Offset, p
		tag := c.name + ",optional"
		switch p {
		case "D":
			// Microseconds: Weaviate's dates span years 1 to 9999, past what int64
			// nanoseconds hold.
			tag += ",timestamp(microsecond)"
		case "V":
			tag += ",list,uncompressed"
			opts = append(opts, vectorOptions(c.name)...)
		}
		opts = append(opts, parquet.StructTag(reflect.StructTag(`parquet:`+strconv.Quote(tag)), field.Name))
	}
	for i := range t.NumField() {
		if name := t.Field(i).Name; !taken[name] {
			opts = append(opts, parquet.StructTag(`parquet:"-"`, name))
		}
	}
	s.w = parquet.NewGenericWriter[structRow](w, opts...)
	return s
}

func (s *structSink) row(vals []any) error {
	if s.err != nil {
		return s.err
	}
	r := &s.rows[s.n]
	*r = structRow{}
	base := unsafe.Pointer(r)
	// A row whose value cannot be typed is not written: the values appended for its earlier
	// columns stay behind in the arenas, unreferenced, until the batch ends.
	for i, v := range vals {
		if v == nil {
			continue
		}
		at := unsafe.Add(base, s.offsets[i])
		// A value is stored only in a slot of its own type: the slot's field is written
		// through a pointer of that type.
		switch x := v.(type) {
		case string:
			if s.slots[i] == "S" {
				*(**string)(at) = keep(&s.strs, x)
				continue
			}
		case json.RawMessage:
			if s.slots[i] == "S" {
				*(**string)(at) = keep(&s.strs, string(x))
				continue
			}
		case int64:
			if s.slots[i] == "I" {
				*(**int64)(at) = keep(&s.ints, x)
				continue
			}
		case time.Time:
			if s.slots[i] == "D" {
				*(**int64)(at) = keep(&s.ints, x.UnixMicro())
				continue
			}
		case float64:
			if s.slots[i] == "F" {
				*(**float64)(at) = keep(&s.floats, x)
				continue
			}
		case bool:
			if s.slots[i] == "B" {
				*(**bool)(at) = keep(&s.bools, x)
				continue
			}
		case []float32:
			if s.slots[i] == "V" {
				*(*[]float32)(at) = x
				continue
			}
		}
		*r = structRow{}
		return fmt.Errorf("column %s: a value of type %T", s.cols[i].name, v)
	}
	if s.n++; s.n == len(s.rows) {
		return s.writeBatch()
	}
	return nil
}

// keep appends v to a batch's arena and points at it. A pointer taken before the arena grew
// points into its old array, which keeps the value and is not written again.
func keep[T any](arena *[]T, v T) *T {
	*arena = append(*arena, v)
	return &(*arena)[len(*arena)-1]
}

// writeBatch writes the batch's rows and closes a full row group.
func (s *structSink) writeBatch() error {
	if s.n == 0 {
		return nil
	}
	if _, err := s.w.Write(s.rows[:s.n]); err != nil {
		s.err = err
		return err
	}
	s.n = 0
	// The values were copied into the columns: the arenas are used again. Strings left in
	// them point into rows already written until they are overwritten or the sink is dropped.
	s.strs, s.ints, s.floats, s.bools = s.strs[:0], s.ints[:0], s.floats[:0], s.bools[:0]
	if err := closeFullRowGroup(s.w, &s.flushed); err != nil {
		s.err = err
		return err
	}
	return nil
}

func (s *structSink) close() error {
	if s.err != nil {
		return s.err
	}
	if err := s.writeBatch(); err != nil {
		return err
	}
	return s.w.Close()
}

func (s *structSink) abort() {}
