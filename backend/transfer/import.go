package transfer

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"app/backend/driver"
)

// ImportRequest is what to import and how.
type ImportRequest struct {
	Table  string
	Path   string
	Format Format // from Path's extension when empty
	// Map sends a file column to a table column ("-" skips it). Other file columns go to the
	// table column of the same name; "uuid" holds the key, "vector" and "vector:NAME" vectors.
	Map map[string]string
	// Create makes the table from the file's columns when it does not exist. The caller asks
	// the person first (the window's native dialog, the CLI's --create).
	Create bool
	// Report is where rejected rows are listed (CSV: line, uuid, reason); default: beside the
	// file, NAME.rejected.csv. Written only when a row is rejected.
	Report string
	// BatchSize is how many rows one write carries (0: 200).
	BatchSize int
}

// batchTimeout bounds one batch write: it is not cancelled with the import (a cut batch
// could leave rows the summary cannot account for), but a node that never answers ends it,
// its rows then counted as unknown.
const batchTimeout = 2 * time.Minute

// Rejected is a row the import did not write, and why.
type Rejected struct {
	Line int `json:"line"`
	// Key is the row's key as text (driver.Key.Text), when the file or the database gave one.
	Key    string `json:"key,omitempty"`
	Reason string `json:"reason"`
}

// ImportSummary says exactly what happened to every row read.
type ImportSummary struct {
	Written int64 `json:"written"`
	// Skipped rows were not sent: the file broke them (a broken line) or their cells did not
	// fit the table's types.
	Skipped int64 `json:"skipped"`
	// Failed rows were sent and refused by the database.
	Failed int64 `json:"failed"`
	// Unknown rows were in a write that was cut (the connection lost): they may or may not be
	// written.
	Unknown  int64         `json:"unknown"`
	Created  bool          `json:"created"`
	Report   string        `json:"report,omitempty"`
	Rejected []Rejected    `json:"rejected,omitempty"` // the first 100
	Took     time.Duration `json:"took"`
	// Stopped says why the import ended before the end of the file ("" when it read it all).
	Stopped string `json:"stopped,omitempty"`
}

