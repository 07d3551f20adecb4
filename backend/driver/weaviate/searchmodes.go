package weaviate

import (
	"strconv"

	"app/backend/driver"
)

// Weaviate's searches by words (driver.SearchMode names): what the search panel offers and
// vector_search takes as mode.
const (
	modeBM25     = "bm25"
	modeHybrid   = "hybrid"
	modeNearText = "nearText"
)

// Hybrid's parameters and the fusions it takes.
const (
	paramAlpha          = "alpha"
	paramFusion         = "fusion"
	paramVector         = "vector"
	fusionRanked        = "ranked"
	fusionRelativeScore = "relativeScore"
)

// The measures a search ranks by: the _additional member and so the grid's last column.
const (
	measureScore    = "score"
	measureDistance = driver.DistanceColumn
)

// vectorizes reports whether the collection turns words into vectors: its own vectorizer,
// or (named vectors) a vectorizer of one of them. Without one, hybrid can only weigh keywords
// and nearText cannot run.
func (c *class) vectorizes() bool {
	if len(c.VectorConfig) == 0 {
		return c.Vectorizer != "" && c.Vectorizer != "none"
	}
	return len(c.vectorizedVectors()) > 0
}

// textColumns are the properties whose words bm25 and hybrid match: text ones the keyword
// index covers.
func (c *class) textColumns() []string {
	var out []string
	for _, p := range c.Properties {
		if p.searchable() {
			out = append(out, p.Name)
		}
	}
	return out
}

// searches are the collection's searches by words, as driver.TableInfo.Searches: bm25 first
// (the default), hybrid, and nearText where a vectorizer makes vectors of the words.
func (c *class) searches() []driver.SearchMode {
	text := c.textColumns()
	alpha := 0.75 // the server's own default where it can make a vector of the words
	var note string
	if !c.vectorizes() {
		alpha = 0
		note = c.Class + " has no vectorizer, so the server cannot turn the words into a vector: keep alpha at 0 (keywords only), give your own vector, or search near a vector."
	}
	out := []driver.SearchMode{
		{Name: modeBM25, Label: "Keyword (bm25)", Measure: measureScore, Columns: true, TextColumns: text, Explains: true,
			Hint: "ranks rows by the words they hold (BM25F)"},
		{Name: modeHybrid, Label: "Hybrid", Measure: measureScore, Columns: true, TextColumns: text, Explains: true, Vector: true, Note: note,
			Hint: "merges keyword and vector rankings, weighed by alpha (0 keywords only, 1 vectors only)",
			Params: []driver.SearchParam{
				{Key: paramAlpha, Label: "Alpha", Kind: driver.ParamNumber, Min: 0, Max: 1, Step: 0.05, Default: strconv.FormatFloat(alpha, 'g', -1, 64),
					MinLabel: "keywords only", MaxLabel: "vectors only", Help: "1 is all vector, 0 all keyword"},
				{Key: paramFusion, Label: "Fusion", Kind: driver.ParamEnum, Options: []string{fusionRelativeScore, fusionRanked},
					OptionLabels: map[string]string{"": "Server default (relative score)", fusionRelativeScore: "Relative score", fusionRanked: "Ranked"},
					Help:         "how the two rankings are merged"},
				{Key: paramVector, Label: "Your vector", Kind: driver.ParamVector,
					Help: "the vector half's vector, a JSON array of numbers: needed for alpha above 0 where the collection makes no vectors of words"},
			}},
	}
	if c.vectorizes() {
		out = append(out, driver.SearchMode{Name: modeNearText, Label: "Near text", Measure: measureDistance, Vector: true,
			Hint: "searches near the vector the collection's vectorizer makes of the words"})
	}
	return out
}
