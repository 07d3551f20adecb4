// Package driverbench measures the Weaviate driver's page load against a bare
// HTTP GET + JSON decode of the same URL, on a real weaviate-server holding
// 1,000 objects with 768-dimension vectors.
//
//	go test -run='^$' -bench=. -benchtime=3s ./bench/driver/
//
// BenchmarkBrowseRatio interleaves the two so machine load hits both alike
// and reports driver/bare (target: at most 1.2).
package driverbench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

const (
	class = "BenchVectors"
	rows  = 1000
	dims  = 768
)

var (
	once sync.Once
	node *weaviatenode.Node
	err0 error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if node != nil {
		node.Stop()
	}
	if offNode != nil {
		offNode.Stop()
	}
	os.Exit(code)
}

// setup starts one node per run and loads the collection.
func setup(b *testing.B) *weaviatenode.Node {
	b.Helper()
	once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		node, err0 = weaviatenode.Start(ctx, weaviatetest.Options(weaviatenode.Anonymous))
		if err0 != nil {
			return
		}
		err0 = load(ctx, node)
	})
	if err0 != nil {
		b.Fatalf("bench node: %v", err0)
	}
	return node
}

func load(ctx context.Context, n *weaviatenode.Node) error {
	c := map[string]any{"class": class, "vectorizer": "none", "properties": []any{
		map[string]any{"name": "title", "dataType": []string{"text"}},
		map[string]any{"name": "n", "dataType": []string{"int"}},
		map[string]any{"name": "tags", "dataType": []string{"text[]"}},
	}}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", c, nil); err != nil {
		return err
	}
	r := rand.New(rand.NewSource(1))
	var chunk []fixtures.Object
	for i := range rows {
		v := make([]float32, dims)
		for j := range v {
			v[j] = r.Float32()*2 - 1
		}
		chunk = append(chunk, fixtures.Object{Class: class, ID: fmt.Sprintf("0000beec-0000-4000-8000-%012x", i), Vector: v,
			Properties: map[string]any{"title": fmt.Sprintf("object %d", i), "n": i, "tags": []string{"a", "b"}}})
		if len(chunk) == 200 {
			if err := fixtures.Batch(ctx, n, chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	return nil
}

func pageURL(n *weaviatenode.Node) string {
	return fmt.Sprintf("%s/v1/objects?class=%s&limit=%d&offset=0&include=vector", n.URL, class, rows)
}

// typedPage is what a careful hand-written client decodes into.
type typedPage struct {
	Objects []struct {
		ID         string         `json:"id"`
		Properties map[string]any `json:"properties"`
		Vector     []float32      `json:"vector"`
	} `json:"objects"`
}

func bareTyped(c *http.Client, u string) error {
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var p typedPage
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		return err
	}
	if len(p.Objects) != rows || len(p.Objects[0].Vector) != dims {
		return fmt.Errorf("bare: %d objects", len(p.Objects))
	}
	return nil
}

func bareAny(c *http.Client, u string) error {
	resp, err := c.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var p any
	return json.NewDecoder(resp.Body).Decode(&p)
}

func newDriver(b *testing.B, n *weaviatenode.Node) *weaviate.Driver {
	d, err := weaviate.New(driver.Settings{Host: n.Host, Port: n.Port})
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Connect(context.Background()); err != nil {
		b.Fatal(err)
	}
	return d
}

func browse(d *weaviate.Driver) error {
	g, err := d.Browse(context.Background(), class, driver.Page{Limit: rows}, nil, nil)
	if err != nil {
		return err
	}
	if len(g.Rows) != rows {
		return fmt.Errorf("driver: %d rows", len(g.Rows))
	}
	return nil
}

func newClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// BenchmarkBrowsePage: the three ways side by side, each with its own ns/op.
func BenchmarkBrowsePage(b *testing.B) {
	n := setup(b)
	u := pageURL(n)
	b.Run("bare-typed", func(b *testing.B) {
		c := newClient()
		for b.Loop() {
			if err := bareTyped(c, u); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bare-any", func(b *testing.B) {
		c := newClient()
		for b.Loop() {
			if err := bareAny(c, u); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("driver", func(b *testing.B) {
		d := newDriver(b, n)
		defer d.Close()
		for b.Loop() {
			if err := browse(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBrowseRatio alternates a bare typed GET+decode and a driver
// Browse of the same page in every iteration and reports their time ratio.
func BenchmarkBrowseRatio(b *testing.B) {
	n := setup(b)
	u := pageURL(n)
	c := newClient()
	d := newDriver(b, n)
	defer d.Close()
	// Warm both connections.
	_ = bareTyped(c, u)
	_ = browse(d)
	var bare, drv, bareA time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := bareTyped(c, u); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := browse(d); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := bareAny(c, u); err != nil {
			b.Fatal(err)
		}
		bare += t1.Sub(t0)
		drv += t2.Sub(t1)
		bareA += time.Since(t2)
	}
	ratio := float64(drv) / float64(bare)
	b.ReportMetric(ratio, "driver/bare-typed")
	b.ReportMetric(float64(drv)/float64(bareA), "driver/bare-any")
	b.ReportMetric(float64(bare.Milliseconds())/float64(b.N), "bare-ms/op")
	b.ReportMetric(float64(drv.Milliseconds())/float64(b.N), "driver-ms/op")
}