// Import writes a file's rows into a table in batches (the driver's BatchWriter: created, or
// replaced by uuid), calling progress after each batch. Each row is typed by the driver's own
// cell rules before it is sent; a row that does not fit, or that the file breaks, is rejected
// with its line and reason, and the rows around it are written. A cancelled import stops
// between batches, so the summary says exactly what the database holds; a write cut by a lost
// connection stops the import, its rows counted as unknown.
func Import(ctx context.Context, drv driver.Driver, req ImportRequest, progress func(Progress)) (ImportSummary, error) {
	start := time.Now()
	var sum ImportSummary
	if req.Format == "" {
		req.Format = FormatOf(req.Path)
	}
	if req.Format == "" {
		return sum, fmt.Errorf("import %s: the file name does not say the format; end it in .csv, .jsonl or .parquet", req.Path)
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	bw, ok := drv.(driver.BatchWriter)
	if !ok {
		return sum, driver.Errorf(driver.KindUnsupported, "this driver cannot write rows in batches")
	}
	batch := req.BatchSize
	if batch <= 0 {
		batch = 200
	}

	info, err := drv.DescribeTable(ctx, req.Table)
	switch {
	case driver.IsKind(err, driver.KindNotFound) && req.Create:
		if info, err = createTable(ctx, drv, req); err != nil {
			return sum, err
		}
		sum.Created = true
	case driver.IsKind(err, driver.KindNotFound):
		return sum, fmt.Errorf("import into %s: %w (to create it from the file's columns, ask for it: --create)", req.Table, err)
	case err != nil:
		return sum, fmt.Errorf("import into %s: %w", req.Table, err)
	}

	src, err := openSource(req.Path, req.Format)
	if err != nil {
		return sum, err
	}
	defer src.close()
	m := newMapper(info, req.Map)
	if err := m.check(src.columns()); err != nil {
		return sum, err
	}
	checked := len(src.columns())

	var rejected []Rejected
	reject := func(line int, id, reason string) {
		rejected = append(rejected, Rejected{Line: line, Key: id, Reason: reason})
	}
	var rows []driver.Row
	var lines []int
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		// The write itself is not cancelled: a cut batch could leave rows the summary cannot
		// account for. The import stops between batches instead.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), batchTimeout)
		res, err := bw.WriteBatch(wctx, req.Table, rows)
		cancel()
		got := make(map[int]driver.RowResult, len(res))
		for _, r := range res {
			got[r.Index] = r
		}
		for i, row := range rows {
			r, ok := got[i]
			switch {
			case ok && r.Status == driver.RowOK:
				sum.Written++
			case ok && r.Status != "" && !r.MaybeWritten:
				if r.Kind == driver.KindInvalidArgument {
					sum.Skipped++ // typed out before sending
				} else {
					sum.Failed++
				}
				reject(lines[i], firstNonEmpty(r.Key.Text(info.PrimaryKey...), m.keyText(row)), r.Message)
			case err != nil && driver.MayHaveWritten(err), ok && r.MaybeWritten:
				sum.Unknown++
				reject(lines[i], firstNonEmpty(r.Key.Text(info.PrimaryKey...), m.keyText(row)), "the write was cut: the row "+driver.MaybeWritten)
			case err != nil:
				sum.Failed++
				reject(lines[i], m.keyText(row), err.Error())
			default:
				sum.Unknown++
				reject(lines[i], m.keyText(row), "the driver gave no outcome for this row: it "+driver.MaybeWritten)
			}
		}
		rows, lines = rows[:0], lines[:0]
		progress(Progress{Rows: sum.Written + sum.Skipped + sum.Failed + sum.Unknown, Total: -1, Elapsed: time.Since(start)})
		if err != nil {
			return err
		}
		return nil
	}

	var stop error
	for {
		if cerr := ctx.Err(); cerr != nil {
			sum.Stopped = "cancelled"
			stop = cerr
			break
		}
		rec, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *lineError
		if errors.As(err, &le) {
			sum.Skipped++
			reject(le.line, "", le.err.Error())
			continue
		}
		if err != nil {
			// The rows read before the break are written: a file broken at line N keeps
			// everything before it.
			if ferr := flush(); ferr != nil {
				err = errors.Join(err, ferr)
			}
			sum.Stopped = err.Error()
			stop = err
			break
		}
		// A JSON Lines file names its columns as it goes: a key no column takes stops the
		// import the first time it appears, as an unknown CSV or Parquet column does before
		// anything is written.
		if fresh := src.columns()[checked:]; len(fresh) > 0 {
			checked = len(src.columns())
			if err := m.check(fresh); err != nil {
				if ferr := flush(); ferr != nil {
					err = errors.Join(err, ferr)
				}
				err = fmt.Errorf("line %d: %w", rec.line, err)
				sum.Stopped = err.Error()
				stop = err
				break
			}
		}
		row, err := m.row(rec)
		if err != nil {
			sum.Skipped++
			reject(rec.line, m.keyText(row), err.Error())
			continue
		}
		rows, lines = append(rows, row), append(lines, rec.line)
		if len(rows) >= batch {
			if err := flush(); err != nil {
				sum.Stopped = err.Error()
				stop = err
				break
			}
		}
	}
	if stop == nil {
		if err := flush(); err != nil {
			sum.Stopped = err.Error()
			stop = err
		}
	}
	sum.Took = time.Since(start)
	if len(rejected) > 0 {
		sort.SliceStable(rejected, func(i, j int) bool { return rejected[i].Line < rejected[j].Line })
		sum.Rejected = rejected[:min(len(rejected), 100)]
		report := req.Report
		if report == "" {
			report = strings.TrimSuffix(req.Path, "."+string(req.Format)) + ".rejected.csv"
		}
		if err := writeReport(report, rejected); err != nil {
			err = fmt.Errorf("writing the report of rejected rows to %s: %w", report, err)
			if sum.Stopped == "" {
				sum.Stopped = err.Error()
			}
			return sum, errors.Join(stop, err)
		}
		sum.Report = report
	}
	if stop != nil {
		return sum, fmt.Errorf("import into %s stopped after %d rows written: %w", req.Table, sum.Written, stop)
	}
	return sum, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func writeReport(path string, rejected []Rejected) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"line", "key", "reason"})
	for _, r := range rejected {
		_ = w.Write([]string{strconv.Itoa(r.Line), r.Key, r.Reason})
	}
	w.Flush()
	return errors.Join(w.Error(), f.Close())
}

// keyText is the key a row's cells give, as text for the report; "" when they give none.
func (m *mapper) keyText(row driver.Row) string {
	k := driver.Key{}
	for _, c := range m.info.PrimaryKey {
		if v, ok := row.Values[c]; ok && v != nil {
			k[c] = v
		}
	}
	return k.Text(m.info.PrimaryKey...)
}

// mapper turns a file's records into rows of a table.
type mapper struct {
	info    *driver.TableInfo
	to      map[string]string // file column -> table column, "-" to skip
	columns map[string]driver.Column
	named   map[string]bool // the table's vectors by name, "" its own (TableSettings.Vectors)
}

