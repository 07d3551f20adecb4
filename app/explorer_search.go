package app

import (
	"strings"

	"app/app/dto"
	"app/backend/driver"
	"app/backend/explore"
)

// Search runs the search panel's search on table with the driver's Search, which checks it
// against the table's schema and builds it as GraphQL or over gRPC as the server allows.
func (a *ExplorerAPI) Search(id, table string, req dto.SearchRequestDTO) (dto.SearchResultDTO, error) {
	d, err := a.driver(id)
	if err != nil {
		return dto.SearchResultDTO{}, err
	}
	if strings.TrimSpace(table) == "" {
		return dto.SearchResultDTO{}, invalidArgument("a table name is required")
	}
	limit, err := explore.MatchLimit(req.Limit)
	if err != nil {
		return dto.SearchResultDTO{}, apiError(err)
	}
	if err := explore.CheckFilters(dto.DriverFilters(req.Filters), nil); err != nil {
		return dto.SearchResultDTO{}, apiError(err)
	}
	r, err := req.Request()
	if err != nil {
		return dto.SearchResultDTO{}, invalidArgument("%s", err.Error())
	}
	if err := r.Check(); err != nil {
		return dto.SearchResultDTO{}, apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	if req.By == dto.SearchByWords && len(req.VectorRow) > 0 {
		// Words with a row's vector: read back the stored vector, as Find similar does.
		vec, target, err := explore.ReadRowVector(ctx, d, table, driver.Key(req.VectorRow), r.TargetVector)
		if err != nil {
			return dto.SearchResultDTO{}, apiError(err)
		}
		r.Vector, r.TargetVector = vec, target
	}
	g, err := d.Search(ctx, table, r, limit)
	if rf := dto.RefusalOf(err, r.Filters); rf != nil {
		return dto.SearchResultDTO{Grid: dto.GridDTO{Columns: []dto.ColumnDTO{}, Rows: [][]*string{}}, Describe: r.Describe(), Refused: rf}, nil
	}
	if err != nil {
		return dto.SearchResultDTO{}, apiError(err)
	}
	out := dto.FromGrid(g)
	out.HasMore = false // ranked matches are not paged
	return dto.SearchResultDTO{Grid: out, Describe: r.Describe(), Measure: driver.MeasureOf(g, r.Explain), Profile: g.Profile}, nil
}
