package app

import (
	"strings"

	"app/backend/driver"
	"app/backend/explore"
)

// maxVectorRows bounds one Vectors call, as a page bounds Browse.
const maxVectorRows = explore.MaxPageSize

// Vectors reads the full vector cells of some rows of a table, by their keys: out[i] is the
// cell of keys[i] as JSON text (an array, or an object of arrays by name for named vectors),
// null for a row without a vector or one the table does not hold. The grid calls it when the
// user expands, copies or inspects a vector (its pages carry previews the driver cut). A key
// that is not the table's is refused before the database is asked.
func (a *ExplorerAPI) Vectors(id, table string, keys []map[string]any) ([]*string, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(table) == "":
		return nil, invalidArgument("a table name is required")
	case len(keys) == 0:
		return []*string{}, nil
	case len(keys) > maxVectorRows:
		return nil, invalidArgument("at most %d rows at a time; asked for %d", maxVectorRows, len(keys))
	}
	ctx, cancel := a.callContext()
	defer cancel()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	ks := make([]driver.Key, len(keys))
	for i, k := range keys {
		ks[i] = driver.Key(k)
	}
	out, err := explore.VectorsOfRows(ctx, d, table, info, ks)
	if driver.KindOf(err) == driver.KindRefusedFilter {
		return nil, invalidArgument("%s", err.Error())
	}
	if err != nil {
		return nil, apiError(err)
	}
	return out, nil
}
