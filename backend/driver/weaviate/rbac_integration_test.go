package weaviate_test

import (
	"net/http"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 4: a key whose role lacks a permission gets, in every read path and edit,
// "not permitted: <what> on <collection> needs <permission>", never a blank grid or a generic
// failure. The node has RBAC on; the admin (a root user) makes a role that may read every
// collection's definition but only Article's rows, and gives it to the reader, whose key the
// driver uses. With GraphQL on and off (gRPC's PermissionDenied), on both releases.
func TestAKeyWithoutAPermissionIsToldWhatItNeeds(t *testing.T) {
	for _, graphQL := range []bool{true, false} {
		name := "GraphQL on"
		if !graphQL {
			name = "GraphQL off"
		}
		t.Run(name, func(t *testing.T) {
			opts := weaviatetest.RBACOptions()
			if !graphQL {
				opts.Env = append(opts.Env, "DISABLE_GRAPHQL=true")
			}
			n := weaviatetest.StartWith(t, opts)
			ctx := ctxT(t)
			for _, body := range []string{
				`{"class":"Article","vectorizer":"none","properties":[{"name":"title","dataType":["text"]}]}`,
				`{"class":"Author","vectorizer":"none","properties":[{"name":"name","dataType":["text"]}]}`,
			} {
				if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", rawBody(body), nil); err != nil {
					t.Fatal(err)
				}
			}
			if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", rawBody(`{"class":"Author","properties":{"name":"Ada"},"vector":[0.1,0.2]}`), nil); err != nil {
				t.Fatal(err)
			}
			role := `{"name":"article-reader","permissions":[{"action":"read_collections","collections":{"collection":"*"}},{"action":"read_data","data":{"collection":"Article"}}]}`
			if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/roles", rawBody(role), nil); err != nil {
				t.Fatal(err)
			}
			if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/reader/assign", rawBody(`{"roles":["article-reader"]}`), nil); err != nil {
				t.Fatal(err)
			}
			d := open(t, n, func(s *driver.Settings) { s.APIKey = "reader-key" })
			want := func(t *testing.T, err error, text string) {
				t.Helper()
				if err == nil || driver.KindOf(err) != driver.KindNotPermitted || err.Error() != text {
					t.Fatalf("got %v (kind %s), want %q", err, driver.KindOf(err), text)
				}
			}
			t.Run("a page of a collection it may not read", func(t *testing.T) {
				_, err := d.Browse(ctx, "Author", driver.Page{Limit: 10}, nil, nil)
				want(t, err, "not permitted: reading rows on Author needs read_data")
			})
			t.Run("a filtered count", func(t *testing.T) {
				_, err := d.Count(ctx, "Author", []driver.Filter{{Column: "name", Operator: driver.OpEquals, Value: "Ada"}})
				want(t, err, "not permitted: reading rows on Author needs read_data")
			})
			t.Run("a search", func(t *testing.T) {
				_, err := d.Search(ctx, "Author", driver.SearchRequest{Vector: []float64{0.1, 0.2}}, 5)
				want(t, err, "not permitted: reading rows on Author needs read_data")
			})
			t.Run("an insert into a collection it may only read", func(t *testing.T) {
				res, err := d.Insert(ctx, "Article", []driver.Row{{Values: map[string]any{"title": "x"}}})
				if err == nil && len(res) == 1 {
					if res[0].Kind != driver.KindNotPermitted || res[0].Message != "not permitted: adding rows on Article needs create_data" {
						t.Fatalf("row result %+v", res[0])
					}
				} else {
					want(t, err, "not permitted: adding rows on Article needs create_data")
				}
				var list struct {
					Objects []any `json:"objects"`
				}
				if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects?class=Article", nil, &list); err != nil || len(list.Objects) != 0 {
					t.Fatalf("the node holds %d Articles (%v) after a refused insert", len(list.Objects), err)
				}
			})
			t.Run("what it may read still reads", func(t *testing.T) {
				if _, err := d.Browse(ctx, "Article", driver.Page{Limit: 10}, nil, nil); err != nil {
					t.Fatalf("a page of Article: %v", err)
				}
			})
		})
	}
}
