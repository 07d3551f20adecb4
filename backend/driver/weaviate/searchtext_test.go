package weaviate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"app/backend/driver"
)

func ptr[T any](v T) *T { return &v }

// typed is a table like the fixture Typed: a key, scalar properties, an object, a
// reference, a geo value and the vector.
func typed() *driver.TableInfo {
	return &driver.TableInfo{Name: "Typed", PrimaryKey: []string{"uuid"}, Columns: []driver.Column{
		{Name: "uuid", Type: "uuid", PrimaryKey: true},
		{Name: "title", Type: "text"},
		{Name: "count", Type: "int"},
		{Name: "tags", Type: "text[]"},
		{Name: "details", Type: "object"},
		{Name: "author", Type: "Person"},
		{Name: "location", Type: "geoCoordinates"},
		{Name: "vector", Type: "vector"},
	}}
}

// named is a table with two named vectors.
func named() *driver.TableInfo {
	return &driver.TableInfo{Name: "NamedVectors", PrimaryKey: []string{"uuid"}, Columns: []driver.Column{
		{Name: "uuid", Type: "uuid", PrimaryKey: true},
		{Name: "title", Type: "text"},
		{Name: "vectors", Type: "vectors"},
	}, Settings: driver.TableSettings{NamedVectors: []string{"body_vec", "title_vec"}}}
}

// oneNamed is a table with a single named vector.
func oneNamed() *driver.TableInfo {
	t := named()
	t.Settings.NamedVectors = []string{"only_vec"}
	return t
}

// classOf is the collection a test table describes: a property per column between the key
// and the vector, its type as the data type, and no vectorizer.
func classOf(info *driver.TableInfo) *class {
	name, tenant := driver.SplitTenant(info.Name)
	c := &class{Class: name, tenant: tenant, Vectorizer: "none"}
	for _, col := range info.Columns {
		if col.PrimaryKey || col.IsVector() {
			continue
		}
		c.Properties = append(c.Properties, property{Name: col.Name, DataType: []string{col.Type}})
	}
	return c
}