func newMapper(info *driver.TableInfo, to map[string]string) *mapper {
	m := &mapper{info: info, to: to, columns: map[string]driver.Column{}, named: map[string]bool{}}
	for _, c := range info.Columns {
		m.columns[c.Name] = c
	}
	for _, n := range info.Settings.Vectors() {
		m.named[n] = true
	}
	return m
}

// target is where a file column goes: a table column, the key, a vector, or nowhere.
func (m *mapper) target(col string) (string, bool) {
	if t, ok := m.to[col]; ok {
		return t, t != "-"
	}
	return col, true
}

// check refuses, before anything is written, file columns that go nowhere known.
func (m *mapper) check(cols []string) error {
	var unknown []string
	for _, c := range cols {
		t, ok := m.target(c)
		if !ok || m.known(t) {
			continue
		}
		unknown = append(unknown, c)
	}
	if len(unknown) > 0 {
		return fmt.Errorf("the file's columns %s are not columns of %s: map each to one (--map %s=COLUMN) or skip it (--map %s=-)",
			strings.Join(unknown, ", "), m.info.Name, unknown[0], unknown[0])
	}
	return nil
}

func (m *mapper) known(t string) bool {
	if name, ok := vectorName(t); ok {
		return m.named[name]
	}
	c, ok := m.columns[t]
	return ok && !c.IsVector()
}

// vectorName reads a vector column's name: "vector" is a table's single vector (""),
// "vector:NAME" a named one.
func vectorName(col string) (string, bool) {
	if col == "vector" {
		return "", true
	}
	if n, ok := strings.CutPrefix(col, "vector:"); ok && n != "" {
		return n, true
	}
	return "", false
}

// row builds one row; an error says why the record cannot be one.
func (m *mapper) row(rec record) (driver.Row, error) {
	row := driver.Row{Values: make(map[string]any, len(rec.values))}
	keys := make([]string, 0, len(rec.values))
	for k := range rec.values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, col := range keys {
		v := rec.values[col]
		t, ok := m.target(col)
		if !ok {
			continue
		}
		switch {
		case isVectorTarget(t):
			name, _ := vectorName(t)
			if !m.known(t) {
				return row, fmt.Errorf("column %s: %s has no such vector", col, m.info.Name)
			}
			if v == nil {
				continue
			}
			f, err := floatsOf(v)
			if err != nil {
				return row, fmt.Errorf("column %s: %v", col, err)
			}
			if row.Vectors == nil {
				row.Vectors = map[string][]float32{}
			}
			row.Vectors[name] = f
		default:
			c, ok := m.columns[t]
			if !ok || c.IsVector() {
				return row, fmt.Errorf("column %s is not a column of %s: map it to one or skip it", col, m.info.Name)
			}
			row.Values[t] = cellFor(c, v)
		}
	}
	return row, nil
}

func isVectorTarget(t string) bool { _, ok := vectorName(t); return ok }

// cellFor is a file value for column c: a text column takes any value as text (a number as
// its digits, an object as its JSON), as a created table types such columns; every other
// value goes as cellOf reads it.
func cellFor(c driver.Column, v any) any {
	text := func(e any) any {
		switch x := e.(type) {
		case nil, string:
			return e
		case json.Number:
			return string(x)
		}
		return previewText(e)
	}
	switch {
	case c.Kind == driver.ColumnText:
		return text(v)
	case c.Kind == driver.ColumnArray && c.Of == driver.ColumnText:
		if list, ok := v.([]any); ok {
			out := make([]any, len(list))
			for i, e := range list {
				out[i] = text(e)
			}
			return out
		}
	}
	return cellOf(v)
}

// cellOf is a file value as the driver's cell rules read it: text as typed, numbers exact,
// dates as RFC 3339 text, lists as lists.
func cellOf(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cellOf(e)
		}
		return out
	case int32:
		return int64(x)
	case float32:
		return float64(x)
	}
	return v
}

// floatsOf reads a vector: a JSON array (text, as CSV holds it), a list of numbers.
func floatsOf(v any) ([]float32, error) {
	switch x := v.(type) {
	case []float32:
		return x, nil
	case string:
		var f []float32
		if err := json.Unmarshal([]byte(x), &f); err != nil {
			return nil, fmt.Errorf("a vector is a JSON array of numbers: %v", err)
		}
		return f, nil
	case []any:
		out := make([]float32, len(x))
		for i, e := range x {
			switch n := e.(type) {
			case json.Number:
				f, err := strconv.ParseFloat(string(n), 32)
				if err != nil {
					return nil, fmt.Errorf("item %d of the vector: %v", i+1, err)
				}
				out[i] = float32(f)
			case float32:
				out[i] = n
			case float64:
				out[i] = float32(n)
			default:
				return nil, fmt.Errorf("item %d of the vector is not a number", i+1)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("a vector is a list of numbers, not %T", v)
}
