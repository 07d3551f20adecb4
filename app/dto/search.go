package dto

import (
	"encoding/json"
	"errors"
	"strings"

	"app/backend/driver"
)

// The search panel's modes (issue 23, item 3): the three of driver.SearchRequest's Query
// and the two vector searches.
const (
	SearchNearVector = "nearVector"
	SearchNearObject = "nearObject"
)

// SearchRequestDTO is one search of the search panel. Mode picks what the other fields mean:
// bm25, hybrid and nearText search Query; nearVector searches Vector (a JSON array of numbers,
// as pasted); nearObject the vector of the row ObjectID. Filters are the grid's, narrowing
// the matches. Limit 0 means 25.
type SearchRequestDTO struct {
	Mode             string      `json:"mode"`
	Query            string      `json:"query"`
	Vector           string      `json:"vector"`
	ObjectID         string      `json:"objectId"`
	Alpha            *float64    `json:"alpha"`
	Fusion           string      `json:"fusion"`
	SearchProperties []string    `json:"searchProperties"`
	TargetVector     string      `json:"targetVector"`
	Filters          []FilterDTO `json:"filters"`
	Limit            int         `json:"limit"`
	Explain          bool        `json:"explain"`
}

// SearchResultDTO is a search's matches, best first, with the measure that ranks them (and
// the server's explanation of each score when asked), the search in words, or Refused when
// one of the filters cannot run.
type SearchResultDTO struct {
	Grid     GridDTO           `json:"grid"`
	Describe string            `json:"describe"`
	Measure  string            `json:"measure"`
	Refused  *FilterRefusalDTO `json:"refused"`
}

// SimilarDTO is FindSimilar's answer: the matches, best first, as a grid whose columns are
// uuid, the scalar properties and distance; and which vector was searched.
type SimilarDTO struct {
	Grid         GridDTO `json:"grid"`
	TargetVector string  `json:"targetVector"`
	Dimensions   int     `json:"dimensions"`
}

// Request is the panel's search as the driver's; the error says what the panel must fix.
func (in SearchRequestDTO) Request() (driver.SearchRequest, error) {
	r := driver.SearchRequest{TargetVector: in.TargetVector, Filters: DriverFilters(in.Filters), Explain: in.Explain}
	switch in.Mode {
	case driver.SearchBM25, driver.SearchHybrid, driver.SearchNearText:
		q := in.Query
		r.Query, r.Mode = &q, in.Mode
		r.SearchProperties = in.SearchProperties
		if in.Mode == driver.SearchHybrid {
			r.Alpha, r.Fusion = in.Alpha, in.Fusion
		}
	case SearchNearVector:
		var v []float64
		if err := json.Unmarshal([]byte(strings.TrimSpace(in.Vector)), &v); err != nil || len(v) == 0 {
			return r, errors.New("the vector must be a JSON array of numbers, e.g. [0.12, -0.5, 0.33]")
		}
		r.NearVector = v
	case SearchNearObject:
		r.SimilarTo = strings.TrimSpace(in.ObjectID)
		if r.SimilarTo == "" {
			return r, errors.New("give the uuid of the row to search near")
		}
	default:
		return r, errors.New("mode must be bm25, hybrid, nearText, nearVector or nearObject")
	}
	return r, nil
}
