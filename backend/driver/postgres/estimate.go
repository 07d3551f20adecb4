package postgres

import (
	"context"
	"encoding/json"
	"math"

	"app/backend/driver"
)

// Estimate is the planner's estimate of Count's answer (driver.Estimator): the rows the plan
// of the same filtered query expects, from the table's statistics, without reading the rows.
// The filters are bound as Count binds them, so a value the column cannot read fails alike.
func (d *Driver) Estimate(ctx context.Context, name string, filters []driver.Filter) (int64, error) {
	var plan []byte
	if err := d.countWith(ctx, name, filters, "EXPLAIN (FORMAT JSON) SELECT 1 FROM ", "estimating the rows of", &plan); err != nil {
		return 0, err
	}
	var doc []struct {
		Plan struct {
			Rows float64 `json:"Plan Rows"`
		} `json:"Plan"`
	}
	if err := json.Unmarshal(plan, &doc); err != nil || len(doc) != 1 {
		return 0, errorf(driver.KindQueryFailed, "the server's plan of %s could not be read", name)
	}
	return int64(math.Round(doc[0].Plan.Rows)), nil
}
