package app

import (
	"strings"

	"app/backend/driver"
	"app/backend/explore"
)

// maxVectorRows bounds one Vectors call, as a page bounds Browse.
const maxVectorRows = explore.MaxPageSize

// Vectors reads the full vector cells of some rows of a table, by primary key: key -> the
// cell's JSON text (an array, or an object of arrays by name for named vectors); a row without
// a vector is absent, as is a key the table does not hold. The grid calls it when the user
// expands, copies or inspects a vector (its pages carry previews the driver cut). A key the
// driver cannot read as one is refused before the database is asked.
func (a *ExplorerAPI) Vectors(id, table string, keys []string) (map[string]string, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.TrimSpace(table) == "":
		return nil, invalidArgument("a table name is required")
	case len(keys) == 0:
		return map[string]string{}, nil
	case len(keys) > maxVectorRows:
		return nil, invalidArgument("at most %d rows at a time; asked for %d", maxVectorRows, len(keys))
	}
	ctx, cancel := a.callContext()
	defer cancel()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		return nil, apiError(err)
	}
	in := []driver.Filter{{Column: info.PrimaryKey, Operator: driver.OpIn, Value: strings.Join(keys, ",")}}
	g, err := d.Browse(ctx, table, driver.Page{Limit: len(keys), Vectors: driver.VectorsFull}, in, nil)
	if driver.KindOf(err) == driver.KindRefusedFilter {
		return nil, invalidArgument("%s", err.Error())
	}
	if err != nil {
		return nil, apiError(err)
	}
	return explore.VectorsByKey(g, info.PrimaryKey), nil
}
