package driver

import (
	"encoding/json"
	"testing"
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
			if got := PreviewText(c.typ, c.cell); got != c.want {
				t.Fatalf("PreviewText(%s, %s) = %s, want %s", c.typ, c.cell, got, c.want)
			}
		})
	}
}

// Whatever a vector cell holds, its preview is the cell itself or valid JSON, never empty.
func FuzzVectorPreview(f *testing.F) {
	for _, s := range []string{`[0.25,-1e-3,3,4,5]`, `[[1,2],[3,4]]`, `{"a":[1,2]}`, `[1,,2]`, `[`, `[]`, `[[`, `[1,{"a":1,"b":2}]`, ""} {
		f.Add("vector", s)
		f.Add("vectors", s)
	}
	f.Fuzz(func(t *testing.T, typ, cell string) {
		got := PreviewText(typ, cell)
		if got != cell && !json.Valid([]byte(got)) {
			t.Fatalf("PreviewText(%q, %q) = %q: neither the cell nor JSON", typ, cell, got)
		}
	})
}
