package weaviate

// The GraphQL text of a search (SPEC.md A "GraphQL editor rules" 5): the spec's path for
// Driver.Search, on a server that serves GraphQL. Every name in the text is checked against
// the GraphQL name syntax and the table's schema, every string is JSON-quoted, so no field
// of a request can change the query's shape. (It was backend/search, on the host side,
// until the driver contract gained Search: issue 19.)

import (
	"github.com/google/uuid"

	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"app/backend/driver"
)

// searchQuery checks r and returns the GraphQL text of the search on the table info
// describes, asking for limit matches, e.g.
//
//	{ Get { Typed(nearVector: {vector: [0.1, 0.2]}, limit: 11) { title _additional { id distance } } } }
//
// It checks r itself so that no caller can send an unchecked request. A tenant's table
// names its tenant in the Get; a multi-tenant table without one is driver.KindUnsupported.
func searchQuery(r *driver.SearchRequest, info *driver.TableInfo, c *class, limit int) (string, error) {
	measure, err := checkSearch(r, info, c)
	if err != nil {
		return "", err
	}
	props, err := searchSelection(r, info)
	if err != nil {
		return "", err
	}
	target, err := searchTarget(r, info)
	if err != nil {
		return "", err
	}
	if target != "" {
		target = ", targetVectors: [" + quote(target) + "]"
	}
	var op string
	switch {
	case len(r.Vector) > 0:
		nums := make([]string, len(r.Vector))
		for i, f := range r.Vector {
			nums[i] = number(f)
		}
		op = "nearVector: {vector: [" + strings.Join(nums, ", ") + "]" + target + "}"
	case r.Mode == modeHybrid:
		op = "hybrid: {query: " + quote(*r.Query)
		if a, ok := r.Number(paramAlpha); ok {
			op += ", alpha: " + number(a)
		}
		if v, ok := r.Floats(paramVector); ok {
			nums := make([]string, len(v))
			for i, f := range v {
				nums[i] = number(f)
			}
			op += ", vector: [" + strings.Join(nums, ", ") + "]"
		}
		switch r.Params[paramFusion] {
		case fusionRanked:
			op += ", fusionType: rankedFusion"
		case fusionRelativeScore:
			op += ", fusionType: relativeScoreFusion"
		}
		op += quotedList("properties", r.SearchColumns) + target + "}"
	case r.Mode == modeNearText:
		op = "nearText: {concepts: [" + quote(*r.Query) + "]" + target + "}"
	case r.Query != nil:
		op = "bm25: {query: " + quote(*r.Query) + quotedList("properties", r.SearchColumns) + "}"
	default:
		op = "nearObject: {id: " + quote(similarID(r)) + target + "}"
	}
	w, ok, err := buildWhere(c, r.Filters)
	if err != nil {
		return "", err
	}
	if ok {
		op = "where: " + w.String() + ", " + op
	}
	collection, tenant := driver.SplitTenant(info.Name)
	if tenant != "" {
		op = "tenant: " + quote(tenant) + ", " + op
	}
	extra := measure
	if r.Explain {
		extra += " " + driver.ExplainColumn
	}
	return fmt.Sprintf("{ Get { %s(%s, limit: %d) { %s _additional { id %s } } } }",
		collection, op, limit, strings.Join(props, " "), extra), nil
}

// quotedList is `, name: ["a", "b"]` for a non-empty list, else "".
func quotedList(name string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote(s)
	}
	return ", " + name + ": [" + strings.Join(q, ", ") + "]"
}

// checkSearch runs the request's own check and the ones both read paths share: names in the
// GraphQL syntax (a collection, vector or property named otherwise cannot exist), a tenant
// for a multi-tenant collection (classFor checked the tenant's name), searched properties
// that hold words, and a vectorizer for nearText.
// similarID is the uuid of the row a search is near (checkSearch checked it).
func similarID(r *driver.SearchRequest) string {
	id, _ := r.SimilarTo[ColUUID].(string)
	return id
}

