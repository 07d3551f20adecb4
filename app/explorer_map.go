package app

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"app/backend/config"
	"app/backend/driver"
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

// mapCache keeps the last few maps' points and finished layouts, so reopening one whose rows
// did not change shows it at once (issue 22: recomputed only when asked or when the row count
// changed).
type mapCache struct {
	mu   sync.Mutex
	kept []keptMap
}

type keptMap struct {
	key    string
	points MapDTO
	xy     []byte
}

const mapsKept = 4

func (c *mapCache) get(key string) (keptMap, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.kept {
		if k.key == key {
			return k, true
		}
	}
	return keptMap{}, false
}

func (c *mapCache) put(k keptMap) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []keptMap{k}
	for _, o := range c.kept {
		if o.key != k.key && len(out) < mapsKept {
			out = append(out, o)
		}
	}
	c.kept = out
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
	if err := checkFilters(req.Filters, nil); err != nil {
		return MapDTO{}, err
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
	ctx, done := a.transfers.start(parent, id)
	filters := toDriverFilters(req.Filters)
	fkey, _ := json.Marshal(filters)
	key := strings.Join([]string{connectionID, table, req.Vector, string(fkey), strconv.Itoa(req.Max)}, "\x00")
	if k, ok := a.maps.get(key); ok && !req.Fresh {
		if n, err := d.Count(ctx, table, filters); err == nil && n == int64(k.points.Matched) {
			done()
			out := k.points
			out.ID, out.Kept = id, true
			go a.emitFrame(MapFrameDTO{ID: id, Stage: "umap", XY: k.xy, Done: true})
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
	out := mapPoints(id, pts)
	// The layout needs only the vectors: the rows' cells (long texts) are not held while it runs.
	vectors := pts.Vectors
	pts = nil
	go func() {
		defer done()
		xy, err := a.layout(ctx, id, vectors)
		switch {
		case errors.Is(err, context.Canceled):
			a.emitFrame(MapFrameDTO{ID: id, Done: true, Cancelled: true})
			return
		case err != nil:
			a.emitFrame(MapFrameDTO{ID: id, Error: err.Error(), Done: true})
			return
		}
		kept := out
		kept.ID = ""
		a.maps.put(keptMap{key: key, points: kept, xy: xy})
	}()
	return out, nil
}

// layout emits the PCA frame, then UMAP's frames, and returns the last one.
func (a *ExplorerAPI) layout(ctx context.Context, id string, m vectormap.Matrix) ([]byte, error) {
	pca, err := vectormap.PCA(ctx, m, 2)
	if err != nil {
		return nil, err
	}
	a.emitFrame(MapFrameDTO{ID: id, Stage: "pca", XY: packXY(pca.Data)})
	var last []byte
	_, err = vectormap.UMAP(ctx, m, pca, vectormap.Options{Seed: 1, Frame: func(xy []float32, epoch, epochs int) {
		last = packXY(xy)
		a.emitFrame(MapFrameDTO{ID: id, Stage: "umap", Epoch: epoch, Epochs: epochs, XY: last, Done: epoch == epochs})
	}})
	return last, err
}

func (a *ExplorerAPI) emitFrame(f MapFrameDTO) {
	a.emit(EventMapFrame, f)
}

func packXY(xy []float32) []byte {
	b := make([]byte, 4*len(xy))
	for i, f := range xy {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// mapPoints is the points' uuids and scalar columns.
func mapPoints(id string, p *vectormap.Points) MapDTO {
	out := MapDTO{ID: id, UUIDs: make([]string, len(p.Rows)), Columns: []MapColumnDTO{}, Vector: p.Vector, Dims: p.Vectors.Dim,
		Matched: p.Matched, Skipped: p.Skipped, Sampled: p.Sampled}
	for i, r := range p.Rows {
		if s, ok := r[0].(string); ok {
			out.UUIDs[i] = s
		}
	}
	for j, c := range p.Columns {
		if j == 0 || !mapScalar(c.Type) {
			continue
		}
		col := MapColumnDTO{Name: c.Name, Type: c.Type, Values: make([]*string, len(p.Rows))}
		for i, r := range p.Rows {
			if j < len(r) {
				if t := cellText(r[j]); t != nil {
					s := *t
					if utf8.RuneCountInString(s) > 120 {
						s = string([]rune(s)[:120]) + "…"
					}
					col.Values[i] = &s
				}
			}
		}
		out.Columns = append(out.Columns, col)
	}
	return out
}

func mapScalar(t string) bool {
	switch t {
	case "text", "string", "int", "number", "boolean", "date", "uuid":
		return true
	}
	return false
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