// SPEC.md A "GraphQL editor rules" 5: a search is
// `Get { <Collection>(<search operator>: {...}, limit: <n>) { <properties> _additional { id distance } } }`.
func TestBuild(t *testing.T) {
	const id = "0a1b2c3d-0000-4000-8000-000000000001"
	cases := []struct {
		rule string
		info *driver.TableInfo
		req  driver.SearchRequest
		want string
	}{
		{"nearVector is Get { Collection(nearVector: {vector: [...]}, limit: n) { scalar properties _additional { id distance } } }",
			typed(), driver.SearchRequest{Vector: []float64{0.1, 0.2}},
			`{ Get { Typed(nearVector: {vector: [0.1, 0.2]}, limit: 11) { title count tags _additional { id distance } } } }`},
		{"numbers are written the shortest way that reads back the same",
			typed(), driver.SearchRequest{Vector: []float64{1, -0.5, 1e-7, 1e21}},
			`{ Get { Typed(nearVector: {vector: [1, -0.5, 1e-07, 1e+21]}, limit: 11) { title count tags _additional { id distance } } } }`},
		{"query is bm25 by default, ranked by score",
			typed(), driver.SearchRequest{Query: ptr("fixture")},
			`{ Get { Typed(bm25: {query: "fixture"}, limit: 11) { title count tags _additional { id score } } } }`},
		{"hybrid carries its alpha",
			typed(), driver.SearchRequest{Query: ptr("fixture"), Mode: "hybrid", Params: map[string]string{"alpha": "0.25"}},
			`{ Get { Typed(hybrid: {query: "fixture", alpha: 0.25}, limit: 11) { title count tags _additional { id score } } } }`},
		{"hybrid alpha 0 is written, not dropped",
			typed(), driver.SearchRequest{Query: ptr("fixture"), Mode: "hybrid", Params: map[string]string{"alpha": "0"}},
			`{ Get { Typed(hybrid: {query: "fixture", alpha: 0}, limit: 11) { title count tags _additional { id score } } } }`},
		{"similarTo is nearObject on the lower-cased uuid",
			typed(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": strings.ToUpper(id)}},
			`{ Get { Typed(nearObject: {id: "` + id + `"}, limit: 11) { title count tags _additional { id distance } } } }`},
		{"properties pick the columns, in order, once each",
			typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"count", "title", "count"}},
			`{ Get { Typed(bm25: {query: "x"}, limit: 11) { count title _additional { id score } } } }`},
		{"named vectors: nearVector needs targetVectors, the one named",
			named(), driver.SearchRequest{Vector: []float64{1, 0, 1}, TargetVector: "title_vec"},
			`{ Get { NamedVectors(nearVector: {vector: [1, 0, 1], targetVectors: ["title_vec"]}, limit: 11) { title _additional { id distance } } } }`},
		{"named vectors: nearObject needs targetVectors, the one named",
			named(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": id}, TargetVector: "body_vec"},
			`{ Get { NamedVectors(nearObject: {id: "` + id + `", targetVectors: ["body_vec"]}, limit: 11) { title _additional { id distance } } } }`},
		{"named vectors: hybrid needs targetVectors, after its alpha",
			named(), driver.SearchRequest{Query: ptr("south"), Mode: "hybrid", Params: map[string]string{"alpha": "0.5"}, TargetVector: "title_vec"},
			`{ Get { NamedVectors(hybrid: {query: "south", alpha: 0.5, targetVectors: ["title_vec"]}, limit: 11) { title _additional { id score } } } }`},
		{"named vectors: bm25 uses no vector, so needs none",
			named(), driver.SearchRequest{Query: ptr("south")},
			`{ Get { NamedVectors(bm25: {query: "south"}, limit: 11) { title _additional { id score } } } }`},
		{"the one searchable named vector is named in targetVectors: the server also counts a dropped one",
			oneNamed(), driver.SearchRequest{Vector: []float64{1, 0}},
			`{ Get { NamedVectors(nearVector: {vector: [1, 0], targetVectors: ["only_vec"]}, limit: 11) { title _additional { id distance } } } }`},
		{"injection-proof quoting: quotes, braces and a newline in the query stay one string literal",
			typed(), driver.SearchRequest{Query: ptr(`x"}, limit: 1) { title } } } mutation { y(` + "\n")},
			`{ Get { Typed(bm25: {query: "x\"}, limit: 1) { title } } } mutation { y(\n"}, limit: 11) { title count tags _additional { id score } } } }`},
		{"injection-proof quoting: HTML characters are left as they are, GraphQL is not HTML",
			typed(), driver.SearchRequest{Query: ptr(`<a & b>`)},
			`{ Get { Typed(bm25: {query: "<a & b>"}, limit: 11) { title count tags _additional { id score } } } }`},
		{"issue 23: bm25 searches the chosen properties",
			typed(), driver.SearchRequest{Query: ptr("x"), SearchColumns: []string{"title", "tags"}},
			`{ Get { Typed(bm25: {query: "x", properties: ["title", "tags"]}, limit: 11) { title count tags _additional { id score } } } }`},
		{"issue 23: hybrid names its fusion and properties",
			typed(), driver.SearchRequest{Query: ptr("x"), Mode: "hybrid", Params: map[string]string{"alpha": "0", "fusion": "ranked"}, SearchColumns: []string{"title"}},
			`{ Get { Typed(hybrid: {query: "x", alpha: 0, fusionType: rankedFusion, properties: ["title"]}, limit: 11) { title count tags _additional { id score } } } }`},
		{"issue 23: relative score fusion is relativeScoreFusion; alpha not given is the described default, 0 without a vectorizer",
			typed(), driver.SearchRequest{Query: ptr("x"), Mode: "hybrid", Params: map[string]string{"fusion": "relativeScore"}},
			`{ Get { Typed(hybrid: {query: "x", alpha: 0, fusionType: relativeScoreFusion}, limit: 11) { title count tags _additional { id score } } } }`},
		{"issue 23: an explained score asks for explainScore after the score",
			typed(), driver.SearchRequest{Query: ptr("x"), Explain: true},
			`{ Get { Typed(bm25: {query: "x"}, limit: 11) { title count tags _additional { id score explainScore } } } }`},
		{"issue 23: the grid's filters are the search's where",
			typed(), driver.SearchRequest{Query: ptr("x"), Filters: []driver.Filter{{Column: "count", Operator: driver.OpGreater, Value: "2"}}},
			`{ Get { Typed(where: {path: ["count"], operator: GreaterThan, valueInt: 2}, bm25: {query: "x"}, limit: 11) { title count tags _additional { id score } } } }`},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got, err := searchQuery(&c.req, c.info, classOf(c.info), 11)
			if err != nil || got != c.want {
				t.Fatalf("got  %s\nwant %s\nerr %v", got, c.want, err)
			}
		})
	}
}

