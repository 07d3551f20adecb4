package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"app/backend/driver"
	"app/backend/explore"
	"app/backend/transfer"
)

// FileDialogs are the window's native file dialogs; "" from either means cancelled.
type FileDialogs struct {
	Save func(ctx context.Context, title, defaultName string, filters []FileFilter) (string, error)
	Open func(ctx context.Context, title string, filters []FileFilter) (string, error)
}

// FileFilter is one entry of a file dialog's type list.
type FileFilter struct{ Name, Pattern string }

// TransferProgressDTO is how far an export or import is.
type TransferProgressDTO struct {
	ID    string `json:"id"`
	Rows  int64  `json:"rows"`
	Total int64  `json:"total"` // -1 when unknown
	Rate  int64  `json:"rate"`  // rows a second
	// LeftMs is the time left at the current rate (0 when unknown).
	LeftMs int64 `json:"leftMs"`
}

// ExportRequestDTO is an export from the grid: the format, whether the grid's filters and
// sort apply, and the vectors.
type ExportRequestDTO struct {
	Format  string      `json:"format"` // csv, jsonl or parquet
	Filters []FilterDTO `json:"filters"`
	Sort    []SortDTO   `json:"sort"`
	Vectors bool        `json:"vectors"`
}

// ExportResultDTO is a finished (or cancelled) export.
type ExportResultDTO struct {
	// Status is "done", "cancelled" (the export was stopped: no file) or "not_chosen" (the
	// save dialog was closed: nothing ran).
	Status    string `json:"status"`
	Rows      int64  `json:"rows"`
	Path      string `json:"path"`
	Bytes     int64  `json:"bytes"`
	ElapsedMs int64  `json:"elapsedMs"`
}

// ImportPreviewDTO is transfer.Preview for the window.
type ImportPreviewDTO struct {
	Path     string                       `json:"path"`
	Format   string                       `json:"format"`
	Columns  []string                     `json:"columns"`
	Targets  []string                     `json:"targets"`
	Rows     [][]*string                  `json:"rows"`
	Problems map[string]map[string]string `json:"problems"` // row index (text) -> column -> reason
	Broken   []RejectedDTO                `json:"broken"`
	Exists   bool                         `json:"exists"`
	// TableColumns are the table's columns a file column may go to ("uuid", properties, vectors).
	TableColumns []string `json:"tableColumns"`
}

// RejectedDTO is a row an import did not write.
type RejectedDTO struct {
	Line   int    `json:"line"`
	UUID   string `json:"uuid"`
	Reason string `json:"reason"`
}

// ImportResultDTO is a finished, stopped or declined import.
type ImportResultDTO struct {
	// Status is "done", "stopped" (cancelled or cut: the counts say what was written) or
	// "not_confirmed" (creating the table was declined: nothing written).
	Status    string        `json:"status"`
	Written   int64         `json:"written"`
	Skipped   int64         `json:"skipped"`
	Failed    int64         `json:"failed"`
	Unknown   int64         `json:"unknown"`
	Created   bool          `json:"created"`
	Report    string        `json:"report"`
	Rejected  []RejectedDTO `json:"rejected"`
	Message   string        `json:"message"`
	ElapsedMs int64         `json:"elapsedMs"`
}

var formatFilters = map[transfer.Format]FileFilter{
	transfer.CSV:     {"CSV (*.csv)", "*.csv"},
	transfer.JSONL:   {"JSON Lines (*.jsonl)", "*.jsonl"},
	transfer.Parquet: {"Parquet (*.parquet)", "*.parquet"},
}

// progressTo emits an export's or import's progress to the window, at most ten times a second.
func (a *ExplorerAPI) progressTo(id string) func(transfer.Progress) {
	var last time.Time
	return func(p transfer.Progress) {
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		a.emit(EventTransferProgress, TransferProgressDTO{ID: id, Rows: p.Rows, Total: p.Total, Rate: int64(p.Rate()), LeftMs: p.Left().Milliseconds()})
	}
}

