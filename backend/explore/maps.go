package explore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"app/backend/driver"
	"app/backend/vectormap"
)

// MapPoints are a map's points before their layout: each point's key (Keys[i] the values of
// KeyColumns, in order), and the scalar columns a point can be coloured, sized and named by,
// cell i of each column belonging to point i (text cut at 120 characters: it names a point,
// it is not read whole on a map).
type MapPoints struct {
	KeyColumns []string
	Keys       [][]any
	Columns    []MapColumn
	Vector     string
	Dims       int
	Matched    int
	Skipped    int
	Sampled    bool
}

// MapColumn is one scalar column's cells, as display text or nil.
type MapColumn struct {
	Name   string
	Type   string
	Kind   driver.ColumnKind
	Values []*string
}

// Points is the keys and scalar columns of what vectormap.Read read: a point's key is its
// cells of the columns marked PrimaryKey (a key is by column, so their order is the page's).
func Points(p *vectormap.Points) MapPoints {
	var primaryKey []string
	for _, c := range p.Columns {
		if c.PrimaryKey {
			primaryKey = append(primaryKey, c.Name)
		}
	}
	out := MapPoints{KeyColumns: primaryKey, Keys: make([][]any, len(p.Rows)), Columns: []MapColumn{}, Vector: p.Vector,
		Dims: p.Vectors.Dim, Matched: p.Matched, Skipped: p.Skipped, Sampled: p.Sampled}
	if out.KeyColumns == nil {
		out.KeyColumns = []string{}
	}
	at := make([]int, len(primaryKey))
	for i, name := range primaryKey {
		at[i] = slices.IndexFunc(p.Columns, func(c driver.Column) bool { return c.Name == name })
	}
	for i, r := range p.Rows {
		k := make([]any, len(at))
		for j, col := range at {
			if col >= 0 && col < len(r) {
				k[j] = r[col]
			}
		}
		out.Keys[i] = k
	}
	for j, c := range p.Columns {
		if slices.Contains(primaryKey, c.Name) || !mapScalar(c) {
			continue
		}
		col := MapColumn{Name: c.Name, Type: c.Type, Kind: c.Kind, Values: make([]*string, len(p.Rows))}
		for i, r := range p.Rows {
			if j < len(r) {
				if t := CellText(r[j]); t != nil {
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

// mapScalar tells a column whose cells colour or label a map's points: one value each.
func mapScalar(c driver.Column) bool {
	switch c.Kind {
	case driver.ColumnText, driver.ColumnInteger, driver.ColumnNumber, driver.ColumnBoolean, driver.ColumnDateTime,
		driver.ColumnDate, driver.ColumnUUID:
		return true
	}
	return false
}

// Stage is which layout a map's frame holds: PCA's, at once, then UMAP's as it refines.
type Stage string

// The stages of a map's layout.
const (
	StagePCA  Stage = "pca"
	StageUMAP Stage = "umap"
)

// Frame is one layout of a map: X and Y of point i at XY[2i] and XY[2i+1], as little-endian
// float32s.
type Frame struct {
	Stage  Stage
	Epoch  int
	Epochs int
	XY     []byte
	Done   bool
}

// Layout lays the vectors out in two dimensions: it sends the PCA frame, then UMAP's frames as
// it refines, and returns the last one's XY.
func Layout(ctx context.Context, m vectormap.Matrix, frame func(Frame)) ([]byte, error) {
	pca, err := vectormap.PCA(ctx, m, 2)
	if err != nil {
		return nil, err
	}
	frame(Frame{Stage: StagePCA, XY: PackXY(pca.Data)})
	var last []byte
	_, err = vectormap.UMAP(ctx, m, pca, vectormap.Options{Seed: 1, Frame: func(xy []float32, epoch, epochs int) {
		last = PackXY(xy)
		frame(Frame{Stage: StageUMAP, Epoch: epoch, Epochs: epochs, XY: last, Done: epoch == epochs})
	}})
	return last, err
}

// PackXY packs coordinates as little-endian float32s.
func PackXY(xy []float32) []byte {
	b := make([]byte, 4*len(xy))
	for i, f := range xy {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// MapKey names a map of a connection's table: the vector, the filters and the point bound.
func MapKey(conn, table, vector string, filters []driver.Filter, maxPoints int) string {
	fkey, _ := json.Marshal(filters)
	return strings.Join([]string{conn, table, vector, string(fkey), strconv.Itoa(maxPoints)}, "\x00")
}

// KeptMap is a finished map: its points and final layout.
type KeptMap struct {
	Points MapPoints
	XY     []byte
}

// mapsKept is how many finished maps MapCache keeps.
const mapsKept = 4

// MapCache keeps the last few maps' points and finished layouts by MapKey, so reopening one
// whose rows did not change shows it at once (issue 22: recomputed only when asked or when
// the row count changed). The zero value is empty.
type MapCache struct {
	mu   sync.Mutex
	keys []string
	maps []KeptMap
}

// Get is the kept map of key.
func (c *MapCache) Get(key string) (KeptMap, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range c.keys {
		if k == key {
			return c.maps[i], true
		}
	}
	return KeptMap{}, false
}

// Put keeps a map first, dropping the oldest past the bound.
func (c *MapCache) Put(key string, m KeptMap) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys, maps := []string{key}, []KeptMap{m}
	for i, k := range c.keys {
		if k != key && len(keys) < mapsKept {
			keys, maps = append(keys, k), append(maps, c.maps[i])
		}
	}
	c.keys, c.maps = keys, maps
}

// Running are the running exports, imports, maps or statements of a window, by the id it gave
// them (several runs may share one, such as a connection's statements), so that they can be
// cancelled. The zero value is empty.
type Running struct {
	mu   sync.Mutex
	next int
	runs map[string]map[int]context.CancelFunc
	// ahead: ids CancelAhead stopped before their run started, with when.
	ahead map[string]time.Time
}

// aheadFor is how long a cancel that came before its run still stops it: the window cancels
// a map the moment it closes its tab or starts another, which can be before the call that
// starts the run has reached the backend.
const aheadFor = 10 * time.Second

// Start registers a cancellable run under parent; done unregisters and ends it.
func (r *Running) Start(parent context.Context, id string) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	r.mu.Lock()
	if r.runs == nil {
		r.runs = map[string]map[int]context.CancelFunc{}
	}
	if r.runs[id] == nil {
		r.runs[id] = map[int]context.CancelFunc{}
	}
	r.next++
	n := r.next
	r.runs[id][n] = cancel
	if at, ok := r.ahead[id]; ok {
		delete(r.ahead, id)
		if time.Since(at) < aheadFor {
			cancel()
		}
	}
	r.mu.Unlock()
	return ctx, func() {
		r.mu.Lock()
		delete(r.runs[id], n)
		if len(r.runs[id]) == 0 {
			delete(r.runs, id)
		}
		r.mu.Unlock()
		cancel()
	}
}

// Cancel stops every run with id and reports whether one was running (an unknown id does
// nothing).
func (r *Running) Cancel(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.runs[id] {
		c()
	}
	return len(r.runs[id]) > 0
}

// CancelAhead is Cancel for ids given to one run each (exports, imports, maps): when no run
// has the id yet, one that starts with it within aheadFor starts cancelled.
func (r *Running) CancelAhead(id string) {
	if r.Cancel(id) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	for k, at := range r.ahead {
		if now.Sub(at) >= aheadFor {
			delete(r.ahead, k)
		}
	}
	if r.ahead == nil {
		r.ahead = map[string]time.Time{}
	}
	r.ahead[id] = now
}

// Has tells whether a run with id is registered.
func (r *Running) Has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs[id]) > 0
}
