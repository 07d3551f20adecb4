package dto

import (
	"encoding/json"
	"errors"
	"strings"

	"app/backend/driver"
)

// SearchBy is what the search panel searches by: words in one of the table's modes, a pasted
// vector, or a row's vector.
type SearchBy string

// What a search searches by.
const (
	SearchByWords  SearchBy = "words"
	SearchByVector SearchBy = "vector"
	SearchByRow    SearchBy = "row"
)

// SearchRequestDTO is one search of the search panel. By picks what the other fields mean:
// words search Query in Mode (one of the table's TableInfo.Searches, "" its first) with its
// Params and SearchColumns; vector searches Vector (a JSON array of numbers, as pasted); row
// the vector of the row whose key is Row. Filters are the grid's, narrowing the matches.
// Limit 0 means 25.
type SearchRequestDTO struct {
	By     SearchBy `json:"by"`
	Mode   string   `json:"mode"`
	Query  string   `json:"query"`
	Vector string   `json:"vector"`
	// Row is the key of the row to search near, by column.
	Row map[string]any `json:"row"`
	// VectorRow, with words, is the key of the row whose vector fills the mode's vector
	// parameter (instead of a pasted one).
	VectorRow     map[string]any    `json:"vectorRow"`
	Params        map[string]string `json:"params"`
	SearchColumns []string          `json:"searchColumns"`
	TargetVector  string            `json:"targetVector"`
	Filters       []FilterDTO       `json:"filters"`
	Limit         int               `json:"limit"`
	Explain       bool              `json:"explain"`
	// Profile asks for the database's own profile of the search, where the table Profiles.
	Profile bool `json:"profile"`
}

// SearchResultDTO is a search's matches, best first, with the measure that ranks them (and
// the server's explanation of each score when asked), the search in words, or Refused when
// one of the filters cannot run.
type SearchResultDTO struct {
	Grid     GridDTO           `json:"grid"`
	Describe string            `json:"describe"`
	Measure  string            `json:"measure"`
	Refused  *FilterRefusalDTO `json:"refused"`
	// Profile is the database's profile of the search, when asked for and given.
	Profile *driver.QueryProfile `json:"profile"`
}

// SimilarResultDTO is FindSimilar's answer: the matches, best first, as a grid whose columns are
// uuid, the scalar properties and distance; and which vector was searched.
type SimilarResultDTO struct {
	Grid         GridDTO `json:"grid"`
	TargetVector string  `json:"targetVector"`
	Dimensions   int     `json:"dimensions"`
}

// Request is the panel's search as the driver's; the error says what the panel must fix.
func (in SearchRequestDTO) Request() (driver.SearchRequest, error) {
	r := driver.SearchRequest{TargetVector: in.TargetVector, Filters: DriverFilters(in.Filters), Profile: in.Profile}
	switch in.By {
	case SearchByWords:
		q := in.Query
		r.Query, r.Mode, r.SearchColumns, r.Explain = &q, in.Mode, in.SearchColumns, in.Explain
		for k, v := range in.Params {
			if v == "" {
				continue // the panel's "database default" of a choice
			}
			if r.Params == nil {
				r.Params = map[string]string{}
			}
			r.Params[k] = v
		}
	case SearchByVector:
		var v []float64
		if err := json.Unmarshal([]byte(strings.TrimSpace(in.Vector)), &v); err != nil || len(v) == 0 {
			return r, errors.New("the vector must be a JSON array of numbers, e.g. [0.12, -0.5, 0.33]")
		}
		r.Vector = v
	case SearchByRow:
		if len(in.Row) == 0 {
			return r, errors.New("give the key of the row to search near")
		}
		r.SimilarTo = driver.Key(in.Row)
	default:
		return r, errors.New("search by words, vector or row")
	}
	return r, nil
}
