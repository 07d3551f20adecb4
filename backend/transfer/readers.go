package transfer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// record is one row read from a file: its line (CSV and JSON Lines: the line it starts on;
// Parquet: the row number) and its values by file column, as the file holds them: text or nil
// (CSV), JSON values with json.Number (JSON Lines), Go values (Parquet).
type record struct {
	line   int
	values map[string]any
}

// lineError is a row the file itself breaks (a broken JSON line): reported and skipped, the
// rest read on. Any other read error ends the import at that line.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }

// source reads a file's rows.
type source interface {
	// columns are the file's columns known so far (JSON Lines: the keys seen so far).
	columns() []string
	// next is the next row, io.EOF at the end, a *lineError for a broken row.
	next() (record, error)
	close() error
}

// openSource opens path in format f, checking first that the file is what the format says.
func openSource(path string, f Format) (source, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(file, head)
	head = head[:n]
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		file.Close()
		return nil, err
	}
	switch f {
	case Parquet:
		st, err := file.Stat()
		if err != nil {
			file.Close()
			return nil, err
		}
		tail := make([]byte, 4)
		if st.Size() < 12 || !bytes.HasPrefix(head, []byte("PAR1")) {
			file.Close()
			return nil, fmt.Errorf("%s is not a Parquet file (it does not start with PAR1)", path)
		}
		if _, err := file.ReadAt(tail, st.Size()-4); err != nil || string(tail) != "PAR1" {
			file.Close()
			return nil, fmt.Errorf("%s is a truncated Parquet file: it does not end with PAR1, so its footer (the schema and where the rows are) is missing", path)
		}
		pf, err := parquet.OpenFile(file, st.Size())
		if err != nil {
			file.Close()
			return nil, fmt.Errorf("%s is not a readable Parquet file: %v", path, err)
		}
		cols := make([]string, 0, len(pf.Schema().Fields()))
		for _, fl := range pf.Schema().Fields() {
			cols = append(cols, fl.Name())
		}
		stamps, days, decimals := leafTypes(pf.Schema())
		return &parquetSource{f: file, r: parquet.NewReader(pf), rows: make([]parquet.Row, 1), cols: cols, stamps: stamps, days: days, decimals: decimals}, nil
	case JSONL:
		if t := bytes.TrimLeft(head, " \t\r\n\ufeff"); len(t) > 0 && t[0] != '{' {
			file.Close()
			return nil, fmt.Errorf("%s is not a JSON Lines file: its first line is not a JSON object", path)
		}
		r := bufio.NewReaderSize(file, 1<<20)
		return &jsonlSource{f: file, r: r, seen: map[string]bool{}}, nil
	case CSV:
		if bytes.IndexByte(head, 0) >= 0 || bytes.HasPrefix(head, []byte("PAR1")) {
			file.Close()
			return nil, fmt.Errorf("%s is not a CSV file: it holds binary data", path)
		}
		s := &csvSource{f: file, r: bufio.NewReaderSize(file, 1<<20)}
		if bom, _ := s.r.Peek(3); string(bom) == "\ufeff" { // a byte-order mark, before a quoted header too
			_, _ = s.r.Discard(3)
		}
		header, _, err := s.readRecord()
		if err != nil {
			file.Close()
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%s is empty: a CSV file starts with a header row", path)
			}
			return nil, err
		}
		for i, h := range header {
			if h == nil || *h == "" {
				file.Close()
				return nil, fmt.Errorf("%s: column %d of the header row has no name", path, i+1)
			}
			if slices.Contains(s.header, *h) {
				file.Close()
				return nil, fmt.Errorf("%s: the header row names the column %q twice", path, *h)
			}
			s.header = append(s.header, *h)
		}
		return s, nil
	}
	file.Close()
	return nil, fmt.Errorf("unknown format %q: use %s, %s or %s", f, CSV, JSONL, Parquet)
}

// --- JSON Lines ---

type jsonlSource struct {
	f    *os.File
	r    *bufio.Reader
	line int
	seen map[string]bool
	cols []string
}

func (s *jsonlSource) columns() []string { return s.cols }

