package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/connections"
	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// transferRig is an ExplorerAPI connected to the shared fixture node (gRPC included, which
// exports walk), whose save and open dialogs answer with the paths the test sets: the
// window's real dialogs are answered in tests/e2e.
type transferRig struct {
	api     *ExplorerAPI
	id      string
	node    *weaviatenode.Node
	rec     *eventRecorder
	confirm *scriptedConfirmer
	save    string
	open    string
}

func newTransferRig(t *testing.T) *transferRig {
	t.Helper()
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	s, _ := newStore(t)
	saved := add(t, s, connections.Connection{Name: "Node", Type: "weaviate",
		Settings: driver.Settings{Host: node.Host, Port: node.Port, GRPCPort: node.GRPCPort}}, "")
	m := connections.NewManager(s, connections.ManagerOptions{Factory: weaviateFactory})
	t.Cleanup(m.Close)
	r := &transferRig{api: NewExplorerAPI(m), id: saved.ID, node: node, rec: &eventRecorder{}, confirm: &scriptedConfirmer{}}
	r.api.start(env{emit: r.rec, confirm: r.confirm, files: nativedialog.FileDialogs{
		Save: func(context.Context, string, string, []nativedialog.FileFilter) (string, error) { return r.save, nil },
		Open: func(context.Context, string, []nativedialog.FileFilter) (string, error) { return r.open, nil },
	}})
	if _, err := r.api.Connect(r.id); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestExportFromTheWindow(t *testing.T) {
	r := newTransferRig(t)
	t.Run("the whole table goes to the chosen file, with progress events", func(t *testing.T) {
		r.save = filepath.Join(t.TempDir(), "big") // no extension: the format's is added
		res, err := r.api.ExportTable("e1", r.id, fixtures.Big, dto.ExportRequestDTO{Format: "parquet"})
		if err != nil || res.Status != "done" || res.Rows != fixtures.BigCount || res.Path != r.save+".parquet" {
			t.Fatalf("%+v %v", res, err)
		}
		if st, err := os.Stat(res.Path); err != nil || st.Size() != res.Bytes {
			t.Fatalf("file %v %v", st, err)
		}
		progress := 0
		r.rec.mu.Lock()
		for i, n := range r.rec.names {
			if p, ok := r.rec.events[i].(dto.TransferProgressDTO); ok && n == EventTransferProgress && p.ID == "e1" && p.Total == fixtures.BigCount {
				progress++
			}
		}
		r.rec.mu.Unlock()
		if progress == 0 {
			t.Fatal("no progress event for e1")
		}
	})
	t.Run("a closed save dialog runs nothing", func(t *testing.T) {
		r.save = ""
		res, err := r.api.ExportTable("e2", r.id, fixtures.Big, dto.ExportRequestDTO{Format: "csv"})
		if err != nil || res.Status != "not_chosen" {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("the grid's filters apply", func(t *testing.T) {
		r.save = filepath.Join(t.TempDir(), "tail.csv")
		res, err := r.api.ExportTable("e3", r.id, fixtures.Big, dto.ExportRequestDTO{Format: "csv",
			Filters: []dto.FilterDTO{{Column: "n", Operator: "greater_or_equal", Value: "10040"}}})
		if err != nil || res.Status != "done" || res.Rows != 10 {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("Cancel stops it and leaves no file", func(t *testing.T) {
		dir := t.TempDir()
		r.save = filepath.Join(dir, "big.jsonl")
		done := make(chan dto.ExportResultDTO, 1)
		go func() {
			res, _ := r.api.ExportTable("e4", r.id, fixtures.Big, dto.ExportRequestDTO{Format: "jsonl"})
			done <- res
		}()
		deadline := time.Now().Add(30 * time.Second)
		for !r.rec.saw(EventTransferProgress, func(p any) bool { q, ok := p.(dto.TransferProgressDTO); return ok && q.ID == "e4" }) {
			if time.Now().After(deadline) {
				t.Fatal("no progress from e4")
			}
			time.Sleep(5 * time.Millisecond)
		}
		r.api.CancelTransfer("e4")
		res := <-done
		left, _ := os.ReadDir(dir)
		if res.Status != "cancelled" || len(left) != 0 {
			t.Fatalf("%+v, left %v", res, left)
		}
	})
}

func TestImportFromTheWindow(t *testing.T) {
	r := newTransferRig(t)
	dir := t.TempDir()
	lines := []string{"uuid,title,count"}
	for i := 1; i <= 30; i++ {
		count := fmt.Sprint(i)
		if i == 3 {
			count = "three"
		}
		lines = append(lines, fmt.Sprintf("%08d-0000-4000-8000-%012d,t%d,%s", 7, i, i, count))
	}
	path := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := r.node.DoJSON(context.Background(), http.MethodPost, "/v1/schema", map[string]any{"class": "WindowImport", "vectorizer": "none",
		"properties": []any{map[string]any{"name": "title", "dataType": []string{"text"}}, map[string]any{"name": "count", "dataType": []string{"int"}}}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = r.node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/WindowImport", nil, nil)
		_ = r.node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/WindowCreated", nil, nil)
	})

	t.Run("the preview shows the first rows and the cell the table's type refuses, before anything is written", func(t *testing.T) {
		r.open = path
		chosen, err := r.api.ChooseImportFile()
		if err != nil || chosen != path {
			t.Fatalf("%q %v", chosen, err)
		}
		p, err := r.api.PreviewImport(r.id, "WindowImport", chosen)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Exists || len(p.Rows) != 20 || strings.Join(p.Targets, ",") != "uuid,title,count" || p.Problems["2"]["count"] == "" || len(p.Problems) != 1 {
			t.Fatalf("%+v", p)
		}
	})
	t.Run("the import writes the rows that fit and names the one that does not, with its line", func(t *testing.T) {
		res, err := r.api.ImportFile("i1", r.id, "WindowImport", path, nil)
		if err != nil || res.Status != "done" || res.Written != 29 || res.Skipped != 1 || len(res.Rejected) != 1 || res.Rejected[0].Line != 4 {
			t.Fatalf("%+v %v", res, err)
		}
	})
	t.Run("into a table that does not exist: No creates and writes nothing", func(t *testing.T) {
		r.confirm.yes = false
		res, err := r.api.ImportFile("i2", r.id, "WindowCreated", path, map[string]string{"count": "-"})
		if err != nil || res.Status != "not_confirmed" || len(r.confirm.asked) != 1 || !strings.Contains(r.confirm.asked[0], "Create WindowCreated") {
			t.Fatalf("%+v %v %q", res, err, r.confirm.asked)
		}
		if err := r.node.DoJSON(context.Background(), http.MethodGet, "/v1/schema/WindowCreated", nil, nil); err == nil {
			t.Fatal("WindowCreated exists")
		}
	})
	t.Run("Yes creates it from the file's columns and writes every row", func(t *testing.T) {
		r.confirm.yes = true
		res, err := r.api.ImportFile("i3", r.id, "WindowCreated", path, map[string]string{"count": "-"})
		if err != nil || res.Status != "done" || !res.Created || res.Written != 30 {
			t.Fatalf("%+v %v", res, err)
		}
	})
}

// saw tells whether an event named name whose payload matches has been emitted.
func (r *eventRecorder) saw(name string, match func(any) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, n := range r.names {
		if n == name && match(r.events[i]) {
			return true
		}
	}
	return false
}

// A result the window holds (an editor result, Find similar's matches) is exported as it
// shows, numbers exact and typed.
func TestExportAGridTheWindowHolds(t *testing.T) {
	r := newTransferRig(t)
	g, err := r.api.Browse(r.id, fixtures.Big, dto.BrowseRequestDTO{Offset: 0, Limit: 25})
	if err != nil {
		t.Fatal(err)
	}
	r.save = filepath.Join(t.TempDir(), "result.jsonl")
	res, err := r.api.ExportGrid("Big result", "jsonl", g)
	if err != nil || res.Status != "done" || res.Rows != 25 {
		t.Fatalf("%+v %v", res, err)
	}
	b, err := os.ReadFile(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 25 || !strings.Contains(lines[0], `"n":`) || strings.Contains(lines[0], `"n":"`) {
		t.Fatalf("file: %q", lines[0])
	}
}