// Every refusal is an error of a kind the caller maps (invalid_argument, unsupported) with
// a message that says what to change; Build refuses whatever Check refuses.
func TestRefused(t *testing.T) {
	tenanted := typed()
	tenanted.Settings.MultiTenancy = true
	badName := typed()
	badName.Name = "Typed(x: 1)"
	cases := []struct {
		rule     string
		info     *driver.TableInfo
		req      driver.SearchRequest
		kind     driver.Kind
		contains string
	}{
		{"no search at all is refused", typed(), driver.SearchRequest{}, driver.KindInvalidArgument, "give exactly one of vector, query or similarTo"},
		{"two searches at once are refused", typed(), driver.SearchRequest{Query: ptr("x"), SimilarTo: driver.Key{"uuid": "0a1b2c3d-0000-4000-8000-000000000001"}}, driver.KindInvalidArgument, "exactly one"},
		{"an empty nearVector is no search", typed(), driver.SearchRequest{Vector: []float64{}}, driver.KindInvalidArgument, "exactly one"},
		{"a blank query is refused", typed(), driver.SearchRequest{Query: ptr(" \t")}, driver.KindInvalidArgument, "query is empty"},
		{"mode without query is refused", typed(), driver.SearchRequest{Vector: []float64{1}, Mode: "hybrid"}, driver.KindInvalidArgument, "mode goes with query"},
		{"a mode the collection lacks is refused, naming its modes (nearText only with a vectorizer)", typed(), driver.SearchRequest{Query: ptr("x"), Mode: "near"}, driver.KindInvalidArgument, `no search mode "near" (it has: bm25, hybrid)`},
		{"alpha without hybrid is refused", typed(), driver.SearchRequest{Query: ptr("x"), Params: map[string]string{"alpha": "0.5"}}, driver.KindInvalidArgument, `mode bm25 has no parameter "alpha" (it has: none)`},
		{"an alpha outside 0..1 is refused", typed(), driver.SearchRequest{Query: ptr("x"), Mode: "hybrid", Params: map[string]string{"alpha": "2"}}, driver.KindInvalidArgument, "alpha must be between 0 and 1"},
		{"uuid shape: a similarTo that is no uuid is refused", typed(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": `x"}) { a }`}}, driver.KindInvalidArgument, "similarTo's uuid must be a row uuid"},
		{"uuid shape: a uuid without dashes is refused", typed(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": "0a1b2c3d000040008000000000000001"}}, driver.KindInvalidArgument, "similarTo's uuid must be a row uuid"},
		{"uuid shape: a braced uuid is refused", typed(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": "{0a1b2c3d-0000-4000-8000-000000000001}"}}, driver.KindInvalidArgument, "similarTo's uuid must be a row uuid"},
		{"name syntax: a targetVector outside the GraphQL name syntax is refused", named(), driver.SearchRequest{Vector: []float64{1}, TargetVector: `t"]} x`}, driver.KindInvalidArgument, "is not a valid vector name"},
		{"name syntax: a table name outside the GraphQL name syntax is refused", badName, driver.SearchRequest{Query: ptr("x")}, driver.KindInvalidArgument, "is not a valid collection name"},
		{"a property that is not a column is refused", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"nope"}}, driver.KindInvalidArgument, `table Typed has no property "nope"`},
		{"a property outside the GraphQL name syntax is refused", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"title }"}}, driver.KindInvalidArgument, "has no property"},
		{"a property that is not selectable is refused: an object", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"details"}}, driver.KindInvalidArgument, "property details (object) cannot be returned by vector_search; use scalar properties"},
		{"a property that is not selectable is refused: a reference", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"author"}}, driver.KindInvalidArgument, "property author (Person) cannot be returned"},
		{"a property that is not selectable is refused: the vector", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"vector"}}, driver.KindInvalidArgument, "property vector (vector) cannot be returned"},
		{"a property that is not selectable is refused: the key", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{"uuid"}}, driver.KindInvalidArgument, "property uuid (uuid) cannot be returned"},
		{"named vectors: several and none named is refused, listing them", named(), driver.SearchRequest{Vector: []float64{1, 0, 1}}, driver.KindInvalidArgument, "table NamedVectors has several named vectors: name one in targetVector (body_vec, title_vec)"},
		{"named vectors: several and none named is refused for similarTo too", named(), driver.SearchRequest{SimilarTo: driver.Key{"uuid": "0a1b2c3d-0000-4000-8000-000000000001"}}, driver.KindInvalidArgument, "several named vectors"},
		{"named vectors: several and none named is refused for hybrid too", named(), driver.SearchRequest{Query: ptr("x"), Mode: "hybrid"}, driver.KindInvalidArgument, "several named vectors"},
		{"named vectors: a vector the table lacks is refused, listing the ones it has", named(), driver.SearchRequest{Vector: []float64{1}, TargetVector: "nope_vec"}, driver.KindInvalidArgument, `table NamedVectors has no named vector "nope_vec" (it has: body_vec, title_vec)`},
		{"a targetVector on a table without named vectors is refused", typed(), driver.SearchRequest{Vector: []float64{1}, TargetVector: "title_vec"}, driver.KindInvalidArgument, "(it has: none)"},
		{"a multi-tenant table is unsupported: only the editor names a tenant", tenanted, driver.SearchRequest{Query: ptr("x")}, driver.KindUnsupported, "table Typed is multi-tenant"},
		{"an echoed name is cut short", typed(), driver.SearchRequest{Query: ptr("x"), Properties: []string{strings.Repeat("p", 300)}}, driver.KindInvalidArgument, strings.Repeat("p", 100) + "…"},
		{"issue 23: nearText without a vectorizer is unsupported, saying what to use", typed(), driver.SearchRequest{Query: ptr("x"), Mode: "nearText"}, driver.KindUnsupported, "nearText needs a vectorizer"},
		{"issue 23: a searched property must hold words", typed(), driver.SearchRequest{Query: ptr("x"), SearchColumns: []string{"count"}}, driver.KindInvalidArgument, "property count is int: a keyword search matches the words of text properties only"},
		{"issue 23: a searched property must exist", typed(), driver.SearchRequest{Query: ptr("x"), SearchColumns: []string{"nope"}}, driver.KindInvalidArgument, `table Typed has no property "nope" to search`},
		{"issue 23: searched properties go with a keyword search", typed(), driver.SearchRequest{Vector: []float64{1}, SearchColumns: []string{"title"}}, driver.KindInvalidArgument, "searchColumns go with query"},
		{"issue 23: fusion goes with hybrid", typed(), driver.SearchRequest{Query: ptr("x"), Params: map[string]string{"fusion": "ranked"}}, driver.KindInvalidArgument, `mode bm25 has no parameter "fusion"`},
		{"issue 23: an unknown fusion is refused", typed(), driver.SearchRequest{Query: ptr("x"), Mode: "hybrid", Params: map[string]string{"fusion": "max"}}, driver.KindInvalidArgument, "fusion must be one of relativeScore, ranked"},
		{"issue 23: a distance is not explained", typed(), driver.SearchRequest{Vector: []float64{1}, Explain: true}, driver.KindInvalidArgument, "a score is explained for a search by words only"},
		{"issue 23: a filter that cannot run refuses the search", typed(), driver.SearchRequest{Query: ptr("x"), Filters: []driver.Filter{{Column: "count", Operator: driver.OpGreater, Value: "many"}}}, driver.KindRefusedFilter, "count"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			q, err := searchQuery(&c.req, c.info, classOf(c.info), 11)
			var de *driver.Error
			if !errors.As(err, &de) || de.Kind != c.kind || !strings.Contains(de.Msg, c.contains) || q != "" {
				t.Fatalf("query %q, error %#v", q, err)
			}
		})
	}
}

