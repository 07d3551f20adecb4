package explore

import (
	"context"
	"errors"
	"time"

	"app/backend/driver"
)

// ExactWithin is how long the window waits for an exact count before it shows the database's
// estimate (a count of a table of a hundred million rows takes minutes).
const ExactWithin = 3 * time.Second

// CountWithin is the grid's count: exact when the database answers within `within`, else, from
// a driver that can estimate (driver.Estimator, declared in its capabilities), the database's
// estimate, and estimated says so. A driver that cannot estimate is waited for as long as
// ctx allows: a number the window shows unqualified is exact.
func CountWithin(ctx context.Context, d driver.Driver, table string, filters []driver.Filter, within time.Duration) (n int64, estimated bool, err error) {
	est, ok := d.(driver.Estimator)
	if !ok || !driver.Offered(d).Estimate || within <= 0 {
		n, err = d.Count(ctx, table, filters)
		return n, false, err
	}
	exact, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	n, err = d.Count(exact, table, filters)
	if err == nil || ctx.Err() != nil || !errors.Is(exact.Err(), context.DeadlineExceeded) {
		return n, false, err
	}
	n, err = est.Estimate(ctx, table, filters)
	return n, err == nil, err
}