func checkSearch(r *driver.SearchRequest, info *driver.TableInfo, c *class) (measure string, err error) {
	if err := r.Check(); err != nil {
		return "", err
	}
	if r.SimilarTo != nil {
		if err := driver.CheckKey(primaryKey, r.SimilarTo, "similarTo"); err != nil {
			return "", err
		}
		// Weaviate's row key is a uuid; lower-cased, the query and the words read the same.
		id, _ := r.SimilarTo[ColUUID].(string)
		if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
			return "", invalid("similarTo's uuid must be a row uuid like 00000000-0000-0000-0000-000000000000")
		}
		r.SimilarTo = driver.Key{ColUUID: strings.ToLower(id)}
	}
	if r.TargetVector != "" && !isName(r.TargetVector) {
		return "", invalid("targetVector %q is not a valid vector name", truncate(r.TargetVector, 100))
	}
	if collection, _ := driver.SplitTenant(info.Name); !isCollectionName(collection) {
		return "", invalid("table %q is not a valid collection name", truncate(info.Name, 100))
	}
	if info.Settings.MultiTenancy && info.Settings.Tenant == "" {
		return "", driver.Errorf(driver.KindUnsupported, "table %s is multi-tenant: its rows live in its tenants; search one of them (the table %s)", info.Name, driver.TenantTable(info.Name, "<tenant>"))
	}
	for _, name := range r.SearchColumns {
		p, ok := c.property(name)
		if !ok || !isName(name) {
			return "", invalid("table %s has no property %q to search", info.Name, truncate(name, 100))
		}
		if b, _ := p.base(); b != "text" && b != "string" {
			return "", invalid("property %s is %s: a keyword search matches the words of text properties only", name, p.Type())
		}
		if !p.searchable() {
			return "", invalid("property %s is not searchable: collection %s turns its keyword index off (indexSearchable: false)", name, c.Class)
		}
	}
	if r.Mode == modeNearText {
		target := r.TargetVector
		named := info.Settings.NamedVectors
		if target == "" && len(named) == 1 {
			target = named[0]
		}
		if target == "" && len(named) > 1 {
			return "", invalid("table %s has several named vectors: name one in targetVector (%s)", info.Name, strings.Join(named, ", "))
		}
		if v := c.vectorizerOf(target); v == "none" || v == "" {
			return "", driver.Errorf(driver.KindUnsupported, "nearText needs a vectorizer to turn the words into a vector, and collection %s has none (vectorizer: none); search with nearVector, bm25 or hybrid with alpha 0", c.Class)
		}
	}
	// The modes are the collection's own (what DescribeTable lists), whatever info carries;
	// a search by words ranks by its mode's measure, any other by distance.
	m, err := r.CheckMode(&driver.TableInfo{Name: info.Name, PrimaryKey: primaryKey, Searches: c.searches()})
	if err != nil {
		return "", err
	}
	if r.Query != nil {
		return m.Measure, nil
	}
	return measureDistance, nil
}

// searchTarget is the named vector a search on a table with named vectors needs ("" for
// none). bm25 uses no vector, so it needs none.
func searchTarget(r *driver.SearchRequest, info *driver.TableInfo) (string, error) {
	named := info.Settings.NamedVectors
	switch {
	case r.TargetVector != "" && !slices.Contains(named, r.TargetVector):
		return "", invalid("table %s has no named vector %q (it has: %s)", info.Name, r.TargetVector, listOrNone(named))
	case r.TargetVector != "":
		return r.TargetVector, nil
	case len(named) > 1 && (r.Query == nil || r.Mode == modeHybrid):
		return "", invalid("table %s has several named vectors: name one in targetVector (%s)", info.Name, strings.Join(named, ", "))
	case len(named) == 1 && !info.Settings.OwnVector && (r.Query == nil || r.Mode == modeHybrid):
		// Named explicitly: the server still counts a vector whose index was dropped, and
		// would ask which of "both" was meant.
		return named[0], nil
	}
	return "", nil
}

// searchSelection is the properties to return: the ones asked for (each must be a
// selectable column), else every selectable column of the schema.
func searchSelection(r *driver.SearchRequest, info *driver.TableInfo) ([]string, error) {
	if len(r.Properties) == 0 {
		var out []string
		for _, c := range info.Columns {
			if selectable(c) {
				out = append(out, c.Name)
			}
		}
		return out, nil
	}
	out := make([]string, 0, len(r.Properties))
	for _, name := range r.Properties {
		c, ok := info.Column(name)
		if !ok || !isName(name) {
			return nil, invalid("table %s has no property %q", info.Name, truncate(name, 100))
		}
		if !selectable(c) {
			return nil, invalid("property %s (%s) cannot be returned by vector_search; use scalar properties", name, orDash(c.Type))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// selectable tells a property column a Get can select without a sub-selection: scalar types
// and arrays of them (objects, cross-references, geo and phone values need one; the key and
// the vector are not properties).
func selectable(c driver.Column) bool {
	if c.PrimaryKey || c.IsVector() || !isName(c.Name) {
		return false
	}
	switch strings.TrimSuffix(c.Type, "[]") {
	case "text", "string", "int", "number", "boolean", "date", "uuid":
		return true
	}
	return false
}

// isName matches the GraphQL name syntax: a table, property or vector named in query text
// must match it, since a name is written into the text unquoted.
func isName(s string) bool {
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

// quote quotes s as a GraphQL string literal: JSON escapes are valid GraphQL escapes, so
// quotes, braces and newlines in s stay inside the one literal. HTML is left alone because
// the text is GraphQL, not HTML.
func quote(s string) string {
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
