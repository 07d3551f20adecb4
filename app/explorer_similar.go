package app

import (
	"strings"

	"app/app/dto"
	"app/backend/driver"
	"app/backend/explore"
)

// FindSimilar finds the rows nearest to one row: a nearVector search with that row's vector
// (read back from the database, so the search uses the stored vector, not the grid's text),
// built by backend/search as the MCP vector_search tool builds it. A table with named
// vectors searches targetVector ("" picks the only one, or is refused naming the choices).
// limit 0 means 25; the row itself comes first, at distance 0.
func (a *ExplorerAPI) FindSimilar(id, table string, key map[string]any, targetVector string, limit int) (dto.SimilarResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.SimilarResultDTO{}, err
	}
	switch {
	case strings.TrimSpace(table) == "":
		return dto.SimilarResultDTO{}, invalidArgument("a table name is required")
	case len(key) == 0:
		return dto.SimilarResultDTO{}, invalidArgument("the row has no key: Find similar needs a stored row")
	}
	limit, err = explore.MatchLimit(limit)
	if err != nil {
		return dto.SimilarResultDTO{}, apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	vec, targetVector, err := explore.ReadRowVector(ctx, d, table, driver.Key(key), targetVector)
	if err != nil {
		return dto.SimilarResultDTO{}, apiError(err)
	}
	res, err := d.Search(ctx, table, driver.SearchRequest{Vector: vec, TargetVector: targetVector}, limit)
	if err != nil {
		return dto.SimilarResultDTO{}, apiError(err)
	}
	g := dto.FromGrid(res)
	g.HasMore = false // ranked matches are not paged
	return dto.SimilarResultDTO{Grid: g, TargetVector: targetVector, Dimensions: len(vec)}, nil
}
