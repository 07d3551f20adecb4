package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"app/backend/driver"
)

// Preview is a file's first rows as an import would read them, with where each column goes
// and which cells the table's types refuse, before anything is written.
type Preview struct {
	Format Format `json:"format"`
	// Columns are the file's columns (JSON Lines: those of the rows read).
	Columns []string `json:"columns"`
	// Targets suggests each column's table column (same order): its own name when the table
	// has it, "uuid", a vector, or "" when the table has no such column (skipped unless
	// mapped). A table that does not exist yet gets every column (it would be created).
	Targets []string `json:"targets"`
	// Rows are the first rows as text (nil for null), in Columns' order.
	Rows [][]*string `json:"rows"`
	// Problems are the cells the driver's cell rules refuse: row index -> column -> reason.
	Problems map[int]map[string]string `json:"problems,omitempty"`
	// Broken lists the lines the file itself breaks among those read.
	Broken []Rejected `json:"broken,omitempty"`
	// Exists is false when the table does not exist (the import would create it).
	Exists bool `json:"exists"`
}

// PreviewFile reads up to n rows of path and checks them against table.
func PreviewFile(ctx context.Context, drv driver.Driver, table, path string, n int) (*Preview, error) {
	f := FormatOf(path)
	if f == "" {
		return nil, fmt.Errorf("%s: the file name does not say the format; end it in .csv, .jsonl or .parquet", path)
	}
	src, err := openSource(path, f)
	if err != nil {
		return nil, err
	}
	defer src.close()
	p := &Preview{Format: f, Problems: map[int]map[string]string{}}
	info, err := drv.DescribeTable(ctx, table)
	switch {
	case driver.IsKind(err, driver.KindNotFound):
	case err != nil:
		return nil, err
	default:
		p.Exists = true
	}
	var recs []record
	for len(recs) < n {
		rec, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *lineError
		if errors.As(err, &le) {
			p.Broken = append(p.Broken, Rejected{Line: le.line, Reason: le.err.Error()})
			continue
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	p.Columns = append([]string(nil), src.columns()...)
	var m *mapper
	if p.Exists {
		m = newMapper(info, nil)
	}
	for _, c := range p.Columns {
		switch {
		case m == nil || m.known(c):
			p.Targets = append(p.Targets, c)
		default:
			p.Targets = append(p.Targets, "")
		}
	}
	for i, rec := range recs {
		row := make([]*string, len(p.Columns))
		cells := map[string]*string{}
		for j, c := range p.Columns {
			v, ok := rec.values[c]
			if !ok || v == nil {
				continue
			}
			s := previewText(v)
			row[j] = &s
			if m != nil && m.known(c) && c != "uuid" && !isVectorTarget(c) {
				cells[c] = &s
			}
		}
		p.Rows = append(p.Rows, row)
		if m != nil && len(cells) > 0 {
			bad, err := drv.CheckCells(ctx, table, cells)
			if err != nil {
				return nil, err
			}
			if len(bad) > 0 {
				p.Problems[i] = bad
			}
		}
	}
	return p, nil
}

// previewText is a file value as the grid shows text: lists and objects as JSON.
func previewText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(cellOf(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
