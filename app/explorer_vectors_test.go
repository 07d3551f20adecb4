package app

import (
	"encoding/json"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestExplorerVectors(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	api, id := connected(t, node)

	t.Run("full vectors by key, as the database holds them, in the keys' order; an unknown key is null", func(t *testing.T) {
		createEditTable(t, node)
		gone := "5e0c1a52-0000-4000-8000-0000000000ff"
		got, err := api.Vectors(id, editTable, []map[string]any{uuidKey(editIDs[2]), uuidKey(gone), uuidKey(editIDs[0])})
		if err != nil {
			t.Fatal(err)
		}
		var a, c []float64
		if len(got) != 3 || got[1] != nil || got[0] == nil || got[2] == nil || json.Unmarshal([]byte(*got[2]), &a) != nil || json.Unmarshal([]byte(*got[0]), &c) != nil {
			t.Fatalf("Vectors = %v", got)
		}
		if len(a) != 3 || a[0] != 0 || a[1] != 1 || c[0] != 2 {
			t.Fatalf("vectors %v and %v; want [0 1 0] and [2 1 0]", a, c)
		}
	})

	t.Run("named vectors come whole, by name", func(t *testing.T) {
		north := fixtures.ID(fixtures.NamedVectors, 1)
		got, err := api.Vectors(id, fixtures.NamedVectors, []map[string]any{uuidKey(north)})
		if err != nil || len(got) != 1 || got[0] == nil {
			t.Fatalf("Vectors = %v, %v", got, err)
		}
		var byName map[string][]float64
		if err := json.Unmarshal([]byte(*got[0]), &byName); err != nil || len(byName["title_vec"]) != 3 || len(byName["body_vec"]) != 4 {
			t.Fatalf("Vectors = %v (%v)", got, err)
		}
	})

	t.Run("a uuid that is not one is refused by the driver's key rule before any object is read", func(t *testing.T) {
		if _, err := api.Vectors(id, fixtures.Typed, []map[string]any{uuidKey("nope")}); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") || !strings.Contains(err.Error(), "not a UUID") {
			t.Fatalf("err = %v", err)
		}
	})

	t.Run("a key that names another column than the table's key is refused before anything is read", func(t *testing.T) {
		if _, err := api.Vectors(id, fixtures.Typed, []map[string]any{{"title": "Alpha"}}); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") || !strings.Contains(err.Error(), `names "title", which is not a key column`) {
			t.Fatalf("err = %v", err)
		}
	})
}

// uuidKey is the key of the Weaviate object id.
func uuidKey(id string) map[string]any { return map[string]any{"uuid": id} }
