package weaviate_test

import (
	"fmt"
	"slices"
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// Issue 23, item 4: filters of one group are ORed, groups ANDed, sent as the nested where (or
// gRPC filter) they mean, on both read paths; each case's rows, count and walk are exactly
// the ones the Typed fixture holds for it, and each server's own answer to the same filter
// written by hand: a nested GraphQL where, and a gRPC filter for the node without GraphQL.
func TestFilterGroupsAreORedWithinAndANDedBetween(t *testing.T) {
	f := func(col string, op driver.Operator, v string, group int) driver.Filter {
		return driver.Filter{Column: col, Operator: op, Value: v, Group: group}
	}
	prop := func(name string) *pb.FilterTarget {
		return &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: name}}
	}
	text := func(col, v string) *pb.Filters {
		return &pb.Filters{Operator: pb.Filters_OPERATOR_EQUAL, Target: prop(col), TestValue: &pb.Filters_ValueText{ValueText: v}}
	}
	num := func(col string, op pb.Filters_Operator, v int64) *pb.Filters {
		return &pb.Filters{Operator: op, Target: prop(col), TestValue: &pb.Filters_ValueInt{ValueInt: v}}
	}
	yes := func(col string) *pb.Filters {
		return &pb.Filters{Operator: pb.Filters_OPERATOR_EQUAL, Target: prop(col), TestValue: &pb.Filters_ValueBoolean{ValueBoolean: true}}
	}
	or := func(fs ...*pb.Filters) *pb.Filters { return &pb.Filters{Operator: pb.Filters_OPERATOR_OR, Filters: fs} }
	and := func(fs ...*pb.Filters) *pb.Filters {
		return &pb.Filters{Operator: pb.Filters_OPERATOR_AND, Filters: fs}
	}
	cases := []struct {
		rule    string
		filters []driver.Filter
		where   string      // the same filter as Weaviate's nested GraphQL where
		grpc    *pb.Filters // and as its gRPC filter, for the node that serves no GraphQL
		want    []string
	}{
		{"one group: title is Alpha or Gamma", []driver.Filter{f("title", driver.OpEquals, "Alpha", 1), f("title", driver.OpEquals, "Gamma", 1)},
			`{operator:Or, operands:[{path:["title"], operator:Equal, valueText:"Alpha"}, {path:["title"], operator:Equal, valueText:"Gamma"}]}`,
			or(text("title", "Alpha"), text("title", "Gamma")),
			[]string{fixtures.TypedAlphaID, fixtures.TypedGammaID}},
		{"(Alpha or Beta or Gamma) and count above 0",
			[]driver.Filter{f("title", driver.OpEquals, "Alpha", 1), f("count", driver.OpGreater, "0", 0), f("title", driver.OpEquals, "Beta", 1), f("title", driver.OpEquals, "Gamma", 1)},
			`{operator:And, operands:[{operator:Or, operands:[{path:["title"], operator:Equal, valueText:"Alpha"}, {path:["title"], operator:Equal, valueText:"Beta"}, {path:["title"], operator:Equal, valueText:"Gamma"}]}, {path:["count"], operator:GreaterThan, valueInt:0}]}`,
			and(or(text("title", "Alpha"), text("title", "Beta"), text("title", "Gamma")), num("count", pb.Filters_OPERATOR_GREATER_THAN, 0)),
			[]string{fixtures.TypedAlphaID, fixtures.TypedBetaID}},
		{"two groups: (count below 0 or count above 15) and (active or title Empty)",
			[]driver.Filter{f("count", driver.OpLess, "0", 1), f("count", driver.OpGreater, "15", 1), f("active", driver.OpEquals, "true", 2), f("title", driver.OpEquals, "Empty", 2)},
			`{operator:And, operands:[{operator:Or, operands:[{path:["count"], operator:LessThan, valueInt:0}, {path:["count"], operator:GreaterThan, valueInt:15}]}, {operator:Or, operands:[{path:["active"], operator:Equal, valueBoolean:true}, {path:["title"], operator:Equal, valueText:"Empty"}]}]}`,
			and(or(num("count", pb.Filters_OPERATOR_LESS_THAN, 0), num("count", pb.Filters_OPERATOR_GREATER_THAN, 15)), or(yes("active"), text("title", "Empty"))),
			[]string{fixtures.TypedGammaID}},
		{"ungrouped filters still AND", []driver.Filter{f("count", driver.OpGreater, "0", 0), f("active", driver.OpEquals, "true", 0)},
			`{operator:And, operands:[{path:["count"], operator:GreaterThan, valueInt:0}, {path:["active"], operator:Equal, valueBoolean:true}]}`,
			and(num("count", pb.Filters_OPERATOR_GREATER_THAN, 0), yes("active")),
			[]string{fixtures.TypedAlphaID}},
	}
	t.Run("the server's own answer to each nested where", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.Anonymous)
		for _, c := range cases {
			t.Run(c.rule, func(t *testing.T) {
				got, err := n.GetIDs(ctxT(t), `{ Get { `+fixtures.Typed+`(limit: 100, where: `+c.where+`) { _additional { id } } } }`)
				if err != nil {
					t.Fatal(err)
				}
				if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(c.want))) {
					t.Fatalf("the server answers %v; the cases say %v", got, c.want)
				}
			})
		}
	})
	t.Run("the GraphQL-off node's own answer to each gRPC filter", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.NoGraphQL)
		for _, c := range cases {
			t.Run(c.rule, func(t *testing.T) {
				got, err := n.SearchIDs(ctxT(t), &pb.SearchRequest{Collection: fixtures.Typed, Limit: 100, Filters: c.grpc})
				if err != nil {
					t.Fatal(err)
				}
				if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(c.want))) {
					t.Fatalf("the node answers %v; the cases say %v", got, c.want)
				}
			})
		}
	})
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
