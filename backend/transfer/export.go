package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"app/backend/driver"
)

// ExportRequest is what to export and where.
type ExportRequest struct {
	Table string
	// Filters select the rows (the grid's filters); a whole table without.
	Filters []driver.Filter
	// Sort orders the rows. The database sorts only within its paging limit
	// (Capabilities.MaxResults), so a sorted export of more rows is refused, saying so;
	// without a sort the rows come in key order, as many as there are.
	Sort []driver.Sort
	// Vectors adds each row's vectors (all of a table's named vectors, or those in
	// VectorNames when set).
	Vectors     bool
	VectorNames []string
	Format      Format
	// Path is the file written; it appears only once complete.
	Path string
}

// Progress is how far an export or import is.
type Progress struct {
	Rows    int64         `json:"rows"`
	Total   int64         `json:"total"` // -1 when unknown
	Elapsed time.Duration `json:"elapsed"`
}

// Rate is rows a second so far.
func (p Progress) Rate() float64 {
	if p.Elapsed <= 0 {
		return 0
	}
	return float64(p.Rows) / p.Elapsed.Seconds()
}

// Left is the time left at the current rate (0 when unknown).
func (p Progress) Left() time.Duration {
	r := p.Rate()
	if p.Total < 0 || r <= 0 || p.Rows >= p.Total {
		return 0
	}
	return time.Duration(float64(p.Total-p.Rows) / r * float64(time.Second))
}

// Summary is a finished export.
type Summary struct {
	Rows  int64         `json:"rows"`
	Path  string        `json:"path"`
	Bytes int64         `json:"bytes"`
	Took  time.Duration `json:"took"`
}

// exportMode is an exported file's mode: a temporary file is created owner-only, and the
// file the person asked for is an ordinary one.
const exportMode = 0o644

// scanStep is how many keys one step of an export walks.
const scanStep = 1000

