package driverbench

// Issue 19's read-path benchmarks, on two real weaviate-servers holding the same 1,000
// objects with 768-dimension vectors, one of them with GraphQL off (DISABLE_GRAPHQL=true):
//
//   - a filtered 1,000-row page (vectors included) over gRPC vs over GraphQL;
//   - that page over gRPC, where vectors travel as packed floats, vs the bare REST GET +
//     typed JSON decode of the same rows (target: gRPC at most 0.5x).
//
// Each iteration times every contender once, in turn, so machine load hits all alike.

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
)

var (
	offOnce sync.Once
	offNode *weaviatenode.Node
	offErr  error
)

// setupOff starts the GraphQL-off node with the same objects.
func setupOff(b *testing.B) *weaviatenode.Node {
	b.Helper()
	offOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		offNode, offErr = weaviatenode.Start(ctx, weaviatetest.Options(weaviatenode.NoGraphQL))
		if offErr != nil {
			return
		}
		offErr = load(ctx, offNode)
	})
	if offErr != nil {
		b.Fatalf("GraphQL-off bench node: %v", offErr)
	}
	return offNode
}

// everyRow is a filter every object matches, so the page is the filtered path's.
var everyRow = []driver.Filter{{Column: "n", Operator: driver.OpGreaterEq, Value: "0"}}

func filtered(d *weaviate.Driver) error {
	g, err := d.Browse(context.Background(), class, driver.Page{Limit: rows}, everyRow, nil)
	if err != nil {
		return err
	}
	if len(g.Rows) != rows {
		return errRows(len(g.Rows))
	}
	return nil
}

type errRows int

func (e errRows) Error() string { return "a filtered page of " + strconv.Itoa(int(e)) + " rows" }

func offDriver(b *testing.B, n *weaviatenode.Node) *weaviate.Driver {
	d, err := weaviate.New(driver.Settings{Host: n.Host, Port: n.Port, GRPCPort: n.GRPCPort})
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Connect(context.Background()); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkReadPathRatios reports grpc/graphql for the filtered page and grpc/bare-REST for
// a page of vectors.
func BenchmarkReadPathRatios(b *testing.B) {
	on, off := setup(b), setupOff(b)
	gql, grpc := newDriver(b, on), offDriver(b, off)
	defer gql.Close()
	defer grpc.Close()
	c := newClient()
	u := pageURL(on)
	for _, warm := range []func() error{func() error { return filtered(gql) }, func() error { return filtered(grpc) }, func() error { return bareTyped(c, u) }} {
		if err := warm(); err != nil {
			b.Fatal(err)
		}
	}
	var tGQL, tGRPC, tBare time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := filtered(gql); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := filtered(grpc); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := bareTyped(c, u); err != nil {
			b.Fatal(err)
		}
		tGQL += t1.Sub(t0)
		tGRPC += t2.Sub(t1)
		tBare += time.Since(t2)
	}
	b.ReportMetric(float64(tGRPC)/float64(tGQL), "grpc/graphql")
	b.ReportMetric(float64(tGRPC)/float64(tBare), "grpc/bare-rest")
	b.ReportMetric(float64(tGQL.Milliseconds())/float64(b.N), "graphql-ms/op")
	b.ReportMetric(float64(tGRPC.Milliseconds())/float64(b.N), "grpc-ms/op")
	b.ReportMetric(float64(tBare.Milliseconds())/float64(b.N), "bare-rest-ms/op")
}