// ExportTable asks where to save (the native save dialog), then writes every row of table
// (the filters and sort when given) in the format, emitting EventTransferProgress with id
// until it ends. CancelTransfer(id) stops it, and no file is left.
func (a *ExplorerAPI) ExportTable(id, connectionID, table string, req ExportRequestDTO) (ExportResultDTO, error) {
	filters, sorts := toDriverFilters(req.Filters), toDriverSorts(req.Sort)
	if err := explore.CheckFilters(filters, sorts); err != nil {
		return ExportResultDTO{}, apiError(err)
	}
	d, err := a.driver(connectionID)
	if err != nil {
		return ExportResultDTO{}, err
	}
	parent := a.parent()
	f, path, err := a.saveAs(parent, table, req.Format)
	if err != nil {
		return ExportResultDTO{}, err
	}
	if path == "" {
		return ExportResultDTO{Status: "not_chosen"}, nil
	}
	ctx, done := a.transfers.Start(parent, id)
	defer done()
	sum, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: table, Filters: filters, Sort: sorts,
		Vectors: req.Vectors, Format: f, Path: path}, a.progressTo(id))
	if errors.Is(err, context.Canceled) || driver.IsKind(err, driver.KindCancelled) {
		return ExportResultDTO{Status: "cancelled"}, nil
	}
	if err != nil {
		return ExportResultDTO{}, apiError(err)
	}
	return ExportResultDTO{Status: "done", Rows: sum.Rows, Path: sum.Path, Bytes: sum.Bytes, ElapsedMs: sum.Took.Milliseconds()}, nil
}

// ExportGrid asks where to save, then writes a grid the window holds (an editor result, Find
// similar's matches) named name in the format: the same layout and types as a table's export.
func (a *ExplorerAPI) ExportGrid(name, format string, grid GridDTO) (ExportResultDTO, error) {
	parent := a.parent()
	f, path, err := a.saveAs(parent, name, format)
	if err != nil {
		return ExportResultDTO{}, err
	}
	if path == "" {
		return ExportResultDTO{Status: "not_chosen"}, nil
	}
	sum, err := transfer.ExportGrid(parent, fromGridDTO(grid), f, path)
	if err != nil {
		return ExportResultDTO{}, apiError(err)
	}
	return ExportResultDTO{Status: "done", Rows: sum.Rows, Path: sum.Path, Bytes: sum.Bytes, ElapsedMs: sum.Took.Milliseconds()}, nil
}

// fromGridDTO reads back a grid the window sent (explore.GridFromText).
func fromGridDTO(g GridDTO) *driver.Grid {
	cols := make([]driver.Column, len(g.Columns))
	for i, c := range g.Columns {
		cols[i] = driver.Column{Name: c.Name, Type: c.Type, PrimaryKey: c.PrimaryKey, ReadOnly: c.ReadOnly}
	}
	return explore.GridFromText(cols, g.Rows)
}

// saveAs checks the format and asks where to save name's export (the native save dialog); ""
// when the dialog was closed. A path chosen without the format's extension gets it.
func (a *ExplorerAPI) saveAs(ctx context.Context, name, format string) (transfer.Format, string, error) {
	f := transfer.Format(format)
	filter, ok := formatFilters[f]
	if !ok {
		return f, "", invalidArgument("format %q: use csv, jsonl or parquet", format)
	}
	save := a.env().files.Save
	if save == nil {
		return f, "", unavailable("no save dialog here")
	}
	path, err := save(ctx, "Export "+name, name+"."+string(f), []FileFilter{filter})
	if err != nil {
		return f, "", apiError(err)
	}
	if path != "" && transfer.FormatOf(path) == "" {
		path += "." + string(f)
	}
	return f, path, nil
}

// CancelTransfer stops the running export or import with id (an unknown id does nothing).
func (a *ExplorerAPI) CancelTransfer(id string) { a.transfers.Cancel(id) }

