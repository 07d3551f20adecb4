package weaviate

import (
	"reflect"
	"testing"

	"app/backend/driver"
)

// Contract 3: the collection's searches by words are described by the driver, as the search
// panel and vector_search offer them: bm25 first, hybrid weighed by alpha (keyword-only by
// default where no vectorizer makes vectors of the words, with a note saying why), nearText
// only where a vectorizer exists, and the words matched in the text the keyword index covers.
func TestTheCollectionDescribesItsSearchesByWords(t *testing.T) {
	off := false
	props := []property{
		{Name: "title", DataType: []string{"text"}},
		{Name: "tags", DataType: []string{"text[]"}},
		{Name: "secret", DataType: []string{"text"}, IndexSearchable: &off},
		{Name: "count", DataType: []string{"int"}},
	}
	names := func(ms []driver.SearchMode) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return out
	}
	plain := (&class{Class: "Plain", Vectorizer: "none", Properties: props}).searches()
	if got := names(plain); !reflect.DeepEqual(got, []string{modeBM25, modeHybrid}) {
		t.Fatalf("without a vectorizer: %v", got)
	}
	if plain[0].Measure != "score" || !plain[0].Explains || !reflect.DeepEqual(plain[0].TextColumns, []string{"title", "tags"}) {
		t.Fatalf("bm25: %+v", plain[0])
	}
	if a := plain[1].Params[0]; a.Key != paramAlpha || a.Default != "0" || a.Min != 0 || a.Max != 1 || plain[1].Note == "" {
		t.Fatalf("hybrid without a vectorizer: %+v", plain[1])
	}
	vectorized := (&class{Class: "Vec", Vectorizer: "text2vec-model2vec", Properties: props}).searches()
	if got := names(vectorized); !reflect.DeepEqual(got, []string{modeBM25, modeHybrid, modeNearText}) {
		t.Fatalf("with a vectorizer: %v", got)
	}
	if a := vectorized[1].Params[0]; a.Default != "0.75" || vectorized[1].Note != "" || vectorized[2].Measure != "distance" {
		t.Fatalf("hybrid and nearText with a vectorizer: %+v", vectorized[1:])
	}
	named := &class{Class: "Named", Properties: props, VectorConfig: map[string]any{
		"a_vec": map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}},
		"b_vec": map[string]any{"vectorizer": map[string]any{"text2vec-model2vec": map[string]any{}}},
	}}
	if got := names(named.searches()); !reflect.DeepEqual(got, []string{modeBM25, modeHybrid, modeNearText}) {
		t.Fatalf("a named vector with a vectorizer: %v", got)
	}
	for _, m := range vectorized {
		if err := m.Check(); err != nil {
			t.Fatal(err)
		}
	}
}
