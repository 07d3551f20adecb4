package app

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"app/backend/driver"
)

// Bounds of Find similar: how many matches by default and at most.
const (
	similarDefault = 25
	similarMax     = 1000
)

// SimilarDTO is FindSimilar's answer: the matches, best first, as a grid whose columns are
// uuid, the scalar properties and distance; and which vector was searched.
type SimilarDTO struct {
	Grid         GridDTO `json:"grid"`
	TargetVector string  `json:"targetVector"`
	Dimensions   int     `json:"dimensions"`
}

// FindSimilar finds the rows nearest to one row: a nearVector search with that row's vector
// (read back from the database, so the search uses the stored vector, not the grid's text),
// built by backend/search as the MCP vector_search tool builds it. A table with named
// vectors searches targetVector ("" picks the only one, or is refused naming the choices).
// limit 0 means 25; the row itself comes first, at distance 0.
func (a *ExplorerAPI) FindSimilar(id, table, rowUUID, targetVector string, limit int) (SimilarDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return SimilarDTO{}, err
	}
	switch {
	case strings.TrimSpace(table) == "":
		return SimilarDTO{}, invalidArgument("a table name is required")
	case strings.TrimSpace(rowUUID) == "":
		return SimilarDTO{}, invalidArgument("the row has no uuid: Find similar needs a stored row")
	case limit < 0 || limit > similarMax:
		return SimilarDTO{}, invalidArgument("limit must be between 0 and %d", similarMax)
	case limit == 0:
		limit = similarDefault
	}
	ctx, cancel := a.callContext()
	defer cancel()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return SimilarDTO{}, apiError(err)
	}
	named := info.Settings.NamedVectors
	switch {
	case targetVector != "" && !slices.Contains(named, targetVector):
		return SimilarDTO{}, invalidArgument("%s has no named vector %q", table, targetVector)
	case targetVector == "" && len(named) == 1:
		targetVector = named[0]
	case targetVector == "" && len(named) > 1:
		return SimilarDTO{}, invalidArgument("%s has several named vectors: choose one of %s", table, strings.Join(named, ", "))
	}
	row, err := d.Browse(ctx, table, driver.Page{Limit: 1}, []driver.Filter{{Column: info.PrimaryKey, Operator: driver.OpEquals, Value: rowUUID}}, nil)
	if err != nil {
		return SimilarDTO{}, apiError(err)
	}
	vec, err := rowVector(row, targetVector)
	if err != nil {
		return SimilarDTO{}, err
	}
	res, err := d.Search(ctx, table, driver.SearchRequest{NearVector: vec, TargetVector: targetVector}, limit)
	if err != nil {
		return SimilarDTO{}, apiError(err)
	}
	g := toGridDTO(res)
	g.HasMore = false // ranked matches are not paged
	return SimilarDTO{Grid: g, TargetVector: targetVector, Dimensions: len(vec)}, nil
}

// rowVector is the vector of the one row read: the vector column's JSON array, or for named
// vectors its object's member target.
func rowVector(g *driver.Grid, target string) ([]float64, error) {
	if len(g.Rows) == 0 {
		return nil, apiError(driver.Errorf(driver.KindNotFound, "the row no longer exists"))
	}
	col := -1
	for j, c := range g.Columns {
		if c.IsVector() {
			col = j
		}
	}
	if col < 0 || g.Rows[0][col] == nil {
		return nil, invalidArgument("the row has no vector to search with")
	}
	text := *cellText(g.Rows[0][col])
	var raw json.RawMessage = json.RawMessage(text)
	if target != "" {
		var byName map[string]json.RawMessage
		if err := json.Unmarshal(raw, &byName); err != nil || byName[target] == nil {
			return nil, invalidArgument("the row has no %s vector", target)
		}
		raw = byName[target]
	}
	if t := bytes.TrimSpace(raw); len(t) > 1 && t[0] == '[' && bytes.HasPrefix(bytes.TrimSpace(t[1:]), []byte("[")) {
		return nil, invalidArgument("the row's vector is a multi-vector: Find similar searches with one vector (use the editor's nearVector with one of them)")
	}
	var vec []float64
	if err := json.Unmarshal(raw, &vec); err != nil || len(vec) == 0 {
		return nil, invalidArgument("the row's vector is not a list of numbers")
	}
	return vec, nil
}
