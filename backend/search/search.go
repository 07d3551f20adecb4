// Package search builds the GraphQL text of a vector, keyword or hybrid search on one table.
//
// The driver contract has no search method, so a search is a GraphQL Get in the shape the
// editor accepts (SPEC.md A "GraphQL editor rules" 5), run with Driver.Execute. The MCP tool
// vector_search and the desktop app's "Find similar" both build it here, so the rules of what
// a search may name and how it is quoted live in one place. Every name in the text is checked
// against the GraphQL name syntax and the table's schema, every string is JSON-quoted, so no
// field of a Request can change the query's shape.
package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"app/backend/driver"
)

// Search modes of Request.Query.
const (
	ModeBM25   = "bm25"
	ModeHybrid = "hybrid"
)

// Request is one search: exactly one of NearVector, Query or SimilarTo.
type Request struct {
	// NearVector searches by a vector, e.g. a row's own vector for "Find similar".
	NearVector []float64
	// Query searches by words, ranked by Mode.
	Query *string
	// Mode is ModeBM25 (the default once checked) or ModeHybrid; only with Query.
	Mode string
	// Alpha weighs a hybrid search: 1 is all vector, 0 all keyword; only with ModeHybrid.
	Alpha *float64
	// SimilarTo is the uuid of a row whose vector is searched near.
	SimilarTo string
	// TargetVector names the vector searched on a table with named vectors.
	TargetVector string
	// Properties are the columns returned; none means every selectable one.
	Properties []string
}

// Check validates what no schema of the caller can say: exactly one search, hybrid-only
// alpha, a uuid, a GraphQL vector name. It fills the default mode and lower-cases the uuid,
// so the request reads the same in the query and in words. Its errors are
// driver.KindInvalidArgument with a message safe to show.
func (r *Request) Check() error {
	n := 0
	for _, set := range []bool{len(r.NearVector) > 0, r.Query != nil, r.SimilarTo != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return invalid("give exactly one of nearVector, query or similarTo")
	}
	if r.Query != nil {
		if strings.TrimSpace(*r.Query) == "" {
			return invalid("query is empty")
		}
		if r.Mode == "" {
			r.Mode = ModeBM25
		}
		if r.Mode != ModeBM25 && r.Mode != ModeHybrid {
			return invalid("mode must be %s or %s", ModeBM25, ModeHybrid)
		}
	} else if r.Mode != "" {
		return invalid("mode goes with query")
	}
	if r.Alpha != nil && r.Mode != ModeHybrid {
		return invalid("alpha goes with mode hybrid")
	}
	if r.Alpha != nil && !(*r.Alpha >= 0 && *r.Alpha <= 1) {
		return invalid("alpha must be between 0 and 1")
	}
	if r.SimilarTo != "" {
		if _, err := uuid.Parse(r.SimilarTo); err != nil || len(r.SimilarTo) != 36 {
			return invalid("similarTo must be a row uuid like 00000000-0000-0000-0000-000000000000")
		}
		r.SimilarTo = strings.ToLower(r.SimilarTo)
	}
	if r.TargetVector != "" && !IsName(r.TargetVector) {
		return invalid("targetVector %q is not a valid vector name", truncate(r.TargetVector, 100))
	}
	return nil
}

// Measure is the _additional member that ranks the matches, and so the grid's last column:
// "distance" for a vector search, "score" for a keyword or hybrid one.
func (r *Request) Measure() string {
	if r.Query != nil {
		return "score"
	}
	return "distance"
}

// Describe is the search in words, for an approval question or a result's first line, e.g.
// `bm25 "fixture" on vector title_vec`. Call it after Check.
func (r *Request) Describe() string {
	var what string
	switch {
	case len(r.NearVector) > 0:
		what = fmt.Sprintf("nearVector of %d numbers", len(r.NearVector))
	case r.Query != nil:
		what = fmt.Sprintf("%s %s", r.Mode, Quote(truncate(*r.Query, 200)))
		if r.Alpha != nil {
			what += " alpha " + number(*r.Alpha)
		}
	default:
		what = "objects similar to " + r.SimilarTo
	}
	if r.TargetVector != "" {
		what += " on vector " + r.TargetVector
	}
	return what
}

