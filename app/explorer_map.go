package app

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"time"

	"app/backend/config"
	"app/backend/driver"
	"app/backend/explore"
	"app/backend/transfer"
	"app/backend/vectormap"
)

// MapRequestDTO says what the Map tab maps: the vector ("" for the table's single vector,
// or its only named one), the grid's filters, and at most Max points (0: 100,000). Fresh
// computes the layout again even when one is kept.
type MapRequestDTO struct {
	Vector  string      `json:"vector"`
	Filters []FilterDTO `json:"filters"`
	Max     int         `json:"max"`
	Fresh   bool        `json:"fresh"`
}

// MapDTO is a map's points before their layout arrives (EventMapFrame): each point's uuid,
// and the scalar columns a point can be coloured, sized and named by, cell i of each column
// belonging to point i. Matched rows hold the filters; Skipped of them have no such vector;
// Sampled says the points are a uniform sample of the rest. Kept says the layout was kept from
// an earlier map of the same rows (its frame follows at once).
type MapDTO struct {
	ID      string         `json:"id"`
	UUIDs   []string       `json:"uuids"`
	Columns []MapColumnDTO `json:"columns"`
	Vector  string         `json:"vector"`
	Dims    int            `json:"dims"`
	Matched int            `json:"matched"`
	Skipped int            `json:"skipped"`
	Sampled bool           `json:"sampled"`
	Kept    bool           `json:"kept"`
}

// MapColumnDTO is one scalar column's cells, as display text or null (text cut at 120
// characters: it names a point, it is not read whole on the map).
type MapColumnDTO struct {
	Name   string    `json:"name"`
	Type   string    `json:"type"`
	Values []*string `json:"values"`
}

// MapFrameDTO is one layout of a map: X and Y of point i at XY[2i] and XY[2i+1], as
// little-endian float32s (base64 in JSON: 100,000 points are 800 KB, not 2 MB of digits).
type MapFrameDTO struct {
	ID     string `json:"id"`
	Stage  string `json:"stage"` // "pca" or "umap"
	Epoch  int    `json:"epoch"`
	Epochs int    `json:"epochs"`
	XY     []byte `json:"xy"`
	Done   bool   `json:"done"`
	Error  string `json:"error"`
	// Cancelled ends a layout stopped by CancelTransfer: the last frame sent stays the picture.
	Cancelled bool `json:"cancelled"`
}