// The name and string rules that keep every argument out of the query's shape.
func TestGraphQLText(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"Typed", true}, {"_x9", true}, {"9x", false}, {"", false}, {"Typed(x: 1)", false}, {"Tÿped", false}, {"a-b", false}, {strings.Repeat("a", 257), false}} {
		t.Run(fmt.Sprintf("%.20q is a GraphQL name: %v", c.name, c.ok), func(t *testing.T) {
			if isName(c.name) != c.ok {
				t.Fail()
			}
		})
	}
	t.Run("a string is quoted with JSON escapes, HTML left alone", func(t *testing.T) {
		if got := quote("a\"b\\c\n<d>"); got != `"a\"b\\c\n<d>"` {
			t.Fatalf("%s", got)
		}
	})
}

// Selectable is the rule for the default properties: scalars and arrays of them only.
func TestSelectable(t *testing.T) {
	for _, c := range []struct {
		col driver.Column
		ok  bool
	}{
		{driver.Column{Name: "title", Type: "text"}, true},
		{driver.Column{Name: "scores", Type: "number[]"}, true},
		{driver.Column{Name: "published", Type: "date"}, true},
		{driver.Column{Name: "externalId", Type: "uuid"}, true},
		{driver.Column{Name: "uuid", Type: "uuid", PrimaryKey: true}, false},
		{driver.Column{Name: "vector", Type: "vector"}, false},
		{driver.Column{Name: "vectors", Type: "vectors"}, false},
		{driver.Column{Name: "details", Type: "object"}, false},
		{driver.Column{Name: "place", Type: "geoCoordinates"}, false},
		{driver.Column{Name: "phone", Type: "phoneNumber"}, false},
		{driver.Column{Name: "author", Type: "Person"}, false},
		{driver.Column{Name: "bad-name", Type: "text"}, false},
	} {
		t.Run(fmt.Sprintf("%s %s is selectable: %v", c.col.Name, c.col.Type, c.ok), func(t *testing.T) {
			if selectable(c.col) != c.ok {
				t.Fail()
			}
		})
	}
}
