package host

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
)

// BenchmarkBrowsePageThroughThePlugin: one 1,000-row page of 768-dimension vectors on a real
// weaviate-server, three ways in each iteration (so machine load hits all alike): a bare
// GET + typed JSON decode of the same URL, the driver in process, and the driver through
// the plugin binary. It reports each one's milliseconds and the ratios.
//
//	go test -run '^$' -bench BrowsePageThroughThePlugin -benchtime 20x ./backend/plugins/host
func BenchmarkBrowsePageThroughThePlugin(b *testing.B) {
	node := vectorNode(b, 1000)
	h := pluginHost(b)
	s := settingsFor(node)
	ctx := context.Background()
	plug, err := h.Open(ctx, "weaviate", s, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer plug.Close()
	local, err := weaviate.New(s)
	if err != nil {
		b.Fatal(err)
	}
	defer local.Close()
	for _, d := range []driver.Driver{plug, local} {
		if err := d.Connect(ctx); err != nil {
			b.Fatal(err)
		}
	}
	url := fmt.Sprintf("%s/v1/objects?class=%s&limit=1000&offset=0&include=vector", node.URL, vectorClass)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	bare := func() error {
		resp, err := client.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var p struct {
			Objects []struct {
				ID         string         `json:"id"`
				Properties map[string]any `json:"properties"`
				Vector     []float32      `json:"vector"`
			} `json:"objects"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			return err
		}
		if len(p.Objects) != 1000 {
			return fmt.Errorf("bare: %d objects", len(p.Objects))
		}
		return nil
	}
	browse := func(d driver.Driver) error {
		g, err := d.Browse(ctx, vectorClass, driver.Page{Limit: 1000}, nil, nil)
		if err == nil && len(g.Rows) != 1000 {
			err = fmt.Errorf("%d rows", len(g.Rows))
		}
		return err
	}
	// Warm every connection.
	_, _, _ = bare(), browse(local), browse(plug)
	var tBare, tLocal, tPlug time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := bare(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if err := browse(local); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := browse(plug); err != nil {
			b.Fatal(err)
		}
		tBare += t1.Sub(t0)
		tLocal += t2.Sub(t1)
		tPlug += time.Since(t2)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tBare.Microseconds())/1000/n, "bare-ms/op")
	b.ReportMetric(float64(tLocal.Microseconds())/1000/n, "inprocess-ms/op")
	b.ReportMetric(float64(tPlug.Microseconds())/1000/n, "plugin-ms/op")
	b.ReportMetric(float64(tPlug)/float64(tLocal), "plugin/inprocess")
	b.ReportMetric(float64(tPlug)/float64(tBare), "plugin/bare")
}
