package weaviate_test

import (
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// servesGRPCWeb reports whether the node's release serves gRPC-Web on its REST port (1.38.3
// and later), read from the node's own /v1/meta.
func servesGRPCWeb(t *testing.T, n *weaviatenode.Node) bool {
	t.Helper()
	var v [3]int
	for i, p := range strings.SplitN(nodeVersion(t, n), ".", 3) {
		v[i], _ = strconv.Atoi(strings.SplitN(p, "-", 2)[0])
	}
	return slices.Compare(v[:], []int{1, 38, 3}) >= 0
}

// closedPort is a loopback port nothing listens on: the gRPC port "closed to the app".
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	return port
}

// Issue 40, item 7: where the gRPC port cannot be reached and the server is 1.38.3 or later,
// reads go over gRPC-Web on the REST port, and Test says so; a filtered page and a search are
// held to the node's own gRPC answer. Before 1.38.3 the gRPC path fails with the reason and
// what to set (there is no gRPC-Web to fall back on). On nodes with GraphQL off, where every
// filtered read needs gRPC, with and without TLS and an API key.
func TestReadsGoOverGRPCWebWhereTheGRPCPortIsClosed(t *testing.T) {
	tlsKeyed := weaviatetest.Options(weaviatenode.TLSAPIKey)
	tlsKeyed.Env = append(tlsKeyed.Env, "DISABLE_GRAPHQL=true")
	for _, c := range []struct {
		name string
		node func(t *testing.T) *weaviatenode.Node
	}{
		{"plain HTTP, no key", func(t *testing.T) *weaviatenode.Node { return sharedNode(t, weaviatenode.NoGraphQL) }},
		{"TLS and an API key", func(t *testing.T) *weaviatenode.Node {
			n := weaviatetest.StartWith(t, tlsKeyed)
			if err := fixtures.Load(ctxT(t), n); err != nil {
				t.Fatal(err)
			}
			return n
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := c.node(t)
			ctx := ctxT(t)
			d := open(t, n, func(s *driver.Settings) { s.GRPCPort = closedPort(t) })
			paths := d.CheckPaths(ctx)
			grpcPath := paths[len(paths)-1]
			if !servesGRPCWeb(t, n) {
				if grpcPath.OK || !strings.Contains(grpcPath.Detail, "gRPC host and port") {
					t.Fatalf("before 1.38.3, Test's gRPC line: %+v; want the failure and what to set", grpcPath)
				}
				if _, err := d.Count(ctx, fixtures.Typed, []driver.Filter{{Column: "count", Operator: driver.OpGreaterEq, Value: "0"}}); err == nil {
					t.Fatal("a filtered count ran with neither GraphQL nor a gRPC port")
				}
				return
			}
			if !grpcPath.OK || !strings.Contains(grpcPath.Detail, "over gRPC-Web on the REST port") || !strings.Contains(grpcPath.Detail, "/v1/grpc-web") {
				t.Fatalf("Test's gRPC line: %+v; want ok over gRPC-Web", grpcPath)
			}
			// A filtered, sorted page read through gRPC-Web, against the node's own gRPC read.
			g, err := d.Browse(ctx, fixtures.Typed, driver.Page{Limit: 50},
				[]driver.Filter{{Column: "count", Operator: driver.OpGreaterEq, Value: "0"}},
				[]driver.Sort{{Column: "title"}})
			if err != nil {
				t.Fatalf("a filtered page over gRPC-Web: %v", err)
			}
			var got []string
			for _, r := range g.Rows {
				got = append(got, r[0].(string))
			}
			want, err := n.SearchIDs(ctx, &pb.SearchRequest{
				Collection: fixtures.Typed, Limit: 50, Uses_127Api: true,
				Filters: &pb.Filters{Operator: pb.Filters_OPERATOR_GREATER_THAN_EQUAL, Target: &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: "count"}}, TestValue: &pb.Filters_ValueInt{ValueInt: 0}},
				SortBy:  []*pb.SortBy{{Path: []string{"title"}, Ascending: true}},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || len(got) == 0 {
				t.Fatalf("over gRPC-Web %v\nthe node's gRPC %v", got, want)
			}
			// A vector search, the nearest being the row whose vector it is.
			r, err := d.Search(ctx, fixtures.Typed, driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}}, 3)
			if err != nil || len(r.Rows) == 0 || r.Rows[0][0] != fixtures.TypedAlphaID {
				t.Fatalf("a vector search over gRPC-Web: %v, %v", r, err)
			}
		})
	}
}
