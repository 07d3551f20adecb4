package driver

import (
	"errors"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// Check is what a caller runs before it connects: it refuses without a table, and fills
// the defaults the query and the words share.
func TestCheck(t *testing.T) {
	t.Run("query without mode is bm25", func(t *testing.T) {
		r := SearchRequest{Query: ptr("x")}
		if err := r.Check(); err != nil || r.Mode != SearchBM25 {
			t.Fatalf("%q %v", r.Mode, err)
		}
	})
	t.Run("similarTo is lower-cased", func(t *testing.T) {
		r := SearchRequest{SimilarTo: "0A1B2C3D-0000-4000-8000-00000000000F"}
		if err := r.Check(); err != nil || r.SimilarTo != "0a1b2c3d-0000-4000-8000-00000000000f" {
			t.Fatalf("%q %v", r.SimilarTo, err)
		}
	})
	t.Run("Check errors are invalid_argument", func(t *testing.T) {
		r := SearchRequest{}
		var de *Error
		if err := r.Check(); !errors.As(err, &de) || de.Kind != KindInvalidArgument {
			t.Fatalf("%#v", err)
		}
	})
}

// The search in words and its ranking column are what a caller shows next to the result.
func TestDescribeAndMeasure(t *testing.T) {
	cases := []struct {
		rule, words, measure string
		req                  SearchRequest
	}{
		{"a vector search is described by its size and ranked by distance", "nearVector of 3 numbers on vector title_vec", "distance",
			SearchRequest{NearVector: []float64{1, 2, 3}, TargetVector: "title_vec"}},
		{"a keyword search is described by its quoted words and ranked by score", `bm25 "a \"b\""`, "score",
			SearchRequest{Query: ptr(`a "b"`)}},
		{"a hybrid search names its alpha", `hybrid "x" alpha 0.5`, "score",
			SearchRequest{Query: ptr("x"), Mode: SearchHybrid, Alpha: ptr(0.5)}},
		{"a long query is cut in the words", `bm25 "` + strings.Repeat("q", 200) + `…"`, "score",
			SearchRequest{Query: ptr(strings.Repeat("q", 300))}},
		{"a similarity search names the row", "objects similar to 0a1b2c3d-0000-4000-8000-000000000001", "distance",
			SearchRequest{SimilarTo: "0A1B2C3D-0000-4000-8000-000000000001"}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if err := c.req.Check(); err != nil {
				t.Fatal(err)
			}
			if got := c.req.Describe(); got != c.words {
				t.Fatalf("words %q", got)
			}
			if got := c.req.Measure(); got != c.measure {
				t.Fatalf("measure %q", got)
			}
		})
	}
}