// Build checks r and returns the GraphQL text of the search on the table info describes,
// asking for limit matches, e.g.
//
//	{ Get { Typed(nearVector: {vector: [0.1, 0.2]}, limit: 11) { title _additional { id distance } } } }
//
// It checks r itself so that no caller can send an unchecked request. A multi-tenant table
// is driver.KindUnsupported: the text would need a tenant, which only the editor names.
func (r *Request) Build(info *driver.TableInfo, limit int) (string, error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	if !IsName(info.Name) {
		return "", invalid("table %q is not a valid collection name", truncate(info.Name, 100))
	}
	if info.Settings.MultiTenancy {
		return "", driver.Errorf(driver.KindUnsupported, "table %s is multi-tenant: search it with a GraphQL query that names the tenant", info.Name)
	}
	props, err := r.selection(info)
	if err != nil {
		return "", err
	}
	target, err := r.target(info)
	if err != nil {
		return "", err
	}
	var op string
	switch {
	case len(r.NearVector) > 0:
		nums := make([]string, len(r.NearVector))
		for i, f := range r.NearVector {
			nums[i] = number(f)
		}
		op = "nearVector: {vector: [" + strings.Join(nums, ", ") + "]" + target + "}"
	case r.Mode == ModeHybrid:
		op = "hybrid: {query: " + Quote(*r.Query)
		if r.Alpha != nil {
			op += ", alpha: " + number(*r.Alpha)
		}
		op += target + "}"
	case r.Query != nil:
		op = "bm25: {query: " + Quote(*r.Query) + "}"
	default:
		op = "nearObject: {id: " + Quote(r.SimilarTo) + target + "}"
	}
	return fmt.Sprintf("{ Get { %s(%s, limit: %d) { %s _additional { id %s } } } }",
		info.Name, op, limit, strings.Join(props, " "), r.Measure()), nil
}

// target is the targetVectors member a search on a table with named vectors needs. bm25
// uses no vector, so it needs none.
func (r *Request) target(info *driver.TableInfo) (string, error) {
	named := info.Settings.NamedVectors
	switch {
	case r.TargetVector != "" && !slices.Contains(named, r.TargetVector):
		return "", invalid("table %s has no named vector %q (it has: %s)", info.Name, r.TargetVector, listOrNone(named))
	case r.TargetVector != "":
		return ", targetVectors: [" + Quote(r.TargetVector) + "]", nil
	case len(named) > 1 && (r.Query == nil || r.Mode == ModeHybrid):
		return "", invalid("table %s has several named vectors: name one in targetVector (%s)", info.Name, strings.Join(named, ", "))
	}
	return "", nil
}

// selection is the properties to return: the ones asked for (each must be a selectable
// column), else every selectable column of the schema.
func (r *Request) selection(info *driver.TableInfo) ([]string, error) {
	if len(r.Properties) == 0 {
		var out []string
		for _, c := range info.Columns {
			if Selectable(c) {
				out = append(out, c.Name)
			}
		}
		return out, nil
	}
	out := make([]string, 0, len(r.Properties))
	for _, name := range r.Properties {
		c, ok := info.Column(name)
		if !ok || !IsName(name) {
			return nil, invalid("table %s has no property %q", info.Name, truncate(name, 100))
		}
		if !Selectable(c) {
			return nil, invalid("property %s (%s) cannot be returned by vector_search; use scalar properties", name, orDash(c.Type))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// Selectable tells a property column a Get can select without a sub-selection: scalar types
// and arrays of them (objects, cross-references, geo and phone values need one; the key and
// the vector are not properties). A caller can use it to offer only the columns a search
// returns.
func Selectable(c driver.Column) bool {
	if c.PrimaryKey || c.IsVector() || !IsName(c.Name) {
		return false
	}
	switch strings.TrimSuffix(c.Type, "[]") {
	case "text", "string", "int", "number", "boolean", "date", "uuid":
		return true
	}
	return false
}

// IsName matches the GraphQL name syntax: a table, property or vector named in query text
// must match it, since a name is written into the text unquoted.
func IsName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}

// Quote quotes s as a GraphQL string literal: JSON escapes are valid GraphQL escapes, so
// quotes, braces and newlines in s stay inside the one literal. HTML is left alone because
// the text is GraphQL, not HTML.
func Quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func invalid(format string, args ...any) error {
	return driver.Errorf(driver.KindInvalidArgument, format, args...)
}

// number writes a float the shortest way that reads back the same.
func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// truncate cuts s to at most n bytes at a character start, so an echoed name stays short.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}
