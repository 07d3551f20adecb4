package app

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/vectormap"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// frames waits for map id's frames until the one Done (or an error), and returns them.
func frames(t *testing.T, rec *eventRecorder, id string, within time.Duration) []dto.MapFrameDTO {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		rec.mu.Lock()
		var out []dto.MapFrameDTO
		for i, n := range rec.names {
			if f, ok := rec.events[i].(dto.MapFrameDTO); ok && n == EventMapFrame && f.ID == id {
				out = append(out, f)
			}
		}
		rec.mu.Unlock()
		if len(out) > 0 && out[len(out)-1].Done {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("map %s: no last frame within %s", id, within)
	return nil
}

// cancelAtProgress records the events and cancels map id at its first progress: during the
// read, before its points are answered.
type cancelAtProgress struct {
	*eventRecorder
	id     string
	cancel func()
	once   sync.Once
}

func (c *cancelAtProgress) Emit(name string, data ...any) {
	c.eventRecorder.Emit(name, data...)
	if len(data) == 0 {
		return
	}
	if p, ok := data[0].(dto.TransferProgressDTO); ok && name == EventTransferProgress && p.ID == c.id {
		c.once.Do(c.cancel)
	}
}

// progressOf is map id's progress events so far.
func progressOf(rec *eventRecorder, id string) []dto.TransferProgressDTO {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []dto.TransferProgressDTO
	for i, n := range rec.names {
		if p, ok := rec.events[i].(dto.TransferProgressDTO); ok && n == EventTransferProgress && p.ID == id {
			out = append(out, p)
		}
	}
	return out
}

func unpackXY(b []byte) vectormap.Matrix {
	m := vectormap.NewMatrix(len(b)/8, 2)
	for i := range m.Data {
		m.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return m
}

// Issue 22: the Map tab's points and layout, against a real weaviate-server holding the demo's
// Paper (3,000 papers in 8 topics, its own 128-dim vector): a PCA frame first, then UMAP's frames,
// the last of which keeps each topic together (silhouette by topic above 0.5: the topics are
// separate clusters of the vectors, so a layout that keeps neighbours near must show them
// apart; an unrelated layout scores about 0); reopened, the layout is kept; and the messages
// for what cannot be mapped.
func TestMapOfPaper(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx := context.Background()
	if _, err := fixtures.LoadDemo(ctx, node); err != nil {
		t.Fatal(err)
	}
	if _, err := fixtures.LoadShowcase(ctx, node); err != nil {
		t.Fatal(err)
	}
	api, id, rec := explorerFor(t, node, "", 0)
	if _, err := api.Connect(id); err != nil {
		t.Fatal(err)
	}

	m, err := api.OpenMap("m1", id, fixtures.DemoPaper, dto.MapRequestDTO{})
	if err != nil {
		t.Fatal(err)
	}
	// Paper's own vector (beside its named title_vec) is the one a map takes unasked.
	if len(m.Keys) != fixtures.PaperCount || m.Dims != fixtures.PaperVectorDims || m.Vector != "" || m.Sampled || m.Matched != fixtures.PaperCount {
		t.Fatalf("points %d, dims %d, matched %d, sampled %v", len(m.Keys), m.Dims, m.Matched, m.Sampled)
	}
	var topic *dto.MapColumnDTO
	for i := range m.Columns {
		if m.Columns[i].Name == "topic" {
			topic = &m.Columns[i]
		}
	}
	if topic == nil {
		t.Fatalf("no topic column among %d", len(m.Columns))
	}
	// the read's progress is of the rows the table holds (its count), not of an unknown total
	if ps := progressOf(rec, "m1"); len(ps) == 0 || ps[0].Total != fixtures.PaperCount {
		t.Fatalf("progress %+v, want a total of %d rows", ps, fixtures.PaperCount)
	}
	fs := frames(t, rec, "m1", 2*time.Minute)
	if fs[0].Stage != "pca" || fs[len(fs)-1].Stage != "umap" || fs[len(fs)-1].Epoch != fs[len(fs)-1].Epochs {
		t.Fatalf("frames: first %s, last %s %d/%d", fs[0].Stage, fs[len(fs)-1].Stage, fs[len(fs)-1].Epoch, fs[len(fs)-1].Epochs)
	}
	label := map[string]int{}
	labels := make([]int, len(m.Keys))
	for i, v := range topic.Values {
		if _, ok := label[*v]; !ok {
			label[*v] = len(label)
		}
		labels[i] = label[*v]
	}
	if len(label) != 8 {
		t.Fatalf("%d topics", len(label))
	}
	pca := vectormap.Silhouette(unpackXY(fs[0].XY), labels)
	umap := vectormap.Silhouette(unpackXY(fs[len(fs)-1].XY), labels)
	t.Logf("silhouette by topic: PCA %.3f, UMAP %.3f (%d frames)", pca, umap, len(fs))
	if umap < 0.5 {
		t.Fatalf("the map's topics run together: silhouette %.3f", umap)
	}

	t.Run("reopened with the same rows, the layout is kept and sent at once", func(t *testing.T) {
		again, err := api.OpenMap("m2", id, fixtures.DemoPaper, dto.MapRequestDTO{})
		if err != nil || !again.Kept || len(again.Keys) != fixtures.PaperCount {
			t.Fatalf("%v kept=%v", err, again.Kept)
		}
		fs2 := frames(t, rec, "m2", 10*time.Second)
		if string(fs2[len(fs2)-1].XY) != string(fs[len(fs)-1].XY) {
			t.Fatal("the kept layout differs from the one computed")
		}
	})
	t.Run("a named vector by name, on fewer points", func(t *testing.T) {
		if _, err := api.OpenMap("m3", id, fixtures.DemoPaper, dto.MapRequestDTO{Vector: "title_vec", Max: 500}); err != nil {
			t.Fatal(err)
		}
		if fs := frames(t, rec, "m3", time.Minute); fs[len(fs)-1].Error != "" {
			t.Fatal(fs[len(fs)-1].Error)
		}
	})
	t.Run("a collection with only named vectors: unasked, the map says to choose one and names them; asked, it maps that one", func(t *testing.T) {
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "OnlyNamed", "vectorConfig": map[string]any{
			"first":  map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat"},
			"second": map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat"},
		}, "properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": "OnlyNamed", "properties": map[string]any{"n": i},
				"vectors": map[string]any{"first": []float32{float32(i), 1, 0}, "second": []float32{1, float32(i)}}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := api.OpenMap("named-unasked", id, "OnlyNamed", dto.MapRequestDTO{}); err == nil || !strings.Contains(err.Error(), "choose one of first, second") {
			t.Fatalf("unasked: %v", err)
		}
		m, err := api.OpenMap("named-second", id, "OnlyNamed", dto.MapRequestDTO{Vector: "second"})
		if err != nil || len(m.Keys) != 3 || m.Dims != 2 || m.Vector != "second" {
			t.Fatalf("%v: %d points of %d dims, vector %q", err, len(m.Keys), m.Dims, m.Vector)
		}
		if fs := frames(t, rec, "named-second", time.Minute); fs[len(fs)-1].Error != "" {
			t.Fatal(fs[len(fs)-1].Error)
		}
	})
	t.Run("over Max rows, a uniform sample, saying so", func(t *testing.T) {
		s, err := api.OpenMap("m4", id, fixtures.DemoPaper, dto.MapRequestDTO{Max: 1000})
		if err != nil || !s.Sampled || len(s.Keys) != 1000 || s.Matched != fixtures.PaperCount {
			t.Fatalf("%v: sampled %v, %d points of %d", err, s.Sampled, len(s.Keys), s.Matched)
		}
		frames(t, rec, "m4", time.Minute)
	})
	t.Run("the grid's filters choose the rows", func(t *testing.T) {
		f, err := api.OpenMap("m5", id, fixtures.DemoPaper, dto.MapRequestDTO{Filters: []dto.FilterDTO{{Column: "topic", Operator: "equals", Value: "astronomy"}}})
		if err != nil || len(f.Keys) != fixtures.PaperCount/8 {
			t.Fatalf("%v: %d points", err, len(f.Keys))
		}
		frames(t, rec, "m5", time.Minute)
	})

	t.Run("a collection without vectors says so", func(t *testing.T) {
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "NoVectors", "vectorizer": "none", "properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": "NoVectors", "properties": map[string]any{"n": i}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err := api.OpenMap("m6", id, "NoVectors", dto.MapRequestDTO{})
		if err == nil || !strings.Contains(err.Error(), "none of the 3 rows of NoVectors has a vector: there is nothing to map") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("vectors of different lengths say so", func(t *testing.T) {
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "Mixed", "vectorizer": "none", "vectorIndexConfig": map[string]any{"skip": true},
			"properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil); err != nil {
			t.Fatal(err)
		}
		for i, v := range [][]float32{{1, 0, 0}, {0, 1, 0, 0}} {
			if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": "Mixed", "vector": v, "properties": map[string]any{"n": i}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err := api.OpenMap("m7", id, "Mixed", dto.MapRequestDTO{})
		if err == nil || !strings.Contains(err.Error(), "have different lengths") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("a cancelled map says so or stops its layout, and leaves nothing running", func(t *testing.T) {
		api.CancelTransfer("m8") // nothing running: does nothing
		running := func() bool { return api.transfers.Has("m8") }
		stop := make(chan struct{})
		go func() { // cancel as soon as the map runs: during the read, or its layout
			for !running() {
				select {
				case <-stop:
					return
				default:
					time.Sleep(time.Millisecond)
				}
			}
			api.CancelTransfer("m8")
		}()
		_, err := api.OpenMap("m8", id, fixtures.DemoPaper, dto.MapRequestDTO{Fresh: true})
		close(stop)
		if err != nil && !strings.HasPrefix(err.Error(), "cancelled: the map's read was cancelled") {
			t.Fatalf("%v", err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for running() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if running() {
			t.Fatal("the cancelled map is still running")
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for i, n := range rec.names {
			// a layout stopped says so in its last frame (the window's spinner ends there)
			if f, ok := rec.events[i].(dto.MapFrameDTO); ok && n == EventMapFrame && f.ID == "m8" && f.Done && !f.Cancelled {
				t.Fatalf("a cancelled map finished its layout: %+v", f.Stage)
			}
		}
		if err == nil {
			found := false
			for i, n := range rec.names {
				if f, ok := rec.events[i].(dto.MapFrameDTO); ok && n == EventMapFrame && f.ID == "m8" && f.Cancelled {
					found = true
				}
			}
			if !found {
				t.Fatal("the read finished, but the stopped layout sent no last frame saying so")
			}
		}
	})
	t.Run("a cancel during the read, at its first progress, says the read was cancelled and lays nothing out", func(t *testing.T) {
		stopper := &cancelAtProgress{eventRecorder: rec, id: "m9", cancel: func() { api.CancelTransfer("m9") }}
		api.start(env{emit: stopper})
		defer api.start(env{emit: rec})
		// Fresh: the layout kept from m1 would answer at once, with no read to cancel
		_, err := api.OpenMap("m9", id, fixtures.DemoPaper, dto.MapRequestDTO{Fresh: true})
		if err == nil || !strings.HasPrefix(err.Error(), "cancelled: the map's read was cancelled") {
			t.Fatalf("a map cancelled during its read answered %v", err)
		}
		if api.transfers.Has("m9") {
			t.Fatal("the cancelled read is still running")
		}
		// one page of the walk was read (the scan's first 1,000 rows of 3,000), then it stopped
		ps := progressOf(rec, "m9")
		if len(ps) != 1 || ps[0].Rows <= 0 || ps[0].Rows >= fixtures.PaperCount || ps[0].Total != fixtures.PaperCount {
			t.Fatalf("progress %+v: want one step, part of the %d rows", ps, fixtures.PaperCount)
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for i, n := range rec.names {
			if f, ok := rec.events[i].(dto.MapFrameDTO); ok && n == EventMapFrame && f.ID == "m9" {
				t.Fatalf("a map cancelled during its read sent a frame: %+v", f)
			}
		}
	})

	t.Run("a kept layout is laid out again once the row count changed, then kept again", func(t *testing.T) {
		// a collection of its own: the rows other tests count are not touched
		const class = "MapGrows"
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none",
			"properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil); err != nil {
			t.Fatal(err)
		}
		add := func(i int) {
			v := []float32{float32(i % 2), float32(1 - i%2), 0.01 * float32(i%7), 0.01 * float32(i%5)} // two clusters
			if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": class, "vector": v, "properties": map[string]any{"n": i}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 40; i++ {
			add(i)
		}
		open := func(mid string) dto.MapPointsDTO {
			t.Helper()
			m, err := api.OpenMap(mid, id, class, dto.MapRequestDTO{})
			if err != nil {
				t.Fatal(err)
			}
			if fs := frames(t, rec, mid, time.Minute); fs[len(fs)-1].Error != "" || fs[len(fs)-1].Cancelled {
				t.Fatalf("%s: %+v", mid, fs[len(fs)-1])
			}
			// the layout is kept as its run ends
			deadline := time.Now().Add(30 * time.Second)
			for api.transfers.Has(mid) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			return m
		}
		if m := open("g1"); m.Kept || len(m.Keys) != 40 {
			t.Fatalf("first map: kept %v, %d points", m.Kept, len(m.Keys))
		}
		if m := open("g2"); !m.Kept || len(m.Keys) != 40 {
			t.Fatalf("reopened with the same rows: kept %v, %d points", m.Kept, len(m.Keys))
		}
		add(40)
		if m := open("g3"); m.Kept || len(m.Keys) != 41 || m.Matched != 41 {
			t.Fatalf("reopened after a row was added: kept %v, %d points of %d", m.Kept, len(m.Keys), m.Matched)
		}
		if ps := progressOf(rec, "g3"); len(ps) == 0 || ps[0].Total != 41 {
			t.Fatalf("progress %+v, want a total of 41 rows", ps)
		}
		if m := open("g4"); !m.Kept || len(m.Keys) != 41 {
			t.Fatalf("reopened with no change since: kept %v, %d points", m.Kept, len(m.Keys))
		}
	})
}

// Issue 22: Save picture… writes the PNG the window drew where the save dialog says (the
// dialog is the one thing answered here by a function; the e2e answers the real one for
// exports), readable by others, and refuses what is not a PNG.
func TestSaveMapImage(t *testing.T) {
	api := NewExplorerAPI(nil)
	dir := t.TempDir()
	chosen := filepath.Join(dir, "paper map")
	var title, suggested string
	api.start(env{files: nativedialog.FileDialogs{Save: func(_ context.Context, t, name string, _ []nativedialog.FileFilter) (string, error) {
		title, suggested = t, name
		return chosen, nil
	}}})
	png := []byte(pngSignature + "rest of the picture")
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)

	res, err := api.SaveMapImage("Paper", url)
	if err != nil || res.Status != "done" || res.Path != chosen+".png" || res.Bytes != int64(len(png)) {
		t.Fatalf("%+v %v", res, err)
	}
	if title != "Save the map of Paper" || suggested != "Paper map.png" {
		t.Fatalf("the dialog asked %q with %q", title, suggested)
	}
	got, err := os.ReadFile(chosen + ".png")
	if err != nil || string(got) != string(png) {
		t.Fatalf("the file holds %q: %v", got, err)
	}
	if st, _ := os.Stat(chosen + ".png"); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	for _, bad := range []string{"data:image/jpeg;base64,AAAA", "data:image/png;base64,not base64!", "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("GIF89a"))} {
		if _, err := api.SaveMapImage("x", bad); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") {
			t.Fatalf("%q: %v", bad[:22], err)
		}
	}
	chosen = ""
	if res, err := api.SaveMapImage("x", url); err != nil || res.Status != "not_chosen" {
		t.Fatalf("a closed dialog: %+v %v", res, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the directory holds %d files, want the picture alone (no temporary left)", len(entries))
	}
}
