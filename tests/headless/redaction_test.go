package headless

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// SPEC.md B "Authentication" 5 and issue 11: error text is redacted before it leaves the
// process. A real weaviate-server started with an API key answers a statement with an error
// that echoes that key; the key reaches neither the MCP client, nor the app log, nor the
// activity database, nor any other file of the config dir.
func TestADriverErrorCarryingTheAPIKeyIsRedactedEverywhere(t *testing.T) {
	weaviatetest.RequireBinary(t)
	ctx := context.Background()
	node := weaviatetest.Start(t, weaviatenode.APIKey)
	key := node.APIKey
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{
		"class": "Article", "vectorizer": "none",
		"properties": []any{map[string]any{"name": "title", "dataType": []string{"text"}}},
	}, nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dev := publishDev(t, "1.0.0")
	if _, stderr, err := run(t, env(dev.Env()...), "", "--config-dir", dir, "plugin", "install", "weaviate"); err != nil {
		t.Fatalf("plugin install: %v: %s", err, stderr)
	}
	if _, stderr, err := run(t, env(), key+"\n", "--config-dir", dir, "connection", "add", "--name", "keyed", "--type", "weaviate",
		"--host", node.Host, "--port", fmt.Sprint(node.Port), "--auth-method", "API Key", "--api-key-stdin"); err != nil {
		t.Fatalf("connection add: %v: %s", err, stderr)
	}
	tok := createToken(t, dir, "--name", "redaction", "--level", "readOnly")
	cmd, hs, logs := startHeadless(t, dir, env(dev.Env()...), "--config-dir", dir)

	// weaviate-server names an unknown sort property in its error: here, the API key.
	query := `{ Get { Article(sort: [{path: ["` + key + `"]}]) { title } } }`
	answer := mcpPost(ctx, hs.Port, mcpRequest{Method: "tools/call", Authorization: "Bearer " + tok.Token,
		Params: map[string]any{"name": "execute_query", "arguments": map[string]any{"connection": "keyed", "query": query}}}).Body

	t.Run("the tool error reaches the client with the key masked", func(t *testing.T) {
		if !strings.Contains(answer, `"isError":true`) || !strings.Contains(answer, "query_failed: ") {
			t.Fatalf("want the tool error query_failed, got %s", answer)
		}
		if strings.Contains(answer, key) {
			t.Fatalf("the API key reached the client: %s", answer)
		}
		// The driver masks its own key ("[redacted]"); the app's redaction (backend/redact,
		// "[REDACTED]") catches whatever a driver lets through. Either mask proves the echo.
		if !strings.Contains(strings.ToLower(answer), "[redacted]") {
			t.Fatalf("the driver's error did not echo the key, so this test proves nothing: %s", answer)
		}
	})

	_ = cmd.Process.Signal(os.Interrupt)
	_ = cmd.Wait() // also waits until the app's output is all in logs
	t.Run("the key is in no file of the config dir (the activity database, the logs) and not in the app's output", func(t *testing.T) {
		if strings.Contains(logs.String(), key) {
			t.Fatal("the API key is in the app's log output")
		}
		seen := 0
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			seen++
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if bytes.Contains(b, []byte(key)) {
				t.Errorf("the API key is in %s", path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "activity.db")); err != nil {
			entries, _ := os.ReadDir(dir)
			t.Fatalf("no activity database to search (%v); config dir holds %v", err, entries)
		}
		t.Logf("searched %d files", seen)
	})
}