func (s *jsonlSource) next() (record, error) {
	for {
		b, err := s.r.ReadBytes('\n')
		if len(b) == 0 && err != nil {
			return record{}, err // io.EOF, or a read error
		}
		s.line++
		b = bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\ufeff")))
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var m map[string]any
		if derr := dec.Decode(&m); derr != nil || dec.More() {
			if derr == nil {
				derr = errors.New("more than one JSON value on the line")
			}
			return record{}, &lineError{s.line, fmt.Errorf("not a JSON object: %v", derr)}
		}
		for k := range m {
			if !s.seen[k] {
				s.seen[k] = true
				s.cols = append(s.cols, k)
			}
		}
		return record{line: s.line, values: m}, nil
	}
}

func (s *jsonlSource) close() error { return s.f.Close() }

// --- CSV: RFC 4180, with the export's null rule (an empty unquoted field is null, a quoted
// empty field an empty text). ---

type csvSource struct {
	f      *os.File
	r      *bufio.Reader
	line   int // the line the next record starts on, 1-based after the header
	header []string
}

func (s *csvSource) columns() []string { return s.header }

func (s *csvSource) next() (record, error) {
	fields, line, err := s.readRecord()
	if err != nil {
		return record{}, err
	}
	if len(fields) == 1 && fields[0] == nil && len(s.header) > 1 {
		return s.next() // a blank line
	}
	if len(fields) != len(s.header) {
		return record{}, &lineError{line, fmt.Errorf("%d fields where the header has %d", len(fields), len(s.header))}
	}
	m := make(map[string]any, len(fields))
	for i, f := range fields {
		if f == nil {
			m[s.header[i]] = nil
		} else {
			m[s.header[i]] = *f
		}
	}
	return record{line: line, values: m}, nil
}

// readRecord reads one record: each field's text, nil for an empty unquoted field. It returns
// the line the record starts on.
func (s *csvSource) readRecord() ([]*string, int, error) {
	s.line++
	start := s.line
	var fields []*string
	var field strings.Builder
	quoted, inQuotes, any := false, false, false
	end := func() {
		if !quoted && field.Len() == 0 {
			fields = append(fields, nil)
		} else {
			v := field.String()
			fields = append(fields, &v)
		}
		field.Reset()
		quoted = false
	}
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			if inQuotes {
				return nil, start, fmt.Errorf("line %d: a quoted field is not closed before the end of the file", start)
			}
			if !any {
				return nil, start, io.EOF
			}
			end()
			return fields, start, nil
		}
		any = true
		switch {
		case inQuotes && c == '"':
			if n, _ := s.r.Peek(1); len(n) == 1 && n[0] == '"' {
				_, _ = s.r.ReadByte()
				field.WriteByte('"')
			} else {
				inQuotes = false
			}
		case inQuotes:
			if c == '\n' {
				s.line++
			}
			field.WriteByte(c)
		case c == '"' && field.Len() == 0 && !quoted:
			inQuotes, quoted = true, true
		case c == ',':
			end()
		case c == '\r':
			if n, _ := s.r.Peek(1); len(n) == 1 && n[0] == '\n' {
				continue
			}
			end()
			return fields, start, nil
		case c == '\n':
			end()
			return fields, start, nil
		default:
			if quoted {
				return nil, start, fmt.Errorf("line %d: text after a closing quote", start)
			}
			field.WriteByte(c)
		}
	}
}

func (s *csvSource) close() error { return s.f.Close() }

// --- Parquet ---

type parquetSource struct {
	f *os.File
	// Rows are read as maps through Reader, whose replacement (GenericReader) needs a Go type,
	// while a file's schema is known only at run time.
	//lint:ignore SA1019 the replacement cannot read a schema known only at run time
	r        *parquet.Reader
	rows     []parquet.Row
	cols     []string
	stamps   map[string]time.Duration // timestamp columns (and lists of them): their unit
	days     []string                 // DATE columns (and lists of them)
	decimals []decimalLeaf
	row      int
}

