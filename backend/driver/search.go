package driver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Search modes of SearchRequest.Query.
const (
	SearchBM25   = "bm25"
	SearchHybrid = "hybrid"
	// SearchNearText searches near the vector the collection's vectorizer makes of the words.
	SearchNearText = "nearText"
)

// Fusions of a hybrid search: how its keyword and vector rankings are merged.
const (
	// FusionRanked merges by rank (reciprocal rank fusion).
	FusionRanked = "ranked"
	// FusionRelativeScore merges the normalised scores (the database's default).
	FusionRelativeScore = "relativeScore"
)

// ExplainColumn is the column a search with Explain adds after the measure: the database's
// own account of a keyword or hybrid score.
const ExplainColumn = "explainScore"

// SearchRequest is one search of Driver.Search: exactly one of NearVector, Query or
// SimilarTo.
type SearchRequest struct {
	// NearVector searches by a vector, e.g. a row's own vector for "Find similar".
	NearVector []float64
	// Query searches by words, ranked by Mode.
	Query *string
	// Mode is SearchBM25 (the default once checked), SearchHybrid or SearchNearText; only
	// with Query.
	Mode string
	// Alpha weighs a hybrid search: 1 is all vector, 0 all keyword; only with SearchHybrid.
	Alpha *float64
	// Fusion is FusionRanked or FusionRelativeScore ("" the database's default); only with
	// SearchHybrid.
	Fusion string
	// SearchProperties are the properties whose words a bm25 or hybrid search matches; none
	// means every searchable one.
	SearchProperties []string
	// SimilarTo is the uuid of a row whose vector is searched near.
	SimilarTo string
	// TargetVector names the vector searched on a table with named vectors.
	TargetVector string
	// Properties are the columns returned; none means every selectable one.
	Properties []string
	// Filters narrow the matches exactly as Browse's filters narrow its rows (groups ORed
	// within, ANDed between).
	Filters []Filter
	// Explain asks for the database's explanation of each keyword or hybrid score, as the
	// last column (ExplainColumn); only with Query and a mode other than SearchNearText.
	Explain bool
}

// Check validates what no schema of the caller can say: exactly one search, hybrid-only
// alpha, a uuid. It fills the default mode and lower-cases the uuid, so the request reads
// the same in the query and in words. Callers run it before they connect; Search runs it
// again. Its errors are KindInvalidArgument with a message safe to show.
func (r *SearchRequest) Check() error {
	n := 0
	for _, set := range []bool{len(r.NearVector) > 0, r.Query != nil, r.SimilarTo != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return searchInvalid("give exactly one of nearVector, query or similarTo")
	}
	if r.Query != nil {
		if strings.TrimSpace(*r.Query) == "" {
			return searchInvalid("query is empty")
		}
		if r.Mode == "" {
			r.Mode = SearchBM25
		}
		if r.Mode != SearchBM25 && r.Mode != SearchHybrid && r.Mode != SearchNearText {
			return searchInvalid("mode must be %s, %s or %s", SearchBM25, SearchHybrid, SearchNearText)
		}
	} else if r.Mode != "" {
		return searchInvalid("mode goes with query")
	}
	if r.Alpha != nil && r.Mode != SearchHybrid {
		return searchInvalid("alpha goes with mode hybrid")
	}
	if r.Fusion != "" && r.Mode != SearchHybrid {
		return searchInvalid("fusion goes with mode hybrid")
	}
	if r.Fusion != "" && r.Fusion != FusionRanked && r.Fusion != FusionRelativeScore {
		return searchInvalid("fusion must be %s or %s", FusionRanked, FusionRelativeScore)
	}
	if len(r.SearchProperties) > 0 && r.Mode != SearchBM25 && r.Mode != SearchHybrid {
		return searchInvalid("searchProperties go with mode bm25 or hybrid")
	}
	if r.Explain && r.Measure() != "score" {
		return searchInvalid("a score is explained for mode bm25 or hybrid only")
	}
	if r.Alpha != nil && !(*r.Alpha >= 0 && *r.Alpha <= 1) {
		return searchInvalid("alpha must be between 0 and 1")
	}
	if r.SimilarTo != "" {
		if _, err := uuid.Parse(r.SimilarTo); err != nil || len(r.SimilarTo) != 36 {
			return searchInvalid("similarTo must be a row uuid like 00000000-0000-0000-0000-000000000000")
		}
		r.SimilarTo = strings.ToLower(r.SimilarTo)
	}
	return nil
}

// Measure is the _additional member that ranks the matches, and so the grid's last column:
// "distance" for a vector search, "score" for a keyword or hybrid one.
func (r *SearchRequest) Measure() string {
	if r.Query != nil && r.Mode != SearchNearText {
		return "score"
	}
	return "distance"
}

// Describe is the search in words, for an approval question or a result's first line, e.g.
// `bm25 "fixture" on vector title_vec`. Call it after Check.
func (r *SearchRequest) Describe() string {
	var what string
	switch {
	case len(r.NearVector) > 0:
		what = fmt.Sprintf("nearVector of %d numbers", len(r.NearVector))
	case r.Query != nil:
		what = fmt.Sprintf("%s %s", r.Mode, quoteText(cut(*r.Query, 200)))
		if r.Alpha != nil {
			what += " alpha " + strconv.FormatFloat(*r.Alpha, 'g', -1, 64)
		}
		if r.Fusion != "" {
			what += " fusion " + r.Fusion
		}
		if len(r.SearchProperties) > 0 {
			what += " in " + strings.Join(r.SearchProperties, ", ")
		}
	default:
		what = "objects similar to " + r.SimilarTo
	}
	if r.TargetVector != "" {
		what += " on vector " + r.TargetVector
	}
	if n := len(r.Filters); n == 1 {
		what += " where 1 filter holds"
	} else if n > 1 {
		what += fmt.Sprintf(" where %d filters hold", n)
	}
	return what
}

func searchInvalid(format string, args ...any) error {
	return Errorf(KindInvalidArgument, format, args...)
}

// quoteText quotes s with JSON escapes (HTML left alone), for a search in words.
func quoteText(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// cut cuts s to at most n bytes at a character start.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return strings.TrimSpace(s[:i]) + "…"
}
