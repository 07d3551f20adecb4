package driverbench

// Issue 19's read-path benchmarks, on two real weaviate-servers holding the same 1,000
// objects with 768-dimension vectors, one of them with GraphQL off (DISABLE_GRAPHQL=true):
//
//   - a filtered 1,000-row page (vectors included) over gRPC vs over GraphQL;
//   - that page over gRPC, where vectors travel as packed floats, vs the bare REST GET +
//     typed JSON decode of the same rows (target: gRPC at most 0.5x);
//   - the driver's gRPC read (Weaviate's own stubs, rows shaped into grid cells) vs the
//     official Go client v5's gRPC Search of the same page (its own result model), which is
//     how the choice between the two in docs/architecture.md was measured.
//
// Each iteration times every contender once, in turn, so machine load hits all alike.

import (
	"context"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/grpc"

	"app/backend/driver"
	driverweaviate "app/backend/driver/weaviate"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
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

func filtered(d *driverweaviate.Driver) error { return filteredN(d, rows) }

func filteredN(d *driverweaviate.Driver, n int) error { return filteredPage(d, n, driver.VectorsFull) }

// filteredPage reads a filtered page of n rows with the vectors whole or as previews.
func filteredPage(d *driverweaviate.Driver, n int, vectors driver.VectorRead) error {
	g, err := d.Browse(context.Background(), class, driver.Page{Limit: n, Vectors: vectors}, everyRow, nil)
	if err != nil {
		return err
	}
	if len(g.Rows) != n {
		return errRows(len(g.Rows))
	}
	return nil
}

type errRows int

func (e errRows) Error() string { return "a filtered page of " + strconv.Itoa(int(e)) + " rows" }

func offDriver(b *testing.B, n *weaviatenode.Node) *driverweaviate.Driver {
	d, err := driverweaviate.New(driver.Settings{Host: n.Host, Port: n.Port, GRPCPort: n.GRPCPort})
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

// officialClient is the official Go client v5 on the GraphQL-off node, its gRPC configured.
func officialClient(b *testing.B, n *weaviatenode.Node) *weaviate.Client {
	c, err := weaviate.NewClient(weaviate.Config{
		Host: net.JoinHostPort(n.Host, strconv.Itoa(n.Port)), Scheme: "http",
		GrpcConfig: &grpc.Config{Host: net.JoinHostPort(n.Host, strconv.Itoa(n.GRPCPort))},
	})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// officialRows is the page the official client is measured on: 500 rows, because it cannot
// receive a 1,000-row page of 768-dim vectors (about 6.3 MB) at all: its gRPC connection
// keeps grpc-go's 4 MB receive limit and offers no way to raise it ("received message larger
// than max"). The driver reads the same 500 rows in the comparison.
const officialRows = 500

// officialPage is the filtered page through the official client: every property and the
// vector, the same filter.
func officialPage(c *weaviate.Client) error {
	res, err := c.Experimental().Search().WithCollection(class).WithLimit(officialRows).
		WithWhere(filters.Where().WithPath([]string{"n"}).WithOperator(filters.GreaterThanEqual).WithValueInt(0)).
		WithProperties("title", "n", "tags").
		WithMetadata(&graphql.Metadata{ID: true, Vector: true}).Do(context.Background())
	if err != nil {
		return err
	}
	if len(res) != officialRows || len(res[0].Vector) == 0 {
		return errRows(len(res))
	}
	return nil
}

// BenchmarkGRPCStubsVsOfficialClient reports the driver's gRPC page (Weaviate's stubs, grid
// cells) against the official Go client v5's gRPC Search of the same 500-row page, in one run.
func BenchmarkGRPCStubsVsOfficialClient(b *testing.B) {
	off := setupOff(b)
	d := offDriver(b, off)
	defer d.Close()
	c := officialClient(b, off)
	for _, warm := range []func() error{func() error { return filteredN(d, officialRows) }, func() error { return officialPage(c) }} {
		if err := warm(); err != nil {
			b.Fatal(err)
		}
	}
	var tStubs, tPreview, tClient time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := filteredN(d, officialRows); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := filteredPage(d, officialRows, driver.VectorsPreview); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := officialPage(c); err != nil {
			b.Fatal(err)
		}
		tStubs += t1.Sub(t0)
		tPreview += t2.Sub(t1)
		tClient += time.Since(t2)
	}
	// Whole vectors are cells of JSON text (the contract's cells), where the client hands
	// back []float32; the grid's page (previews) formats only the first numbers.
	b.ReportMetric(float64(tStubs)/float64(tClient), "stubs-full/official-client")
	b.ReportMetric(float64(tPreview)/float64(tClient), "stubs-preview/official-client")
	b.ReportMetric(float64(tStubs.Milliseconds())/float64(b.N), "stubs-full-ms/op")
	b.ReportMetric(float64(tPreview.Milliseconds())/float64(b.N), "stubs-preview-ms/op")
	b.ReportMetric(float64(tClient.Milliseconds())/float64(b.N), "official-client-ms/op")
}