// OpenMap reads the table's vectors for the Map tab (EventTransferProgress with id as they
// arrive; CancelTransfer(id) stops the read and the layout), answers the points, then
// computes their layout in the background: a PCA frame first, then UMAP's as it refines
// (EventMapFrame with id). A layout kept from an earlier map of the same rows, whose count is
// unchanged, is sent again at once instead.
func (a *ExplorerAPI) OpenMap(id, connectionID, table string, req MapRequestDTO) (MapDTO, error) {
	if strings.TrimSpace(id) == "" {
		return MapDTO{}, invalidArgument("a map id is required")
	}
	if strings.TrimSpace(table) == "" {
		return MapDTO{}, invalidArgument("a table name is required")
	}
	filters := toDriverFilters(req.Filters)
	if err := explore.CheckFilters(filters, nil); err != nil {
		return MapDTO{}, apiError(err)
	}
	d, err := a.driver(connectionID)
	if err != nil {
		return MapDTO{}, err
	}
	sc, ok := d.(driver.Scanner)
	if !ok {
		return MapDTO{}, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver cannot read a table's vectors for a map"))
	}
	parent := a.parent()
	ctx, done := a.transfers.Start(parent, id)
	key := explore.MapKey(connectionID, table, req.Vector, filters, req.Max)
	if k, ok := a.maps.Get(key); ok && !req.Fresh {
		if n, err := d.Count(ctx, table, filters); err == nil && n == int64(k.Points.Matched) {
			done()
			out := toMapDTO(id, k.Points)
			out.Kept = true
			go a.emit(EventMapFrame, MapFrameDTO{ID: id, Stage: "umap", XY: k.XY, Done: true})
			return out, nil
		}
	}
	progress, start := a.progressTo(id), time.Now()
	pts, err := vectormap.Read(ctx, sc, vectormap.ReadRequest{Table: table, Vector: req.Vector, Filters: filters, Max: req.Max}, func(rows int) {
		progress(transfer.Progress{Rows: int64(rows), Total: -1, Elapsed: time.Since(start)})
	})
	if err != nil {
		done()
		if errors.Is(err, context.Canceled) || driver.IsKind(err, driver.KindCancelled) {
			return MapDTO{}, apiError(driver.Errorf(driver.KindCancelled, "the map's read was cancelled"))
		}
		return MapDTO{}, apiError(err)
	}
	points := explore.Points(pts)
	// The layout needs only the vectors: the rows' cells (long texts) are not held while it runs.
	vectors := pts.Vectors
	pts = nil
	go func() {
		defer done()
		xy, err := explore.Layout(ctx, vectors, func(f explore.Frame) {
			a.emit(EventMapFrame, MapFrameDTO{ID: id, Stage: f.Stage, Epoch: f.Epoch, Epochs: f.Epochs, XY: f.XY, Done: f.Done})
		})
		switch {
		case errors.Is(err, context.Canceled):
			a.emit(EventMapFrame, MapFrameDTO{ID: id, Done: true, Cancelled: true})
		case err != nil:
			a.emit(EventMapFrame, MapFrameDTO{ID: id, Error: err.Error(), Done: true})
		default:
			a.maps.Put(key, explore.KeptMap{Points: points, XY: xy})
		}
	}()
	return toMapDTO(id, points), nil
}

func toMapDTO(id string, p explore.MapPoints) MapDTO {
	out := MapDTO{ID: id, UUIDs: p.UUIDs, Columns: make([]MapColumnDTO, len(p.Columns)), Vector: p.Vector, Dims: p.Dims,
		Matched: p.Matched, Skipped: p.Skipped, Sampled: p.Sampled}
	for i, c := range p.Columns {
		out.Columns[i] = MapColumnDTO(c)
	}
	return out
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// SaveMapImage asks where to save (the native save dialog) and writes the picture of a map the
// window drew, sent as a data: URL of a PNG. Status "not_chosen" when the dialog was closed.
func (a *ExplorerAPI) SaveMapImage(name, dataURL string) (ExportResultDTO, error) {
	b64, ok := strings.CutPrefix(dataURL, "data:image/png;base64,")
	if !ok {
		return ExportResultDTO{}, invalidArgument("the picture must be a data: URL of a PNG")
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !strings.HasPrefix(string(png), pngSignature) {
		return ExportResultDTO{}, invalidArgument("the picture is not a PNG")
	}
	save := a.env().files.Save
	if save == nil {
		return ExportResultDTO{}, unavailable("no save dialog here")
	}
	start := time.Now()
	path, err := save(a.parent(), "Save the map of "+name, name+".png", []FileFilter{{"PNG image (*.png)", "*.png"}})
	if err != nil {
		return ExportResultDTO{}, apiError(err)
	}
	if path == "" {
		return ExportResultDTO{Status: "not_chosen"}, nil
	}
	if !strings.HasSuffix(strings.ToLower(path), ".png") {
		path += ".png"
	}
	// Written to a temporary name and renamed; readable by others (0644), as a saved picture is.
	if err := config.WriteFileAtomicMode(path, png, 0o644); err != nil {
		return ExportResultDTO{}, apiError(driver.Wrap(driver.KindQueryFailed, err, "the picture could not be written to %s", path))
	}
	return ExportResultDTO{Status: "done", Path: path, Bytes: int64(len(png)), ElapsedMs: time.Since(start).Milliseconds()}, nil
}