// ChooseImportFile is the native open dialog for an import; "" when closed.
func (a *ExplorerAPI) ChooseImportFile() (string, error) {
	open := a.env().files.Open
	if open == nil {
		return "", unavailable("no open dialog here")
	}
	path, err := open(a.parent(), "Import a file", []FileFilter{
		{"CSV, JSON Lines, Parquet", "*.csv;*.jsonl;*.ndjson;*.parquet"}, formatFilters[transfer.CSV], formatFilters[transfer.JSONL], formatFilters[transfer.Parquet]})
	if err != nil {
		return "", apiError(err)
	}
	return path, nil
}

// PreviewImport reads the first rows of path as an import into table would, with each
// column's suggested target and the cells the table's types refuse; nothing is written.
func (a *ExplorerAPI) PreviewImport(connectionID, table, path string) (ImportPreviewDTO, error) {
	d, err := a.driver(connectionID)
	if err != nil {
		return ImportPreviewDTO{}, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	p, err := transfer.PreviewFile(ctx, d, table, path, 20)
	if err != nil {
		return ImportPreviewDTO{}, apiError(err)
	}
	out := ImportPreviewDTO{Path: path, Format: string(p.Format), Columns: p.Columns, Targets: p.Targets, Rows: p.Rows,
		Problems: map[string]map[string]string{}, Broken: []RejectedDTO{}, Exists: p.Exists, TableColumns: []string{}}
	for i, pr := range p.Problems {
		out.Problems[fmt.Sprint(i)] = pr
	}
	for _, b := range p.Broken {
		out.Broken = append(out.Broken, RejectedDTO(b))
	}
	if p.Exists {
		info, err := d.DescribeTable(ctx, table)
		if err != nil {
			return ImportPreviewDTO{}, apiError(err)
		}
		out.TableColumns = explore.ImportTargets(info, transfer.VectorColumn)
	}
	if out.Rows == nil {
		out.Rows = [][]*string{}
	}
	return out, nil
}

// ImportFile imports path into table: mapping sends file columns to table columns ("-"
// skips one). A table that does not exist is created from the file's columns after the
// native question. It emits EventTransferProgress with id; CancelTransfer(id) stops it
// between batches, and the result says exactly what was written.
func (a *ExplorerAPI) ImportFile(id, connectionID, table, path string, mapping map[string]string) (ImportResultDTO, error) {
	d, err := a.driver(connectionID)
	if err != nil {
		return ImportResultDTO{}, err
	}
	parent := a.parent()
	create := false
	cctx, cancel := a.callContext()
	_, derr := d.DescribeTable(cctx, table)
	cancel()
	if driver.IsKind(derr, driver.KindNotFound) {
		confirm := a.env().confirm
		if confirm == nil {
			return ImportResultDTO{Status: "not_confirmed"}, nil
		}
		where := a.connectionName(connectionID)
		if where == "" {
			where = "the connection"
		}
		ok, err := confirm.Confirm(parent, "Create "+table,
			fmt.Sprintf("%s does not exist on %s. Create it from the columns of %s and import the file?", table, where, filepath.Base(path)))
		if err != nil {
			return ImportResultDTO{}, apiError(err)
		}
		if !ok {
			return ImportResultDTO{Status: "not_confirmed", Message: "Nothing was created or written."}, nil
		}
		create = true
	}
	ctx, done := a.transfers.Start(parent, id)
	defer done()
	sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path, Map: mapping, Create: create}, a.progressTo(id))
	out := ImportResultDTO{Status: "done", Written: sum.Written, Skipped: sum.Skipped, Failed: sum.Failed, Unknown: sum.Unknown,
		Created: sum.Created, Report: sum.Report, Rejected: []RejectedDTO{}, ElapsedMs: sum.Took.Milliseconds()}
	for _, r := range sum.Rejected {
		out.Rejected = append(out.Rejected, RejectedDTO(r))
	}
	if err != nil {
		if sum.Written+sum.Skipped+sum.Failed+sum.Unknown == 0 && sum.Stopped == "" {
			return ImportResultDTO{}, apiError(err) // nothing read: the file or the table is wrong
		}
		out.Status, out.Message = "stopped", strings.TrimSpace(sum.Stopped)
	}
	return out, nil
}
