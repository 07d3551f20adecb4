package app

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/config"
	"app/backend/driver"
	"app/backend/explore"
	"app/backend/transfer"
	"app/backend/vectormap"
)

// OpenMap reads the table's vectors for the Map tab (EventTransferProgress with id as they
// arrive, of the rows the filters match as the driver counts them; CancelTransfer(id) stops
// the read and the layout), answers the points, then
// computes their layout in the background: a PCA frame first, then UMAP's as it refines
// (EventMapFrame with id). A layout kept from an earlier map of the same rows, whose count is
// unchanged, is sent again at once instead.
func (a *ExplorerAPI) OpenMap(id, connectionID, table string, req dto.MapRequestDTO) (dto.MapPointsDTO, error) {
	if strings.TrimSpace(id) == "" {
		return dto.MapPointsDTO{}, invalidArgument("a map id is required")
	}
	if strings.TrimSpace(table) == "" {
		return dto.MapPointsDTO{}, invalidArgument("a table name is required")
	}
	filters := dto.DriverFilters(req.Filters)
	if err := explore.CheckFilters(filters, nil); err != nil {
		return dto.MapPointsDTO{}, apiError(err)
	}
	d, err := a.driver(connectionID)
	if err != nil {
		return dto.MapPointsDTO{}, err
	}
	sc, ok := d.(driver.Scanner)
	if !ok {
		return dto.MapPointsDTO{}, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver cannot read a table's vectors for a map"))
	}
	parent := a.parent()
	ctx, done := a.transfers.Start(parent, id)
	readMax := req.Max // 0: the default bound, held to the vectors' width (vectormap.BoundFor)
	if req.Max <= 0 {
		req.Max = vectormap.DefaultMaxPoints // one map, one key: 0 asks for the default
	}
	key := explore.MapKey(connectionID, table, req.Vector, filters, req.Max)
	// The rows the filters match: the read's progress is of them, and a kept layout is of the
	// same rows while their count is unchanged. -1 when the count fails (the read says why).
	total := int64(-1)
	if n, err := d.Count(ctx, table, filters); err == nil {
		total = n
	}
	if k, ok := a.maps.Get(key); ok && !req.Fresh && total >= 0 && total == int64(k.Points.Matched) {
		done()
		out := dto.FromMapPoints(id, k.Points)
		out.Kept = true
		go a.emit(EventMapFrame, dto.MapFrameDTO{ID: id, Stage: explore.StageUMAP, XY: k.XY, Done: true})
		return out, nil
	}
	progress, start := a.progressTo(id), time.Now()
	// The count lets the read place each vector as its page arrives rather than keep every
	// page and copy them after (issue 42: a third of the read's CPU); it is only a hint.
	pts, err := vectormap.Read(ctx, sc, vectormap.ReadRequest{Table: table, Vector: req.Vector, Filters: filters, Max: readMax, Rows: int(max(total, 0))}, func(rows int) {
		progress(transfer.Progress{Rows: int64(rows), Total: total, Elapsed: time.Since(start)})
	})
	if err != nil {
		done()
		if errors.Is(err, context.Canceled) || driver.IsKind(err, driver.KindCancelled) {
			return dto.MapPointsDTO{}, apiError(driver.Errorf(driver.KindCancelled, "the map's read was cancelled"))
		}
		return dto.MapPointsDTO{}, apiError(err)
	}
	points := explore.Points(pts)
	// The layout needs only the vectors: the rows' cells (long texts) are not held while it runs.
	vectors := pts.Vectors
	pts = nil
	go func() {
		defer done()
		xy, err := explore.Layout(ctx, vectors, func(f explore.Frame) {
			a.emit(EventMapFrame, dto.MapFrameDTO{ID: id, Stage: f.Stage, Epoch: f.Epoch, Epochs: f.Epochs, XY: f.XY, Done: f.Done})
		})
		switch {
		case errors.Is(err, context.Canceled):
			a.emit(EventMapFrame, dto.MapFrameDTO{ID: id, Done: true, Cancelled: true})
		case err != nil:
			a.emit(EventMapFrame, dto.MapFrameDTO{ID: id, Error: err.Error(), Done: true})
		default:
			a.maps.Put(key, explore.KeptMap{Points: points, XY: xy})
		}
	}()
	return dto.FromMapPoints(id, points), nil
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// SaveMapImage asks where to save (the native save dialog) and writes the picture of the map
// of table name the window drew, sent as a data: URL of a PNG. Status "not_chosen" when the
// dialog was closed.
func (a *ExplorerAPI) SaveMapImage(name, dataURL string) (dto.ExportResultDTO, error) {
	b64, ok := strings.CutPrefix(dataURL, "data:image/png;base64,")
	if !ok {
		return dto.ExportResultDTO{}, invalidArgument("the picture must be a data: URL of a PNG")
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !strings.HasPrefix(string(png), pngSignature) {
		return dto.ExportResultDTO{}, invalidArgument("the picture is not a PNG")
	}
	save := a.env().files.Save
	if save == nil {
		return dto.ExportResultDTO{}, unavailable("no save dialog here")
	}
	start := time.Now()
	path, err := save(a.parent(), "Save the map of "+name, name+" map.png", []nativedialog.FileFilter{{Name: "PNG image (*.png)", Pattern: "*.png"}})
	if err != nil {
		return dto.ExportResultDTO{}, apiError(err)
	}
	if path == "" {
		return dto.ExportResultDTO{Status: dto.ExportNotChosen}, nil
	}
	if !strings.HasSuffix(strings.ToLower(path), ".png") {
		path += ".png"
	}
	// Written to a temporary name and renamed; readable by others (0644), as a saved picture is.
	if err := config.WriteFileAtomicMode(path, png, 0o644); err != nil {
		return dto.ExportResultDTO{}, apiError(driver.Wrap(driver.KindQueryFailed, err, "the picture could not be written to %s", path))
	}
	return dto.ExportResultDTO{Status: dto.ExportDone, Path: path, Bytes: int64(len(png)), ElapsedMs: time.Since(start).Milliseconds()}, nil
}
