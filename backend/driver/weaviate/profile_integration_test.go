package weaviate_test

import (
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
)

// Issue 40, item 6: from 1.36.9 a search can carry the server's own per-shard profile; the
// table says beforehand whether it can, and a server without profiles says no. The profile's
// shards are the collection's own (GET /v1/schema/{class}/shards), a vector search profiles
// the vector index with durations, a keyword search the keyword scoring; the rows are those of
// the same search unprofiled. On both read paths.
func TestASearchCarriesTheServersOwnProfileWhereItHasOne(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) {
			n := sharedNode(t, v)
			d := open(t, n, nil)
			ctx := ctxT(t)
			info, err := d.DescribeTable(ctx, fixtures.Typed)
			if err != nil {
				t.Fatal(err)
			}
			version := nodeVersion(t, n)
			if strings.HasPrefix(version, "1.35.") {
				if info.Profiles {
					t.Fatalf("weaviate-server %s has no query profile, yet the table says it profiles", version)
				}
				g, err := d.Search(ctx, fixtures.Typed, driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}, Profile: true}, 3)
				if err != nil || g.Profile != nil || len(g.Rows) == 0 {
					t.Fatalf("a profile asked of a server without: %+v, %v", g, err)
				}
				return
			}
			if !info.Profiles {
				t.Fatalf("weaviate-server %s profiles searches, the table says not", version)
			}
			var shards []struct {
				Name string `json:"name"`
			}
			if err := n.DoJSON(ctx, http.MethodGet, "/v1/schema/"+fixtures.Typed+"/shards", nil, &shards); err != nil || len(shards) == 0 {
				t.Fatalf("the node's shards: %v %v", shards, err)
			}
			for _, c := range []struct {
				name, kind string
				req        driver.SearchRequest
			}{
				{"near a vector", "vector", driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}}},
				{"by keyword", "keyword", driver.SearchRequest{Query: ptrTo("Alpha")}},
			} {
				t.Run(c.name, func(t *testing.T) {
					plain, err := d.Search(ctx, fixtures.Typed, c.req, 5)
					if err != nil {
						t.Fatal(err)
					}
					c.req.Profile = true
					g, err := d.Search(ctx, fixtures.Typed, c.req, 5)
					if err != nil {
						t.Fatal(err)
					}
					if len(g.Rows) != len(plain.Rows) || len(g.Rows) == 0 || g.Rows[0][0] != plain.Rows[0][0] {
						t.Fatalf("profiled rows %v, unprofiled %v", g.Rows, plain.Rows)
					}
					if g.Profile == nil || len(g.Profile.Shards) != len(shards) {
						t.Fatalf("profile %+v; the node has %d shards", g.Profile, len(shards))
					}
					for _, sh := range g.Profile.Shards {
						own := false
						for _, s := range shards {
							own = own || strings.HasSuffix(sh.Name, "_"+s.Name)
						}
						if !own || sh.Node == "" {
							t.Errorf("shard %q on %q is not one of the node's %v", sh.Name, sh.Node, shards)
						}
						timed := false
						for _, se := range sh.Searches {
							if se.Kind != c.kind {
								continue
							}
							for _, m := range se.Metrics {
								timed = timed || (m.Seconds != nil && *m.Seconds >= 0 && (strings.HasSuffix(m.Name, "took") || strings.HasSuffix(m.Name, "time")))
							}
						}
						if !timed {
							t.Errorf("shard %s has no timed %s metric: %+v", sh.Name, c.kind, sh.Searches)
						}
					}
				})
			}
		})
	}
}

func ptrTo(s string) *string { return &s }
