package driver

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DistanceColumn is the column a vector search (SearchRequest.Vector or SimilarTo) ranks its
// matches by, nearest first; it ends the search's grid.
const DistanceColumn = "distance"

// ExplainColumn is the column a search with Explain adds after the measure: the database's
// own account of a score.
const ExplainColumn = "explainScore"

// SearchMode is one way a table is searched by words, as its driver describes it in
// TableInfo.Searches: the search panel's choices and vector_search's modes come from it, and
// nothing in the host knows a mode by its name.
type SearchMode struct {
	// Name is sent back as SearchRequest.Mode.
	Name  string `json:"name"`
	Label string `json:"label"`
	// Hint says in one line what the mode matches, for a person and for an AI client.
	Hint string `json:"hint,omitempty"`
	// Note is a caution about this table's use of the mode, shown beside the form (e.g. why a
	// weight should stay at one end).
	Note string `json:"note,omitempty"`
	// Measure is the column that ranks the matches, last in the grid ("score": best first).
	Measure string `json:"measure"`
	// Columns: the words may be matched in chosen columns (SearchRequest.SearchColumns);
	// which ones is TextColumns.
	Columns     bool     `json:"columns,omitempty"`
	TextColumns []string `json:"textColumns,omitempty"`
	// Explains: the database can explain each score (SearchRequest.Explain).
	Explains bool `json:"explains,omitempty"`
	// Vector: the mode uses a vector, so SearchRequest.TargetVector applies on a table with
	// several.
	Vector bool          `json:"vector,omitempty"`
	Params []SearchParam `json:"params,omitempty"`
}

// Param kinds of SearchParam.
const (
	ParamNumber = "number"
	ParamEnum   = "enum"
	// ParamVector is a vector the mode searches with beside the words (a hybrid search's
	// vector half on a table that makes no vectors of words), as a JSON array of numbers.
	// A request's Vector given with its Query fills it.
	ParamVector = "vector"
)

// SearchParam is one parameter of a search mode, sent in SearchRequest.Params as text.
type SearchParam struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Help  string `json:"help,omitempty"`
	// Kind is ParamNumber (between Min and Max, in steps of Step), ParamEnum (one of
	// Options; "" is the database's default) or ParamVector (a JSON array of numbers).
	Kind string  `json:"kind"`
	Min  float64 `json:"min,omitempty"`
	Max  float64 `json:"max,omitempty"`
	Step float64 `json:"step,omitempty"`
	// MinLabel and MaxLabel say what a number at either end means ("keywords only").
	MinLabel string `json:"minLabel,omitempty"`
	MaxLabel string `json:"maxLabel,omitempty"`
	// Default is the value a new search starts with ("" for none).
	Default      string            `json:"default,omitempty"`
	Options      []string          `json:"options,omitempty"`
	OptionLabels map[string]string `json:"optionLabels,omitempty"`
}

// Mode is the table's search mode of that name; "" is the first, the default.
func (t *TableInfo) Mode(name string) (SearchMode, bool) {
	if name == "" && len(t.Searches) > 0 {
		return t.Searches[0], true
	}
	for _, m := range t.Searches {
		if m.Name == name {
			return m, true
		}
	}
	return SearchMode{}, false
}

// SearchRequest is one search of Driver.Search: exactly one of Vector, Query or SimilarTo,
// or a Query with a Vector for a mode that takes one (a ParamVector).
type SearchRequest struct {
	// Vector searches near a vector, e.g. a row's own vector for "Find similar".
	Vector []float64
	// Query searches by words, in Mode.
	Query *string
	// Mode is one of the table's Searches, by name; "" is its first. Only with Query.
	Mode string
	// Params are the mode's parameters by key, as text (a number as Go formats it).
	Params map[string]string
	// SearchColumns are the columns whose words are matched, for a mode with Columns; none
	// means every searchable one.
	SearchColumns []string
	// SimilarTo is the key of a row whose vector is searched near.
	SimilarTo Key
	// TargetVector names the vector searched on a table with several.
	TargetVector string
	// Properties are the columns returned; none means every selectable one.
	Properties []string
	// Filters narrow the matches exactly as Browse's filters narrow its rows (groups ORed
	// within, ANDed between).
	Filters []Filter
	// Explain asks for the database's explanation of each score, as the last column
	// (ExplainColumn); only with Query and a mode that Explains.
	Explain bool
	// Profile asks for the database's own profile of the search (Grid.Profile), where the
	// table Profiles; elsewhere it is ignored, as a database without one would.
	Profile bool
}

