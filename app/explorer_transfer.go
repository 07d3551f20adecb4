package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/driver"
	"app/backend/explore"
	"app/backend/transfer"
)

var formatFilters = map[transfer.Format]nativedialog.FileFilter{
	transfer.CSV:     {Name: "CSV (*.csv)", Pattern: "*.csv"},
	transfer.JSONL:   {Name: "JSON Lines (*.jsonl)", Pattern: "*.jsonl"},
	transfer.Parquet: {Name: "Parquet (*.parquet)", Pattern: "*.parquet"},
}

// progressTo emits an export's or import's progress to the window, at most ten times a second.
func (a *ExplorerAPI) progressTo(id string) func(transfer.Progress) {
	var last time.Time
	return func(p transfer.Progress) {
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		a.emit(EventTransferProgress, dto.FromTransferProgress(id, p))
	}
}

// ExportTable asks where to save (the native save dialog), then writes every row of table
// (the filters and sort when given) in the format, emitting EventTransferProgress with id
// until it ends. CancelTransfer(id) stops it, and no file is left.
func (a *ExplorerAPI) ExportTable(id, connectionID, table string, req dto.ExportRequestDTO) (dto.ExportResultDTO, error) {
	filters, sorts := dto.DriverFilters(req.Filters), dto.DriverSorts(req.Sort)
	if err := explore.CheckFilters(filters, sorts); err != nil {
		return dto.ExportResultDTO{}, apiError(err)
	}
	d, err := a.driver(connectionID)
	if err != nil {
		return dto.ExportResultDTO{}, err
	}
	parent := a.parent()
	f, path, err := a.saveAs(parent, table, req.Format)
	if err != nil {
		return dto.ExportResultDTO{}, err
	}
	if path == "" {
		return dto.ExportResultDTO{Status: dto.ExportNotChosen}, nil
	}
	ctx, done := a.transfers.Start(parent, id)
	defer done()
	sum, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: table, Filters: filters, Sort: sorts,
		Vectors: req.Vectors, Format: f, Path: path}, a.progressTo(id))
	if errors.Is(err, context.Canceled) || driver.IsKind(err, driver.KindCancelled) {
		return dto.ExportResultDTO{Status: dto.ExportCancelled}, nil
	}
	if err != nil {
		return dto.ExportResultDTO{}, apiError(err)
	}
	return dto.FromExport(sum), nil
}

// ExportGrid asks where to save, then writes a grid the window holds (an editor result, Find
// similar's matches) named name in the format: the same layout and types as a table's export.
func (a *ExplorerAPI) ExportGrid(name, format string, grid dto.GridDTO) (dto.ExportResultDTO, error) {
	parent := a.parent()
	f, path, err := a.saveAs(parent, name, transfer.Format(format))
	if err != nil {
		return dto.ExportResultDTO{}, err
	}
	if path == "" {
		return dto.ExportResultDTO{Status: dto.ExportNotChosen}, nil
	}
	sum, err := transfer.ExportGrid(parent, grid.Grid(), f, path)
	if err != nil {
		return dto.ExportResultDTO{}, apiError(err)
	}
	return dto.FromExport(sum), nil
}

// saveAs checks the format and asks where to save name's export (the native save dialog); ""
// when the dialog was closed. A path chosen without the format's extension gets it.
func (a *ExplorerAPI) saveAs(ctx context.Context, name string, f transfer.Format) (transfer.Format, string, error) {
	filter, ok := formatFilters[f]
	if !ok {
		return f, "", invalidArgument("format %q: use csv, jsonl or parquet", f)
	}
	save := a.env().files.Save
	if save == nil {
		return f, "", unavailable("no save dialog here")
	}
	path, err := save(ctx, "Export "+name, name+"."+string(f), []nativedialog.FileFilter{filter})
	if err != nil {
		return f, "", apiError(err)
	}
	if path != "" && transfer.FormatOf(path) == "" {
		path += "." + string(f)
	}
	return f, path, nil
}

// CancelTransfer stops the running export, import or map with id; one that has not started
// yet (the call that starts it still on its way) starts cancelled.
func (a *ExplorerAPI) CancelTransfer(id string) { a.transfers.CancelAhead(id) }

// ChooseImportFile is the native open dialog for an import; "" when closed.
func (a *ExplorerAPI) ChooseImportFile() (string, error) {
	open := a.env().files.Open
	if open == nil {
		return "", unavailable("no open dialog here")
	}
	path, err := open(a.parent(), "Import a file", []nativedialog.FileFilter{
		{Name: "CSV, JSON Lines, Parquet", Pattern: "*.csv;*.jsonl;*.ndjson;*.parquet"}, formatFilters[transfer.CSV], formatFilters[transfer.JSONL], formatFilters[transfer.Parquet]})
	if err != nil {
		return "", apiError(err)
	}
	return path, nil
}

// PreviewImport reads the first rows of path as an import into table would, with each
// column's suggested target and the cells the table's types refuse; nothing is written.
func (a *ExplorerAPI) PreviewImport(connectionID, table, path string) (dto.ImportPreviewDTO, error) {
	d, err := a.driver(connectionID)
	if err != nil {
		return dto.ImportPreviewDTO{}, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	p, err := transfer.PreviewFile(ctx, d, table, path, 20)
	if err != nil {
		return dto.ImportPreviewDTO{}, apiError(err)
	}
	var targets []string
	if p.Exists {
		info, err := d.DescribeTable(ctx, table)
		if err != nil {
			return dto.ImportPreviewDTO{}, apiError(err)
		}
		targets = explore.ImportTargets(info, transfer.VectorColumn)
	}
	return dto.FromPreview(path, p, targets), nil
}

// ImportFile imports path into table: mapping sends file columns to table columns ("-"
// skips one). A table that does not exist is created from the file's columns after the
// native question. It emits EventTransferProgress with id; CancelTransfer(id) stops it
// between batches, and the result says exactly what was written.
func (a *ExplorerAPI) ImportFile(id, connectionID, table, path string, mapping map[string]string) (dto.ImportResultDTO, error) {
	d, err := a.driver(connectionID)
	if err != nil {
		return dto.ImportResultDTO{}, err
	}
	parent := a.parent()
	create := false
	cctx, cancel := a.callContext()
	_, derr := d.DescribeTable(cctx, table)
	cancel()
	if driver.IsKind(derr, driver.KindNotFound) {
		confirm := a.env().confirm
		if confirm == nil {
			return dto.ImportResultDTO{Status: dto.ImportNotConfirmed}, nil
		}
		where := a.connectionName(connectionID)
		if where == "" {
			where = "the connection"
		}
		ok, err := confirm.Confirm(parent, "Create "+table,
			fmt.Sprintf("%s does not exist on %s. Create it from the columns of %s and import the file?", table, where, filepath.Base(path)))
		if err != nil {
			return dto.ImportResultDTO{}, apiError(err)
		}
		if !ok {
			return dto.ImportResultDTO{Status: dto.ImportNotConfirmed, Message: "Nothing was created or written."}, nil
		}
		create = true
	}
	ctx, done := a.transfers.Start(parent, id)
	defer done()
	sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: path, Map: mapping, Create: create}, a.progressTo(id))
	out := dto.FromImport(sum)
	if err != nil {
		if sum.Written+sum.Skipped+sum.Failed+sum.Unknown == 0 && sum.Stopped == "" {
			return dto.ImportResultDTO{}, apiError(err) // nothing read: the file or the table is wrong
		}
		out.Status, out.Message = dto.ImportStopped, strings.TrimSpace(sum.Stopped)
	}
	return out, nil
}