// Export writes the rows req names to req.Path, calling progress after each page. The file is
// written as a hidden temporary file beside Path and renamed at the end: a cancelled or failed
// export leaves nothing behind, and an existing file at Path is replaced only by a complete one.
func Export(ctx context.Context, drv driver.Driver, req ExportRequest, progress func(Progress)) (Summary, error) {
	start := time.Now()
	if req.Format == "" {
		req.Format = FormatOf(req.Path)
	}
	if req.Format == "" {
		return Summary{}, fmt.Errorf("export to %s: the file name does not say the format; end it in .csv, .jsonl or .parquet", req.Path)
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	total, err := drv.Count(ctx, req.Table, req.Filters)
	if err != nil {
		return Summary{}, fmt.Errorf("export %s: counting its rows: %w", req.Table, err)
	}
	var pages pager
	if len(req.Sort) > 0 {
		limit := drv.Capabilities().MaxResults
		if limit > 0 && total > int64(limit) {
			return Summary{}, driver.Errorf(driver.KindUnsupported, "%s has %d matching rows and the database sorts only its first %d; export without the sort (rows in key order) or narrow the filters", req.Table, total, limit)
		}
		pages = &browsePager{drv: drv, req: req, names: nil}
		if req.Vectors {
			info, err := drv.DescribeTable(ctx, req.Table)
			if err != nil {
				return Summary{}, fmt.Errorf("export %s: %w", req.Table, err)
			}
			names := vectorNames(info, req)
			if len(req.VectorNames) > 0 {
				names = req.VectorNames
			}
			pages.(*browsePager).names = names
		}
	} else {
		sc, ok := drv.(driver.Scanner)
		if !ok {
			return Summary{}, driver.Errorf(driver.KindUnsupported, "this driver cannot read a whole table")
		}
		pages = &scanPager{sc: sc, req: req}
	}

	var n int64
	bytes, err := writeComplete(ctx, req.Path, func(tmp io.Writer) error {
		return exportPages(ctx, drv, req, pages, tmp, func(rows int) {
			n += int64(rows)
			progress(Progress{Rows: n, Total: max(total, n), Elapsed: time.Since(start)})
		})
	})
	if err != nil {
		return Summary{}, err
	}
	return Summary{Rows: n, Path: req.Path, Bytes: bytes, Took: time.Since(start)}, nil
}

// exportPages writes the pages of an export to tmp in req.Format, telling wrote how many rows
// each page added.
func exportPages(ctx context.Context, drv driver.Driver, req ExportRequest, pages pager, tmp io.Writer, wrote func(rows int)) error {
	var out sink
	var cols []column
	var n int64
	// The next page is read while this one is written: the walk waits on the database and
	// the driver's process, the writing on this one's CPU (bench/transfer).
	rctx, stopReading := context.WithCancel(ctx)
	defer stopReading() // an export that ends early stops the reader
	ahead := prefetch(rctx, pages)
	defer func() {
		if out != nil {
			out.abort() // after close, nothing
		}
	}()
	for {
		got, ok := <-ahead
		if !ok {
			break
		}
		p, err := got.page, got.err
		if err != nil {
			return fmt.Errorf("export %s: after %d rows: %w", req.Table, n, err)
		}
		if out == nil {
			cols = layout(p.Columns, p.VectorNames)
			if out, err = newSink(req.Format, tmp, cols); err != nil {
				return err
			}
		}
		if err := writePage(out, cols, p, req.Format == Parquet); err != nil {
			return fmt.Errorf("export %s: after %d rows: %w", req.Table, n, err)
		}
		n += int64(len(p.Rows))
		wrote(len(p.Rows))
	}
	if out == nil { // no page at all: a header from the table's columns
		info, err := drv.DescribeTable(ctx, req.Table)
		if err != nil {
			return fmt.Errorf("export %s: %w", req.Table, err)
		}
		cols = layout(info.Columns, vectorNames(info, req))
		if out, err = newSink(req.Format, tmp, cols); err != nil {
			return err
		}
	}
	if err := out.close(); err != nil {
		return fmt.Errorf("export to %s: %w", req.Path, err)
	}
	return nil
}

// writeComplete writes path through write, as a hidden temporary file beside it that is
// synced, made an ordinary file (exportMode) and renamed over path only when write succeeded
// and ctx is still live: a cancelled or failed export leaves nothing, and an existing file is
// replaced only by a complete one. It returns the file's size.
func writeComplete(ctx context.Context, path string, write func(tmp io.Writer) error) (int64, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".partial-*")
	if err != nil {
		return 0, fmt.Errorf("export to %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(&writeback{f: tmp}); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := tmp.Sync(); err != nil {
		return 0, fmt.Errorf("export to %s: %w", path, err)
	}
	var size int64
	if st, err := tmp.Stat(); err == nil {
		size = st.Size()
	}
	if err := errors.Join(tmp.Chmod(exportMode), tmp.Close()); err != nil {
		return 0, fmt.Errorf("export to %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, fmt.Errorf("export to %s: %w", path, err)
	}
	done = true
	return size, nil
}

func vectorNames(info *driver.TableInfo, req ExportRequest) []string {
	if !req.Vectors {
		return nil
	}
	return info.Settings.Vectors()
}

// writePage types and writes one page's rows.
func writePage(out sink, cols []column, p *driver.ScanPage, forParquet bool) error {
	vals := make([]any, len(cols))
	for i, r := range p.Rows {
		for j, c := range cols {
			var err error
			if c.kind == kVector {
				vals[j] = nil
				if i < len(p.Vectors) && c.vec < len(p.Vectors[i]) && p.Vectors[i][c.vec] != nil {
					vals[j] = p.Vectors[i][c.vec]
				}
				continue
			}
			if c.src >= len(r) {
				vals[j] = nil
				continue
			}
			if vals[j], err = value(c, r[c.src], forParquet); err != nil {
				return fmt.Errorf("row %s: %w", r[0], err)
			}
		}
		if err := out.row(vals); err != nil {
			return err
		}
	}
	return nil
}

// fetched is one page read ahead, or the error that ended the reading.
type fetched struct {
	page *driver.ScanPage
	err  error
}

// prefetch reads pages into a channel one ahead of their writer. It closes the channel after
// the last page or the first error, and stops when ctx ends.
func prefetch(ctx context.Context, pages pager) <-chan fetched {
	out := make(chan fetched, 1)
	go func() {
		defer close(out)
		for {
			p, err := pages.next(ctx)
			if p == nil && err == nil {
				return
			}
			select {
			case out <- fetched{p, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// pager yields an export's pages; nil at the end.
type pager interface {
	next(ctx context.Context) (*driver.ScanPage, error)
}

// scanPager walks the table with the driver's cursor.
type scanPager struct {
	sc    driver.Scanner
	req   ExportRequest
	after string
	ended bool
}

func (s *scanPager) next(ctx context.Context) (*driver.ScanPage, error) {
	for !s.ended {
		p, err := s.sc.Scan(ctx, s.req.Table, driver.ScanRequest{After: s.after, Limit: scanStep, Filters: s.req.Filters, Vectors: s.req.Vectors})
		if err != nil {
			return nil, err
		}
		s.after, s.ended = p.Next, p.Next == ""
		keepVectors(p, s.req.VectorNames)
		if len(p.Rows) > 0 || s.ended {
			if len(p.Rows) == 0 {
				return nil, nil
			}
			return p, nil
		}
	}
	return nil, nil
}

// keepVectors narrows a page's vectors to names (all when empty).
func keepVectors(p *driver.ScanPage, names []string) {
	if len(names) == 0 || len(p.VectorNames) == 0 {
		return
	}
	idx := make([]int, 0, len(names))
	for _, n := range names {
		for k, have := range p.VectorNames {
			if have == n {
				idx = append(idx, k)
			}
		}
	}
	kept := make([]string, len(idx))
	for i, k := range idx {
		kept[i] = p.VectorNames[k]
	}
	for r, vs := range p.Vectors {
		out := make([][]float32, len(idx))
		for i, k := range idx {
			if k < len(vs) {
				out[i] = vs[k]
			}
		}
		p.Vectors[r] = out
	}
	p.VectorNames = kept
}

// browsePager reads a sorted view page by page, within the database's paging limit.
type browsePager struct {
	drv    driver.Driver
	req    ExportRequest
	names  []string // the vectors every page carries, from the schema ("" a single vector)
	offset int
	ended  bool
}

func (b *browsePager) next(ctx context.Context) (*driver.ScanPage, error) {
	if b.ended {
		return nil, nil
	}
	g, err := b.drv.Browse(ctx, b.req.Table, driver.Page{Offset: b.offset, Limit: scanStep}, b.req.Filters, b.req.Sort)
	if err != nil {
		return nil, err
	}
	b.offset += len(g.Rows)
	b.ended = !g.HasMore || len(g.Rows) == 0
	if len(g.Rows) == 0 {
		return nil, nil
	}
	return gridPage(g, b.names), nil
}

// gridPage is a grid (a sorted page, a search or editor result) as a scan page: the vectors
// named (every page of an export the same names, from the schema; none for nil) become
// numbers read from the vector cells' JSON text (layout skips the vector column itself).
func gridPage(g *driver.Grid, names []string) *driver.ScanPage {
	p := &driver.ScanPage{Columns: g.Columns, Rows: g.Rows}
	vecCol := -1
	for i, c := range g.Columns {
		if c.IsVector() {
			vecCol = i
		}
	}
	if len(names) == 0 {
		return p
	}
	per := make([]map[string][]float32, len(g.Rows))
	for i, r := range g.Rows {
		if vecCol >= 0 && vecCol < len(r) {
			per[i] = vectorCell(r[vecCol], g.Columns[vecCol].Type)
		}
	}
	p.VectorNames = names
	p.Vectors = make([][][]float32, len(g.Rows))
	for i := range g.Rows {
		vs := make([][]float32, len(names))
		for k, n := range names {
			vs[k] = per[i][n]
		}
		p.Vectors[i] = vs
	}
	return p
}

// vectorCell reads a grid's vector cell: a JSON array (a table's single vector, name "") or,
// for named vectors, an object of them by name. A multi-vector or a preview is left out.
func vectorCell(cell any, typ string) map[string][]float32 {
	s, ok := cell.(string)
	if !ok || s == "" {
		return nil
	}
	if typ == driver.TypeVectors {
		var named map[string][]float32
		if json.Unmarshal([]byte(s), &named) != nil {
			return nil
		}
		return named
	}
	var v []float32
	if json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	return map[string][]float32{"": v}
}

// ExportGrid writes a grid already read (an editor result, Find similar's matches) to path in
// format f, as Export writes a table: the same layout and types, a temporary file renamed at
// the end. A vector column is left out (a result's vectors may be previews).
func ExportGrid(ctx context.Context, g *driver.Grid, f Format, path string) (Summary, error) {
	start := time.Now()
	if f == "" {
		f = FormatOf(path)
	}
	bytes, err := writeComplete(ctx, path, func(tmp io.Writer) error {
		p := gridPage(g, nil)
		cols := layout(p.Columns, nil)
		out, err := newSink(f, tmp, cols)
		if err != nil {
			return err
		}
		defer out.abort()
		if err := writePage(out, cols, p, f == Parquet); err != nil {
			return fmt.Errorf("export to %s: %w", path, err)
		}
		if err := out.close(); err != nil {
			return fmt.Errorf("export to %s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return Summary{}, err
	}
	return Summary{Rows: int64(len(g.Rows)), Path: path, Bytes: bytes, Took: time.Since(start)}, nil
}
