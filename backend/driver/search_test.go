package driver

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// Check is what a caller runs before it connects: it needs no table, refuses what goes with
// words on any other search, and lower-cases a row's uuid so the query and the words agree.
func TestCheck(t *testing.T) {
	refused := []struct {
		rule, says string
		req        SearchRequest
	}{
		{"no search at all is refused", "exactly one", SearchRequest{}},
		{"two searches at once are refused", "exactly one", SearchRequest{SimilarTo: Key{"id": "r"}, Vector: []float64{1}}},
		{"a vector with words and a row is refused", "exactly one", SearchRequest{Query: ptr("x"), SimilarTo: Key{"id": "r"}, Vector: []float64{1}}},
		{"empty words are refused", "empty", SearchRequest{Query: ptr("  ")}},
		{"a mode goes with words", "mode goes with query", SearchRequest{Vector: []float64{1}, Mode: "m"}},
		{"params go with words", "params go with query", SearchRequest{Vector: []float64{1}, Params: map[string]string{"a": "1"}}},
		{"search columns go with words", "searchColumns go with query", SearchRequest{SimilarTo: Key{"id": "0a1b2c3d-0000-4000-8000-00000000000f"}, SearchColumns: []string{"t"}}},
		{"an explanation goes with words", "by words only", SearchRequest{Vector: []float64{1}, Explain: true}},
		{"an empty row key is refused", "similarTo is empty", SearchRequest{SimilarTo: Key{}}},
		{"a vector with a number that is not finite is refused", "not finite", SearchRequest{Vector: []float64{1, math.Inf(1)}}},
	}
	for _, c := range refused {
		t.Run(c.rule, func(t *testing.T) {
			var de *Error
			if err := c.req.Check(); !errors.As(err, &de) || de.Kind != KindInvalidArgument || !strings.Contains(de.Msg, c.says) {
				t.Fatalf("%#v", err)
			}
		})
	}
}

// CheckMode holds a search by words to the modes the table's driver described, and nothing
// else: the host knows no mode by name.
func TestCheckModeHoldsTheRequestToTheDescribedModes(t *testing.T) {
	info := &TableInfo{Name: "Docs", Searches: []SearchMode{
		{Name: "plain", Label: "Plain", Measure: "score", Columns: true, TextColumns: []string{"title", "body"}, Explains: true},
		{Name: "mixed", Label: "Mixed", Measure: "score", Params: []SearchParam{
			{Key: "weight", Label: "Weight", Kind: ParamNumber, Min: 0, Max: 1},
			{Key: "merge", Label: "Merge", Kind: ParamEnum, Options: []string{"rank", "sum"}},
		}},
		{Name: "own", Label: "Own", Measure: "score", Params: []SearchParam{{Key: "own", Label: "Own vector", Kind: ParamVector}}},
	}}
	t.Run("no mode is the first, filled in", func(t *testing.T) {
		r := SearchRequest{Query: ptr("x")}
		if m, err := r.CheckMode(info); err != nil || r.Mode != "plain" || m.Name != "plain" {
			t.Fatalf("%q %v", r.Mode, err)
		}
	})
	t.Run("a mode's parameters within their bounds pass, numbers as the driver reads them", func(t *testing.T) {
		r := SearchRequest{Query: ptr("x"), Mode: "mixed", Params: map[string]string{"weight": " .250 ", "merge": "sum"}}
		if _, err := r.CheckMode(info); err != nil || r.Params["weight"] != "0.25" {
			t.Fatalf("%v %v", r.Params, err)
		}
		if f, ok := r.Number("weight"); !ok || f != 0.25 {
			t.Fatalf("%v %v", f, ok)
		}
	})
	t.Run("words with a vector: the vector is the mode's vector parameter, said in words", func(t *testing.T) {
		r := SearchRequest{Query: ptr("x"), Mode: "own", Vector: []float64{0.5, -1}}
		if err := r.Check(); err != nil {
			t.Fatal(err)
		}
		if got := r.Describe(); got != `own "x" with a vector of 2 numbers` {
			t.Fatalf("before: %q", got)
		}
		if _, err := r.CheckMode(info); err != nil || r.Vector != nil || r.Params["own"] != "[0.5,-1]" {
			t.Fatalf("%v %v %v", r.Vector, r.Params, err)
		}
		if f, ok := r.Floats("own"); !ok || len(f) != 2 || f[1] != -1 {
			t.Fatalf("%v", f)
		}
		if got := r.Describe(); got != `own "x" own of 2 numbers` {
			t.Fatalf("after: %q", got)
		}
	})
	t.Run("a parameter not given is the mode's described default", func(t *testing.T) {
		withDefault := &TableInfo{Name: "D", Searches: []SearchMode{{Name: "m", Label: "M", Measure: "score",
			Params: []SearchParam{{Key: "weight", Kind: ParamNumber, Min: 0, Max: 1, Default: "0"}, {Key: "merge", Kind: ParamEnum, Options: []string{"a"}}}}}}
		r := SearchRequest{Query: ptr("x")}
		if _, err := r.CheckMode(withDefault); err != nil || len(r.Params) != 1 || r.Params["weight"] != "0" {
			t.Fatalf("%v %v", r.Params, err)
		}
	})
	refused := []struct {
		rule, says string
		kind       Kind
		info       *TableInfo
		req        SearchRequest
	}{
		{"a mode the table lacks is refused, naming its modes", `no search mode "fuzzy" (it has: plain, mixed, own)`, KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "fuzzy"}},
		{"a table with no search by words says so", "cannot be searched by words", KindUnsupported, &TableInfo{Name: "V"},
			SearchRequest{Query: ptr("x")}},
		{"a parameter the mode lacks is refused, naming its parameters", `mode plain has no parameter "weight" (it has: none)`, KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Params: map[string]string{"weight": "1"}}},
		{"a number outside its bounds is refused", "weight must be between 0 and 1", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "mixed", Params: map[string]string{"weight": "2"}}},
		{"a number that is no number is refused", "weight must be a number", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "mixed", Params: map[string]string{"weight": "NaN"}}},
		{"a choice outside the options is refused", "merge must be one of rank, sum", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "mixed", Params: map[string]string{"merge": "max"}}},
		{"search columns need a mode that takes them", "takes no searchColumns", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "mixed", SearchColumns: []string{"title"}}},
		{"a search column must be one of the mode's", `no column "count" whose words mode plain matches (it has: title, body)`, KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), SearchColumns: []string{"count"}}},
		{"an explanation needs a mode that gives one", "gives no explanation", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "mixed", Explain: true}},
		{"a vector with words needs a mode that takes one", "mode plain takes no vector with its words", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Vector: []float64{1}}},
		{"a vector parameter that is no vector is refused", "own must be a vector", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "own", Params: map[string]string{"own": "[]"}}},
		{"a vector given twice is refused", "given twice", KindInvalidArgument, info,
			SearchRequest{Query: ptr("x"), Mode: "own", Vector: []float64{1}, Params: map[string]string{"own": "[2]"}}},
	}
	for _, c := range refused {
		t.Run(c.rule, func(t *testing.T) {
			var de *Error
			if _, err := c.req.CheckMode(c.info); !errors.As(err, &de) || de.Kind != c.kind || !strings.Contains(de.Msg, c.says) {
				t.Fatalf("%#v", err)
			}
		})
	}
}

