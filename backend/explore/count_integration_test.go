package explore_test

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/explore"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

// Issue 38, item 4: the grid's count is exact when the database answers in time, else the
// database's own estimate, said so — the planner's rows for the same filtered query, read
// back with psql's EXPLAIN — and the exact count cut short does not go on running on the
// server. In the process and across the plugin protocol.
func TestACountPastItsTimeIsTheDatabasesEstimateSaidSo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	// slow reads each row after a millisecond's sleep: counting its 20,000 rows takes 20 s.
	if _, err := n.Psql(ctx, "", `CREATE TABLE public.big (id int PRIMARY KEY, v int);
INSERT INTO public.big SELECT i, i % 1000 FROM generate_series(1, 20000) i;
ANALYZE public.big;
CREATE VIEW public.slow AS SELECT id, v FROM public.big WHERE pg_sleep(0.001) IS NOT NULL`); err != nil {
		t.Fatal(err)
	}
	planned := func(t *testing.T, query string) int64 {
		t.Helper()
		out, err := n.Psql(ctx, "", "EXPLAIN (FORMAT JSON) "+query)
		if err != nil {
			t.Fatal(err)
		}
		var doc []struct {
			Plan struct {
				Rows float64 `json:"Plan Rows"`
			} `json:"Plan"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc) != 1 {
			t.Fatalf("psql's plan %q: %v", out, err)
		}
		return int64(math.Round(doc[0].Plan.Rows))
	}
	for _, boundary := range []bool{false, true} {
		name := map[bool]string{false: "in process", true: "across the plugin protocol"}[boundary]
		t.Run(name, func(t *testing.T) {
			d := pgtest.Open(t, n, boundary)
			if !driver.Offered(d).Estimate {
				t.Fatal("the PostgreSQL driver declares no estimate")
			}
			t.Run("a count answered in time is exact", func(t *testing.T) {
				got, estimated, err := explore.CountWithin(ctx, d, "public.big", nil, 10*time.Second)
				want, perr := n.Psql(ctx, "", "SELECT count(*) FROM public.big")
				if err != nil || perr != nil || estimated || strconv.FormatInt(got, 10) != want {
					t.Fatalf("%d estimated %v %v %v, psql counts %s", got, estimated, err, perr, want)
				}
			})
			t.Run("a count past its time is the planner's estimate, and stops on the server", func(t *testing.T) {
				start := time.Now()
				got, estimated, err := explore.CountWithin(ctx, d, "public.slow", nil, 300*time.Millisecond)
				if err != nil || !estimated || got != planned(t, "SELECT 1 FROM public.slow") {
					t.Fatalf("%d estimated %v %v, psql plans %d", got, estimated, err, planned(t, "SELECT 1 FROM public.slow"))
				}
				if took := time.Since(start); took > 10*time.Second {
					t.Fatalf("the estimate took %v: the count ran on", took)
				}
				for {
					active, err := n.Psql(ctx, "", "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND application_name = 'app'")
					if err != nil {
						t.Fatal(err)
					}
					if active == "0" {
						break
					}
					select {
					case <-ctx.Done():
						t.Fatal("the cut count still runs on the server")
					case <-time.After(100 * time.Millisecond):
					}
				}
			})
			t.Run("a filtered estimate is the plan of the same filter, its value bound", func(t *testing.T) {
				est := d.(driver.Estimator)
				got, err := est.Estimate(ctx, "public.big", []driver.Filter{{Column: "v", Operator: driver.OpLess, Value: "100"}})
				if want := planned(t, "SELECT 1 FROM public.big WHERE v < 100"); err != nil || got != want {
					t.Fatalf("%d %v, psql plans %d", got, err, want)
				}
				if _, err := est.Estimate(ctx, "public.big", []driver.Filter{{Column: "v", Operator: driver.OpLess, Value: "many"}}); !driver.IsKind(err, driver.KindRefusedFilter) {
					t.Fatalf("a value the column cannot read: %v", err)
				}
			})
		})
	}
}