// Check validates what needs no table: exactly one search, the fields that go with words
// only with words, a finite vector. Callers run it before they connect; the driver runs
// CheckMode against the table and checks a row key's shape (Weaviate: a uuid). Its errors are
// KindInvalidArgument with a message safe to show.
func (r *SearchRequest) Check() error {
	n := 0
	for _, set := range []bool{len(r.Vector) > 0 && r.Query == nil, r.Query != nil, r.SimilarTo != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return searchInvalid("give exactly one of vector, query or similarTo (or a query with a vector, for a mode that takes one)")
	}
	if r.Query != nil {
		if strings.TrimSpace(*r.Query) == "" {
			return searchInvalid("query is empty")
		}
	} else {
		switch {
		case r.Mode != "":
			return searchInvalid("mode goes with query")
		case len(r.Params) > 0:
			return searchInvalid("params go with query")
		case len(r.SearchColumns) > 0:
			return searchInvalid("searchColumns go with query")
		case r.Explain:
			return searchInvalid("a score is explained for a search by words only")
		}
	}
	for _, f := range r.Vector {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return searchInvalid("the vector holds a number that is not finite")
		}
	}
	if r.SimilarTo != nil && len(r.SimilarTo) == 0 {
		return searchInvalid("similarTo is empty: give the key of a row")
	}
	return nil
}

// CheckMode checks a search by words against the table's modes: the mode exists (and is
// filled in when ""), each parameter is the mode's and within its bounds, chosen columns are
// the mode's text columns, an explanation is one the mode gives. A driver runs it in Search;
// its errors name the table's choices.
func (r *SearchRequest) CheckMode(t *TableInfo) (SearchMode, error) {
	if r.SimilarTo != nil {
		if err := CheckKey(t.PrimaryKey, r.SimilarTo, "similarTo"); err != nil {
			return SearchMode{}, err
		}
	}
	if r.Query == nil {
		return SearchMode{}, nil
	}
	m, ok := t.Mode(r.Mode)
	if !ok {
		if len(t.Searches) == 0 {
			return m, Errorf(KindUnsupported, "table %s cannot be searched by words; search near a vector or a row", t.Name)
		}
		return m, searchInvalid("table %s has no search mode %q (it has: %s)", t.Name, cut(r.Mode, 100), strings.Join(modeNames(t.Searches), ", "))
	}
	r.Mode = m.Name
	// Filled in below: a copy, so the caller's map (a request searched twice) stays as given.
	r.Params = maps.Clone(r.Params)
	if len(r.Vector) > 0 {
		// The words with a vector: the vector is the mode's vector parameter.
		p, ok := m.vectorParam()
		if !ok {
			return m, searchInvalid("mode %s takes no vector with its words: search near the vector alone, or by words alone", m.Name)
		}
		if _, given := r.Params[p.Key]; given {
			return m, searchInvalid("the vector is given twice: as vector and as the parameter %s", p.Key)
		}
		b, _ := json.Marshal(r.Vector)
		if r.Params == nil {
			r.Params = map[string]string{}
		}
		r.Params[p.Key], r.Vector = string(b), nil
	}
	for key, v := range r.Params {
		p, ok := m.param(key)
		if !ok {
			return m, searchInvalid("mode %s has no parameter %q (it has: %s)", m.Name, cut(key, 100), orNone(paramKeys(m.Params)))
		}
		if err := p.check(v); err != nil {
			return m, err
		}
		if p.Kind == ParamNumber {
			// Canonical, so the driver reads the number that was checked.
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			r.Params[key] = formatNumber(f)
		}
	}
	// A parameter not given is the mode's described default: what describe_table and the
	// panel show is what runs, whatever the database would assume.
	for _, p := range m.Params {
		if _, given := r.Params[p.Key]; !given && p.Default != "" {
			if r.Params == nil {
				r.Params = map[string]string{}
			}
			r.Params[p.Key] = p.Default
		}
	}
	if len(r.SearchColumns) > 0 && !m.Columns {
		return m, searchInvalid("mode %s matches the words in every column it searches; it takes no searchColumns", m.Name)
	}
	for _, c := range r.SearchColumns {
		if !slices.Contains(m.TextColumns, c) {
			return m, searchInvalid("table %s has no column %q whose words mode %s matches (it has: %s)", t.Name, cut(c, 100), m.Name, orNone(m.TextColumns))
		}
	}
	if r.Explain && !m.Explains {
		return m, searchInvalid("mode %s gives no explanation of its scores", m.Name)
	}
	return m, nil
}

