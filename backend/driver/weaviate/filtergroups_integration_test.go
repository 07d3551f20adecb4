package weaviate_test

import (
	"fmt"
	"slices"
	"testing"

	"app/backend/driver"
	"app/internal/fixtures"
)

// Issue 23, item 4: filters of one group are ORed, groups ANDed, sent as the nested where (or
// gRPC filter) they mean, on both read paths; each case's rows, count and walk are exactly
// the ones the Typed fixture holds for it.
func TestFilterGroupsAreORedWithinAndANDedBetween(t *testing.T) {
	f := func(col string, op driver.Operator, v string, group int) driver.Filter {
		return driver.Filter{Column: col, Operator: op, Value: v, Group: group}
	}
	cases := []struct {
		rule    string
		filters []driver.Filter
		want    []string
	}{
		{"one group: title is Alpha or Gamma", []driver.Filter{f("title", driver.OpEquals, "Alpha", 1), f("title", driver.OpEquals, "Gamma", 1)},
			[]string{fixtures.TypedAlphaID, fixtures.TypedGammaID}},
		{"(Alpha or Beta or Gamma) and count above 0",
			[]driver.Filter{f("title", driver.OpEquals, "Alpha", 1), f("count", driver.OpGreater, "0", 0), f("title", driver.OpEquals, "Beta", 1), f("title", driver.OpEquals, "Gamma", 1)},
			[]string{fixtures.TypedAlphaID, fixtures.TypedBetaID}},
		{"two groups: (count below 0 or count above 15) and (active or title Empty)",
			[]driver.Filter{f("count", driver.OpLess, "0", 1), f("count", driver.OpGreater, "15", 1), f("active", driver.OpEquals, "true", 2), f("title", driver.OpEquals, "Empty", 2)},
			[]string{fixtures.TypedGammaID}},
		{"ungrouped filters still AND", []driver.Filter{f("count", driver.OpGreater, "0", 0), f("active", driver.OpEquals, "true", 0)},
			[]string{fixtures.TypedAlphaID}},
	}
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) {
			d := open(t, sharedNode(t, v), nil)
			ctx := ctxT(t)
			for _, c := range cases {
				t.Run(c.rule, func(t *testing.T) {
					want := slices.Sorted(slices.Values(c.want))
					g, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, c.filters, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got := uuidsOf(t, g); !slices.Equal(got, want) {
						t.Fatalf("rows %v, want %v", got, want)
					}
					if n, err := d.Count(ctx, fixtures.Typed, c.filters); err != nil || n != int64(len(want)) {
						t.Fatalf("count %d (%v), want %d", n, err, len(want))
					}
					p, err := d.Scan(ctx, fixtures.Typed, driver.ScanRequest{Filters: c.filters})
					if err != nil {
						t.Fatal(err)
					}
					walked := []string{}
					for _, r := range p.Rows {
						walked = append(walked, fmt.Sprint(r[0]))
					}
					if !slices.Equal(walked, want) {
						t.Fatalf("walk %v, want %v", walked, want)
					}
				})
			}
			t.Run("a refused filter inside a group is refused, not dropped from the OR", func(t *testing.T) {
				_, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, []driver.Filter{f("title", driver.OpEquals, "Alpha", 1), f("title", driver.OpRegex, "^B", 1)}, nil)
				if driver.KindOf(err) != driver.KindRefusedFilter {
					t.Fatalf("%v", err)
				}
			})
		})
	}
}
