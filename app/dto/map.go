package dto

import (
	"app/backend/driver"
	"app/backend/explore"
)

// MapRequestDTO says what the Map tab maps: the vector ("" for the table's single vector,
// or its only named one), the grid's filters, and at most Max points (0: 1,000,000, or fewer
// for vectors of more than 160 numbers, vectormap.BoundFor, never below 100,000). Fresh
// computes the layout again even when one is kept.
type MapRequestDTO struct {
	Vector  string      `json:"vector"`
	Filters []FilterDTO `json:"filters"`
	Max     int         `json:"max"`
	Fresh   bool        `json:"fresh"`
}

// MapPointsDTO is a map's points before their layout arrives (EventMapFrame): each point's key
// (Keys[i] the cells of KeyColumns, in order), and the scalar columns a point can be coloured, sized and named by, cell i of each column
// belonging to point i. Matched rows hold the filters; Skipped of them have no such vector;
// Sampled says the points are a uniform sample of the rest. Kept says the layout was kept from
// an earlier map of the same rows (its frame follows at once).
type MapPointsDTO struct {
	ID         string         `json:"id"`
	KeyColumns []string       `json:"keyColumns"`
	Keys       [][]any        `json:"keys"`
	Columns    []MapColumnDTO `json:"columns"`
	Vector     string         `json:"vector"`
	Dims       int            `json:"dims"`
	Matched    int            `json:"matched"`
	Skipped    int            `json:"skipped"`
	Sampled    bool           `json:"sampled"`
	Kept       bool           `json:"kept"`
}

// MapColumnDTO is one scalar column's cells, as display text or null (text cut at 120
// characters: it names a point, it is not read whole on the map).
type MapColumnDTO struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Kind is the portable kind (driver.ColumnKind) the map branches on; Type is shown.
	Kind   driver.ColumnKind `json:"kind"`
	Values []*string         `json:"values"`
}

// MapFrameDTO is one layout of a map: X and Y of point i at XY[2i] and XY[2i+1], as
// little-endian float32s (base64 in JSON: 100,000 points are 1 MB, not 2 MB of digits; a million, 10.7 MB).
type MapFrameDTO struct {
	ID     string        `json:"id"`
	Stage  explore.Stage `json:"stage"`
	Epoch  int           `json:"epoch"`
	Epochs int           `json:"epochs"`
	XY     []byte        `json:"xy"`
	Done   bool          `json:"done"`
	Error  string        `json:"error"`
	// Cancelled ends a layout stopped by CancelTransfer: the last frame sent stays the picture.
	Cancelled bool `json:"cancelled"`
}

// FromMapPoints are map id's points before their layout arrives.
func FromMapPoints(id string, p explore.MapPoints) MapPointsDTO {
	out := MapPointsDTO{ID: id, KeyColumns: p.KeyColumns, Keys: p.Keys, Columns: make([]MapColumnDTO, len(p.Columns)), Vector: p.Vector, Dims: p.Dims,
		Matched: p.Matched, Skipped: p.Skipped, Sampled: p.Sampled}
	for i, c := range p.Columns {
		out.Columns[i] = MapColumnDTO(c)
	}
	return out
}