// Floats is the vector parameter key, if given (CheckMode checked it).
func (r *SearchRequest) Floats(key string) ([]float64, bool) {
	v, ok := r.Params[key]
	if !ok {
		return nil, false
	}
	var out []float64
	if err := json.Unmarshal([]byte(v), &out); err != nil || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// Number is the number parameter key, if given.
func (r *SearchRequest) Number(key string) (float64, bool) {
	v, ok := r.Params[key]
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

func (m SearchMode) vectorParam() (SearchParam, bool) {
	for _, p := range m.Params {
		if p.Kind == ParamVector {
			return p, true
		}
	}
	return SearchParam{}, false
}

func (m SearchMode) param(key string) (SearchParam, bool) {
	for _, p := range m.Params {
		if p.Key == key {
			return p, true
		}
	}
	return SearchParam{}, false
}

func (p SearchParam) check(v string) error {
	switch p.Kind {
	case ParamNumber:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return searchInvalid("%s must be a number, not %q", p.Key, cut(v, 40))
		}
		if (p.Min != 0 || p.Max != 0) && (f < p.Min || f > p.Max) {
			return searchInvalid("%s must be between %s and %s", p.Key, formatNumber(p.Min), formatNumber(p.Max))
		}
	case ParamEnum:
		if v != "" && !slices.Contains(p.Options, v) {
			return searchInvalid("%s must be one of %s", p.Key, strings.Join(p.Options, ", "))
		}
	case ParamVector:
		var fs []float64
		if err := json.Unmarshal([]byte(v), &fs); err != nil || len(fs) == 0 {
			return searchInvalid("%s must be a vector, a JSON array of numbers like [0.12, -0.5, 0.33]", p.Key)
		}
		for _, f := range fs {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return searchInvalid("%s holds a number that is not finite", p.Key)
			}
		}
	}
	return nil
}

// Check is the description's own check, run where a table's modes cross the contract.
func (m SearchMode) Check() error {
	if m.Name == "" || m.Label == "" || m.Measure == "" {
		return fmt.Errorf("search mode %q: a name, a label and a measure are required", m.Name)
	}
	for _, p := range m.Params {
		if p.Key == "" || (p.Kind != ParamNumber && p.Kind != ParamEnum && p.Kind != ParamVector) {
			return fmt.Errorf("search mode %s: parameter %q needs a key and the kind number, enum or vector", m.Name, p.Key)
		}
		if p.Default != "" {
			if err := p.check(p.Default); err != nil {
				return fmt.Errorf("search mode %s: default of %s: %w", m.Name, p.Key, err)
			}
		}
	}
	return nil
}

func modeNames(ms []SearchMode) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

func paramKeys(ps []SearchParam) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Key
	}
	return out
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// MeasureOf is the column that ranks a search's grid: the last one, or the one before the
// explanation.
func MeasureOf(g *Grid, explain bool) string {
	n := len(g.Columns)
	if explain {
		n--
	}
	if n < 1 {
		return ""
	}
	return g.Columns[n-1].Name
}

// Describe is the search in words, for an approval question or a result's first line, e.g.
// `"fixture" by hybrid alpha=0.5 on vector title_vec`. Call it after Check.
func (r *SearchRequest) Describe() string {
	var what string
	switch {
	case len(r.Vector) > 0 && r.Query == nil:
		what = fmt.Sprintf("a vector of %d numbers", len(r.Vector))
	case r.Query != nil:
		mode := r.Mode
		if mode == "" {
			mode = "words" // the table's first mode, which the driver picks
		}
		what = mode + " " + quoteText(cut(*r.Query, 200))
		keys := make([]string, 0, len(r.Params))
		for k := range r.Params {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if fs, ok := r.Floats(k); ok {
				what += fmt.Sprintf(" %s of %d numbers", cut(k, 40), len(fs))
				continue
			}
			what += " " + cut(k, 40) + " " + cut(r.Params[k], 40)
		}
		if len(r.Vector) > 0 {
			what += fmt.Sprintf(" with a vector of %d numbers", len(r.Vector))
		}
		if len(r.SearchColumns) > 0 {
			what += " in " + strings.Join(r.SearchColumns, ", ")
		}
	default:
		what = "rows similar to " + r.SimilarTo.Text()
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
