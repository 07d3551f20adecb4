package app

import (
	"strings"
	"testing"

	"app/app/dto"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// uuidsAndDistances reads a Find similar grid: each row's uuid and distance text.
func uuidsAndDistances(t *testing.T, s dto.SimilarResultDTO) (ids, dists []string) {
	t.Helper()
	dc := -1
	for j, c := range s.Grid.Columns {
		if c.Name == "distance" {
			dc = j
		}
	}
	if dc < 0 || len(s.Grid.Columns) == 0 || s.Grid.Columns[0].Name != "uuid" {
		t.Fatalf("columns = %+v; want uuid first and a distance column", s.Grid.Columns)
	}
	for _, r := range s.Grid.Rows {
		ids = append(ids, *r[0])
		dists = append(dists, *r[dc])
	}
	return ids, dists
}

// Issue 14: Find similar is a near-vector search with the row's vector, results with distance.
func TestFindSimilar(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)

	t.Run("the rows nearest the row's vector come best first with their distance, the row itself at 0", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		s, err := api.FindSimilar(id, editTable, map[string]any{"uuid": editIDs[0]}, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		ids, dists := uuidsAndDistances(t, s)
		if strings.Join(ids, ",") != strings.Join(editIDs, ",") || dists[0] != "0" || s.Dimensions != 3 {
			t.Fatalf("matches = %v at %v (%d dims); want %v, the row first at distance 0, 3 dims", ids, dists, s.Dimensions, editIDs)
		}
	})

	t.Run("a table with named vectors searches the vector chosen, and asks for one when it has several", func(t *testing.T) {
		api, id := connected(t, node)
		north := fixtures.ID(fixtures.NamedVectors, 1)
		if _, err := api.FindSimilar(id, fixtures.NamedVectors, map[string]any{"uuid": north}, "", 0); err == nil || !strings.Contains(err.Error(), "several named vectors: choose one of body_vec, title_vec") {
			t.Fatalf("no vector named: err = %v; want the choices named", err)
		}
		s, err := api.FindSimilar(id, fixtures.NamedVectors, map[string]any{"uuid": north}, "title_vec", 2)
		if err != nil {
			t.Fatal(err)
		}
		ids, _ := uuidsAndDistances(t, s)
		want := []string{north, fixtures.ID(fixtures.NamedVectors, 2)}
		if strings.Join(ids, ",") != strings.Join(want, ",") || s.TargetVector != "title_vec" {
			t.Fatalf("matches on title_vec = %v (%s); want %v", ids, s.TargetVector, want)
		}
		if _, err := api.FindSimilar(id, fixtures.NamedVectors, map[string]any{"uuid": north}, "nope", 0); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") {
			t.Fatalf("unknown vector: err = %v; want invalid_argument", err)
		}
	})

	t.Run("a row that no longer exists is not_found", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		_, err := api.FindSimilar(id, editTable, map[string]any{"uuid": "5e0c1a52-0000-4000-8000-0000000000ff"}, "", 0)
		if err == nil || !strings.HasPrefix(err.Error(), "not_found: ") {
			t.Fatalf("err = %v; want not_found", err)
		}
	})
}
