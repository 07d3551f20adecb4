package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 21, item 3: the scripts' commands, black-box on the built app with its real driver
// plugin and a real weaviate-server: export, import, query, with --json output for machines
// and errors on stderr as JSON.
func TestExportImportQueryCLI(t *testing.T) {
	weaviatetest.RequireBinary(t)
	ctx := context.Background()
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	const notes = 30
	objects := make([]any, notes)
	for i := range objects {
		objects[i] = map[string]any{"class": fixtures.Notes, "id": fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1),
			"properties": map[string]any{"body": fmt.Sprintf("note %d", i+1)}}
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objects}, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dev := publishDev(t, "1.0.0")
	if _, stderr, err := run(t, env(dev.Env()...), "", "--config-dir", dir, "plugin", "install", "weaviate"); err != nil {
		t.Fatalf("plugin install: %v: %s", err, stderr)
	}
	if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "add", "--name", "notes",
		"--host", node.Host, "--port", fmt.Sprint(node.Port), "--grpc-port", fmt.Sprint(node.GRPCPort)); err != nil {
		t.Fatalf("connection add: %v: %s", err, stderr)
	}
	app := func(args ...string) (string, string, error) {
		return run(t, env(), "", append([]string{"--config-dir", dir}, args...)...)
	}
	file := filepath.Join(t.TempDir(), "notes.jsonl")

	t.Run("export --json prints the summary, and the file holds every row", func(t *testing.T) {
		out, stderr, err := app("export", "notes", fixtures.Notes, "-o", file, "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var sum struct {
			Rows int    `json:"rows"`
			Path string `json:"path"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Rows != notes || sum.Path != file {
			t.Fatalf("printed %q (%v)", out, err)
		}
		b, _ := os.ReadFile(file)
		if n := strings.Count(string(b), "\n"); n != notes {
			t.Fatalf("%d lines in the file", n)
		}
	})
	t.Run("import --create makes a new collection from the file and writes every row", func(t *testing.T) {
		t.Cleanup(func() { _ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/NoteCopy", nil, nil) })
		out, stderr, err := app("import", "notes", "NoteCopy", file, "--create", "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var res struct {
			Summary struct {
				Written int  `json:"written"`
				Created bool `json:"created"`
			} `json:"summary"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Summary.Written != notes || !res.Summary.Created {
			t.Fatalf("printed %q (%v)", out, err)
		}
		t.Run("query reads it back", func(t *testing.T) {
			out, stderr, err := app("query", "notes", "{ Aggregate { NoteCopy { meta { count } } } }", "--json")
			if err != nil || !strings.Contains(out, fmt.Sprintf(`"count": %d`, notes)) {
				t.Fatalf("%v: %s %s", err, out, stderr)
			}
		})
	})
	t.Run("with --json an error goes to stderr as JSON with its kind, the exit is non-zero, and no file is left", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "nope.csv")
		out, stderr, err := app("export", "notes", "Nope", "-o", bad, "--json")
		var e struct {
			Error struct {
				Message string `json:"message"`
				Kind    string `json:"kind"`
			} `json:"error"`
		}
		// Every line on stderr is JSON (log entries too); the error is the one with "error".
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			var v map[string]any
			if json.Unmarshal([]byte(line), &v) != nil {
				t.Fatalf("stderr line %q is not JSON", line)
			}
			if v["error"] != nil {
				_ = json.Unmarshal([]byte(line), &e)
			}
		}
		if err == nil || out != "" || e.Error.Kind != "not_found" || !strings.Contains(e.Error.Message, "Nope") {
			t.Fatalf("exit %v, stdout %q, stderr %q", err, out, stderr)
		}
		if left, _ := os.ReadDir(filepath.Dir(bad)); len(left) != 0 {
			t.Fatalf("left %v", left)
		}
	})
	t.Run("query refuses a write, and nothing is deleted", func(t *testing.T) {
		id := "00000000-0000-4000-8000-000000000001"
		_, stderr, err := app("query", "notes", "DELETE /v1/objects/"+fixtures.Notes+"/"+id)
		if err == nil || !strings.Contains(stderr, "reads only") {
			t.Fatalf("exit %v, stderr %q", err, stderr)
		}
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects/"+fixtures.Notes+"/"+id, nil, nil); err != nil {
			t.Fatalf("the object is gone: %v", err)
		}
	})
}
