package app

import (
	"encoding/json"
	"strings"
	"testing"

	"app/internal/fixtures"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
)

// The grid's pages carry vector previews, read without decoding the numbers.
func TestVectorPreview(t *testing.T) {
	cases := []struct{ name, typ, cell, want string }{
		{"a vector: its length and first four numbers as written", "vector", `[0.25,-1e-3, 3 ,4,5,6]`, `{"dimensions":6,"head":[0.25,-1e-3,3,4]}`},
		{"a short vector keeps all of its numbers", "vector", `[1,2]`, `{"dimensions":2,"head":[1,2]}`},
		{"an empty vector has no dimensions", "vector", `[]`, `{"dimensions":0,"head":[]}`},
		{"a multi-vector previews its first vector and counts them", "vector", `[[1,2,3],[4,5,6]]`, `{"dimensions":3,"head":[1,2,3],"multi":2}`},
		{"text that is not JSON stays as it is", "vector", `[1,,2]`, `[1,,2]`},
		{"a vector of something other than numbers stays as it is", "vector", `[1,{"a":1,"b":2}]`, `[1,{"a":1,"b":2}]`},
		{"named vectors with one malformed stay as they are", "vectors", `{"a":[1,2],"b":[{"x":1,"y":2}]}`, `{"a":[1,2],"b":[{"x":1,"y":2}]}`},
		{"named vectors preview each by name", "vectors", `{"b":[1,2,3,4,5],"a":[9]}`, `{"a":{"dimensions":1,"head":[9]},"b":{"dimensions":5,"head":[1,2,3,4]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := previewText(c.typ, c.cell); got != c.want {
				t.Fatalf("previewText(%s, %s) = %s, want %s", c.typ, c.cell, got, c.want)
			}
		})
	}
}

func TestExplorerVectors(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	api, id := connected(t, node)

	t.Run("full vectors by uuid, as the database holds them; an unknown uuid is absent", func(t *testing.T) {
		createEditTable(t, node)
		gone := "5e0c1a52-0000-4000-8000-0000000000ff"
		got, err := api.Vectors(id, editTable, []string{editIDs[0], editIDs[2], gone})
		if err != nil {
			t.Fatal(err)
		}
		var a, c []float64
		if len(got) != 2 || json.Unmarshal([]byte(got[editIDs[0]]), &a) != nil || json.Unmarshal([]byte(got[editIDs[2]]), &c) != nil {
			t.Fatalf("Vectors = %v", got)
		}
		if len(a) != 3 || a[0] != 0 || a[1] != 1 || c[0] != 2 {
			t.Fatalf("vectors %v and %v; want [0 1 0] and [2 1 0]", a, c)
		}
	})

	t.Run("named vectors come whole, by name", func(t *testing.T) {
		north := fixtures.ID(fixtures.NamedVectors, 1)
		got, err := api.Vectors(id, fixtures.NamedVectors, []string{north})
		if err != nil {
			t.Fatal(err)
		}
		var byName map[string][]float64
		if err := json.Unmarshal([]byte(got[north]), &byName); err != nil || len(byName["title_vec"]) != 3 || len(byName["body_vec"]) != 4 {
			t.Fatalf("Vectors = %v (%v)", got, err)
		}
	})

	t.Run("a uuid that is not one is refused before the database is asked", func(t *testing.T) {
		if _, err := api.Vectors(id, editTable, []string{"nope"}); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") {
			t.Fatalf("err = %v", err)
		}
	})
}

// Whatever a vector cell holds, its preview is the cell itself or valid JSON, never empty.
func FuzzVectorPreview(f *testing.F) {
	for _, s := range []string{`[0.25,-1e-3,3,4,5]`, `[[1,2],[3,4]]`, `{"a":[1,2]}`, `[1,,2]`, `[`, `[]`, `[[`, `[1,{"a":1,"b":2}]`, ""} {
		f.Add("vector", s)
		f.Add("vectors", s)
	}
	f.Fuzz(func(t *testing.T, typ, cell string) {
		got := previewText(typ, cell)
		if got != cell && !json.Valid([]byte(got)) {
			t.Fatalf("previewText(%q, %q) = %q: neither the cell nor JSON", typ, cell, got)
		}
	})
}