// A described mode is checked where it crosses the contract: a form is never drawn from a
// broken one.
func TestASearchModeIsCheckedAsDescribed(t *testing.T) {
	bad := []SearchMode{
		{Label: "L", Measure: "score"},
		{Name: "n", Label: "L", Measure: "score", Params: []SearchParam{{Key: "k", Kind: "slider"}}},
		{Name: "n", Label: "L", Measure: "score", Params: []SearchParam{{Key: "k", Kind: ParamNumber, Min: 0, Max: 1, Default: "3"}}},
	}
	for _, m := range bad {
		if err := m.Check(); err == nil {
			t.Errorf("%+v passed", m)
		}
	}
	if err := (SearchMode{Name: "n", Label: "L", Measure: "score"}).Check(); err != nil {
		t.Fatal(err)
	}
}

// The search in words is what a caller shows next to the result and asks approval with; the
// ranking column ends the grid, before an explanation.
func TestDescribeAndMeasure(t *testing.T) {
	cases := []struct {
		rule, words string
		req         SearchRequest
	}{
		{"a vector search is described by its size", "a vector of 3 numbers on vector title_vec",
			SearchRequest{Vector: []float64{1, 2, 3}, TargetVector: "title_vec"}},
		{"words in the table's first mode are said as words", `words "a \"b\""`,
			SearchRequest{Query: ptr(`a "b"`)}},
		{"a named mode names its parameters in order", `mixed "x" merge rank weight 0.5 in title`,
			SearchRequest{Query: ptr("x"), Mode: "mixed", Params: map[string]string{"weight": "0.5", "merge": "rank"}, SearchColumns: []string{"title"}}},
		{"long words are cut", `words "` + strings.Repeat("q", 200) + `…"`,
			SearchRequest{Query: ptr(strings.Repeat("q", 300))}},
		{"a similarity search names the row", "rows similar to 0a1b2c3d-0000-4000-8000-000000000001 where 2 filters hold",
			SearchRequest{SimilarTo: Key{"id": "0a1b2c3d-0000-4000-8000-000000000001"}, Filters: []Filter{{}, {}}}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if err := c.req.Check(); err != nil {
				t.Fatal(err)
			}
			if got := c.req.Describe(); got != c.words {
				t.Fatalf("words %q", got)
			}
		})
	}
	g := &Grid{Columns: []Column{{Name: "uuid"}, {Name: "title"}, {Name: "score"}, {Name: ExplainColumn}}}
	if MeasureOf(g, true) != "score" || MeasureOf(&Grid{Columns: g.Columns[:3]}, false) != "score" || MeasureOf(&Grid{}, true) != "" {
		t.Fatal("the measure is the last column, before the explanation")
	}
}
