package app

import (
	"encoding/json"
	"strings"

	"app/backend/driver"
	"app/backend/explore"
)

// The search panel's modes (issue 23, item 3): the three of driver.SearchRequest's Query
// and the two vector searches.
const (
	searchNearVector = "nearVector"
	searchNearObject = "nearObject"
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

// Search runs the search panel's search on table with the driver's Search, which checks it
// against the table's schema and builds it as GraphQL or over gRPC as the server allows.
func (a *ExplorerAPI) Search(id, table string, req SearchRequestDTO) (SearchResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return SearchResultDTO{}, err
	}
	if strings.TrimSpace(table) == "" {
		return SearchResultDTO{}, invalidArgument("a table name is required")
	}
	limit := req.Limit
	switch {
	case limit < 0 || limit > similarMax:
		return SearchResultDTO{}, invalidArgument("limit must be between 1 and %d", similarMax)
	case limit == 0:
		limit = similarDefault
	}
	if err := explore.CheckFilters(toDriverFilters(req.Filters), nil); err != nil {
		return SearchResultDTO{}, apiError(err)
	}
	r, err := searchRequest(req)
	if err != nil {
		return SearchResultDTO{}, err
	}
	if err := r.Check(); err != nil {
		return SearchResultDTO{}, apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	g, err := d.Search(ctx, table, r, limit)
	if rf := refusalOf(err, r.Filters); rf != nil {
		return SearchResultDTO{Grid: GridDTO{Columns: []ColumnDTO{}, Rows: [][]*string{}}, Describe: r.Describe(), Measure: r.Measure(), Refused: rf}, nil
	}
	if err != nil {
		return SearchResultDTO{}, apiError(err)
	}
	out := toGridDTO(g)
	out.HasMore = false // ranked matches are not paged
	return SearchResultDTO{Grid: out, Describe: r.Describe(), Measure: r.Measure()}, nil
}

// searchRequest turns the panel's request into the driver's.
func searchRequest(in SearchRequestDTO) (driver.SearchRequest, error) {
	r := driver.SearchRequest{TargetVector: in.TargetVector, Filters: toDriverFilters(in.Filters), Explain: in.Explain}
	switch in.Mode {
	case driver.SearchBM25, driver.SearchHybrid, driver.SearchNearText:
		q := in.Query
		r.Query, r.Mode = &q, in.Mode
		r.SearchProperties = in.SearchProperties
		if in.Mode == driver.SearchHybrid {
			r.Alpha, r.Fusion = in.Alpha, in.Fusion
		}
	case searchNearVector:
		var v []float64
		if err := json.Unmarshal([]byte(strings.TrimSpace(in.Vector)), &v); err != nil || len(v) == 0 {
			return r, invalidArgument("the vector must be a JSON array of numbers, e.g. [0.12, -0.5, 0.33]")
		}
		r.NearVector = v
	case searchNearObject:
		r.SimilarTo = strings.TrimSpace(in.ObjectID)
		if r.SimilarTo == "" {
			return r, invalidArgument("give the uuid of the row to search near")
		}
	default:
		return r, invalidArgument("mode must be bm25, hybrid, nearText, nearVector or nearObject")
	}
	return r, nil
}