// decimalLeaf is a top-level column whose values (or list items) are DECIMALs. The map reader
// gives them as floats (an INT32's as a float32), which round their digits, so the import
// reads their raw values from the row instead.
type decimalLeaf struct {
	name  string
	scale int
	leaf  parquet.LeafColumn
}

// leafTypes finds the top-level columns whose values (or list items) are timestamps, which
// the map reader gives as raw int64s and the import turns back into times, DATEs, which it
// gives as days and the import turns back into the date's text, and DECIMALs.
func leafTypes(s *parquet.Schema) (map[string]time.Duration, []string, []decimalLeaf) {
	stamps := map[string]time.Duration{}
	var days []string
	var decimals []decimalLeaf
	for _, f := range s.Fields() {
		n, path := parquet.Node(f), []string{f.Name()}
		for n != nil && !n.Leaf() {
			fs := n.Fields()
			n = nil
			if len(fs) == 1 {
				n, path = fs[0], append(path, fs[0].Name())
			}
		}
		if n == nil || n.Type().LogicalType() == nil {
			continue
		}
		switch t := n.Type().LogicalType().Value.(type) {
		case *format.TimestampType:
			if t.Unit.Value != nil {
				stamps[f.Name()] = t.Unit.Value.Duration()
			}
		case *format.DateType:
			days = append(days, f.Name())
		case *format.DecimalType:
			if leaf, ok := s.Lookup(path...); ok {
				decimals = append(decimals, decimalLeaf{name: f.Name(), scale: int(t.Scale), leaf: leaf})
			}
		}
	}
	return stamps, days, decimals
}

func (s *parquetSource) columns() []string { return s.cols }

func (s *parquetSource) next() (record, error) {
	s.rows = s.rows[:1]
	n, err := s.r.ReadRows(s.rows)
	if n == 0 && err == nil {
		err = io.EOF
	}
	m := map[string]any{}
	if n == 1 {
		err = s.r.Schema().Reconstruct(&m, s.rows[0])
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return record{}, io.EOF
		}
		return record{}, fmt.Errorf("row %d: the Parquet file cannot be read on: %v", s.row+1, err)
	}
	s.row++
	for col, unit := range s.stamps {
		m[col] = stampsToTimes(m[col], unit)
	}
	for _, col := range s.days {
		m[col] = daysToDates(m[col])
	}
	for _, d := range s.decimals {
		if m[d.name] != nil {
			m[d.name] = d.digits(s.rows[0])
		}
	}
	return record{line: s.row, values: m}, nil
}

// digits are the column's values in row as their digits (json.Number), which the driver binds
// as they are: a value, or a list's items (nil for a null item).
func (d decimalLeaf) digits(row parquet.Row) any {
	var items []any
	for _, v := range row {
		if v.Column() != d.leaf.ColumnIndex {
			continue
		}
		switch def := v.DefinitionLevel(); {
		case def == d.leaf.MaxDefinitionLevel:
			items = append(items, fromDecimal(v, d.scale))
		case d.leaf.Node.Optional() && def == d.leaf.MaxDefinitionLevel-1:
			items = append(items, nil) // a null item (next leaves a null value as it is)
		}
	}
	if d.leaf.MaxRepetitionLevel == 0 {
		return items[0]
	}
	if items == nil {
		return []any{}
	}
	return items
}

func (s *parquetSource) close() error { return s.f.Close() }

// daysToDates turns a DATE's days since 1970-01-01 (or a list of them) into the date's text.
func daysToDates(v any) any {
	switch x := v.(type) {
	case int32:
		return time.Unix(int64(x)*86400, 0).UTC().Format(time.DateOnly)
	case int64:
		return time.Unix(x*86400, 0).UTC().Format(time.DateOnly)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = daysToDates(e)
		}
		return out
	}
	return v
}

func stampsToTimes(v any, unit time.Duration) any {
	switch x := v.(type) {
	case int64:
		switch unit {
		case time.Millisecond:
			return time.UnixMilli(x).UTC()
		case time.Microsecond:
			return time.UnixMicro(x).UTC()
		}
		return time.Unix(0, x).UTC()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stampsToTimes(e, unit)
		}
		return out
	}
	return v
}
