package weaviate

import (
	"strings"
	"testing"

	"app/backend/driver"
)

// The generated GraphQL text is pinned: a change here is a change of what the
// driver asks Weaviate.
func TestGeneratedGraphQLTextIsPinned(t *testing.T) {
	typed := mustClass(typedSchema)
	named := mustClass(namedSchema)
	typedFields := `title body count price active published tags scores externalId location { latitude longitude } phone { input internationalFormatted countryCode nationalFormatted national valid defaultCountry } details { color size } writtenBy { __typename ... on Person { _additional { id } } } _additional { id vector }`
	tests := []struct {
		name    string
		c       *class
		offset  int
		limit   int
		filters []driver.Filter
		sorts   []driver.Sort
		want    string
	}{
		{"a sort alone becomes Get with sort", typed, 0, 50, nil, []driver.Sort{{Column: "count", Descending: true}},
			`{ Get { Typed(limit: 50, sort: [{path: ["count"], order: desc}]) { ` + typedFields + ` } } }`},
		{"sorting on uuid uses _id", typed, 100, 25, nil, []driver.Sort{{Column: "uuid"}},
			`{ Get { Typed(limit: 25, offset: 100, sort: [{path: ["_id"], order: asc}]) { ` + typedFields + ` } } }`},
		{"one filter is a bare condition", typed, 0, 10, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "Alpha"}}, nil,
			`{ Get { Typed(limit: 10, where: {path: ["title"], operator: Equal, valueText: "Alpha"}) { ` + typedFields + ` } } }`},
		{"several filters are ANDed, with where and sort", typed, 0, 10, []driver.Filter{
			{Column: "count", Operator: driver.OpGreaterEq, Value: "5"},
			{Column: "tags", Operator: driver.OpEquals, Value: "red"},
		}, []driver.Sort{{Column: "title"}},
			`{ Get { Typed(limit: 10, where: {operator: And, operands: [{path: ["count"], operator: GreaterThanEqual, valueInt: 5}, {path: ["tags"], operator: Equal, valueText: "red"}]}, sort: [{path: ["title"], order: asc}]) { ` + typedFields + ` } } }`},
		{"named vectors are selected by name", named, 0, 5, nil, []driver.Sort{{Column: "title"}},
			`{ Get { NamedVectors(limit: 5, sort: [{path: ["title"], order: asc}]) { title _additional { id vectors { body_vec title_vec } } } } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := browseQuery(tt.c, tt.offset, tt.limit, tt.filters, tt.sorts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCountIsAnAggregate(t *testing.T) {
	typed := mustClass(typedSchema)
	got, _ := countQuery(typed, nil)
	if want := `{ Aggregate { Typed { meta { count } } } }`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	got, _ = countQuery(typed, []driver.Filter{{Column: "active", Operator: driver.OpEquals, Value: "true"}})
	if want := `{ Aggregate { Typed(where: {path: ["active"], operator: Equal, valueBoolean: true}) { meta { count } } } }`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

// Every operator of the spec's table, typed from the schema.
func TestFilterOperatorsRenderTheSpecsDatabaseOperators(t *testing.T) {
	typed := mustClass(typedSchema)
	tests := []struct {
		name string
		f    driver.Filter
		want string
	}{
		{"equals on text", driver.Filter{Column: "title", Operator: driver.OpEquals, Value: "Alpha"}, `{path: ["title"], operator: Equal, valueText: "Alpha"}`},
		{"not equals on int", driver.Filter{Column: "count", Operator: driver.OpNotEquals, Value: " 10 "}, `{path: ["count"], operator: NotEqual, valueInt: 10}`},
		{"greater than on number", driver.Filter{Column: "price", Operator: driver.OpGreater, Value: "9.5"}, `{path: ["price"], operator: GreaterThan, valueNumber: 9.5}`},
		{"greater or equal on date", driver.Filter{Column: "published", Operator: driver.OpGreaterEq, Value: "2024-01-01T00:00:00Z"}, `{path: ["published"], operator: GreaterThanEqual, valueDate: "2024-01-01T00:00:00Z"}`},
		{"less than on int", driver.Filter{Column: "count", Operator: driver.OpLess, Value: "-5"}, `{path: ["count"], operator: LessThan, valueInt: -5}`},
		{"less or equal on date with offset", driver.Filter{Column: "published", Operator: driver.OpLessEq, Value: "2024-01-01T02:00:00+02:00"}, `{path: ["published"], operator: LessThanEqual, valueDate: "2024-01-01T02:00:00+02:00"}`},
		{"contains is Like *v*", driver.Filter{Column: "body", Operator: driver.OpContains, Value: "row"}, `{path: ["body"], operator: Like, valueText: "*row*"}`},
		{"not contains is Not(Like *v*)", driver.Filter{Column: "body", Operator: driver.OpNotContains, Value: "row"}, `{operator: Not, operands: [{path: ["body"], operator: Like, valueText: "*row*"}]}`},
		{"starts with is Like v*", driver.Filter{Column: "title", Operator: driver.OpStartsWith, Value: "Al"}, `{path: ["title"], operator: Like, valueText: "Al*"}`},
		{"ends with is Like *v", driver.Filter{Column: "title", Operator: driver.OpEndsWith, Value: "ta"}, `{path: ["title"], operator: Like, valueText: "*ta"}`},
		{"in list is ContainsAny", driver.Filter{Column: "title", Operator: driver.OpIn, Value: `Alpha, "Beta, Inc", Gamma`}, `{path: ["title"], operator: ContainsAny, valueText: ["Alpha", "Beta, Inc", "Gamma"]}`},
		{"not in list is ContainsNone on int", driver.Filter{Column: "count", Operator: driver.OpNotIn, Value: "10,20"}, `{path: ["count"], operator: ContainsNone, valueInt: [10, 20]}`},
		{"between is two inclusive bounds", driver.Filter{Column: "count", Operator: driver.OpBetween, Value: "0", Value2: "10"}, `{operator: And, operands: [{path: ["count"], operator: GreaterThanEqual, valueInt: 0}, {path: ["count"], operator: LessThanEqual, valueInt: 10}]}`},
		{"is null is IsNull true", driver.Filter{Column: "price", Operator: driver.OpIsNull}, `{path: ["price"], operator: IsNull, valueBoolean: true}`},
		{"is not null is IsNull false", driver.Filter{Column: "price", Operator: driver.OpIsNotNull}, `{path: ["price"], operator: IsNull, valueBoolean: false}`},
		{"is empty is len() = 0", driver.Filter{Column: "tags", Operator: driver.OpIsEmpty}, `{path: ["len(tags)"], operator: Equal, valueInt: 0}`},
		{"is not empty is len() > 0", driver.Filter{Column: "body", Operator: driver.OpIsNotEmpty}, `{path: ["len(body)"], operator: GreaterThan, valueInt: 0}`},
		{"array filtered on one element", driver.Filter{Column: "scores", Operator: driver.OpEquals, Value: "4"}, `{path: ["scores"], operator: Equal, valueInt: 4}`},
		{"boolean", driver.Filter{Column: "active", Operator: driver.OpEquals, Value: "FALSE"}, `{path: ["active"], operator: Equal, valueBoolean: false}`},
		{"uuid property", driver.Filter{Column: "externalId", Operator: driver.OpEquals, Value: "AAAAAAAA-0000-4000-8000-000000000001"}, `{path: ["externalId"], operator: Equal, valueText: "aaaaaaaa-0000-4000-8000-000000000001"}`},
		{"uuid column uses path id", driver.Filter{Column: "uuid", Operator: driver.OpIn, Value: "00000002-0000-4000-8000-000000000001"}, `{path: ["id"], operator: ContainsAny, valueText: ["00000002-0000-4000-8000-000000000001"]}`},
		{"quotes and backslashes are escaped", driver.Filter{Column: "title", Operator: driver.OpEquals, Value: `a"b\c` + "\n<"}, `{path: ["title"], operator: Equal, valueText: "a\"b\\c\n<"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := filterNode(typed, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if got := w.String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A filter that cannot run is refused with the reason.
func TestFilterRefusalsSayWhy(t *testing.T) {
	typed := mustClass(typedSchema)
	unindexed := mustClass(unindexedSchema)
	tests := []struct {
		name string
		c    *class
		f    driver.Filter
		want string
	}{
		{"REGEX has no equivalent", typed, driver.Filter{Column: "title", Operator: driver.OpRegex, Value: "^A"}, "no regular-expression filter"},
		{"IsNull without indexNullState", unindexed, driver.Filter{Column: "count", Operator: driver.OpIsNull}, "indexNullState"},
		{"is empty without indexPropertyLength", unindexed, driver.Filter{Column: "tags", Operator: driver.OpIsEmpty}, "indexPropertyLength"},
		{"int that does not parse", typed, driver.Filter{Column: "count", Operator: driver.OpEquals, Value: "ten"}, `"ten" is not an integer`},
		{"number that does not parse", typed, driver.Filter{Column: "price", Operator: driver.OpGreater, Value: "1,5"}, "is not a number"},
		{"date that is not full RFC 3339", typed, driver.Filter{Column: "published", Operator: driver.OpEquals, Value: "2024-01-15"}, "full RFC 3339"},
		{"boolean that does not parse", typed, driver.Filter{Column: "active", Operator: driver.OpEquals, Value: "yes"}, "not a boolean"},
		{"uuid that does not parse", typed, driver.Filter{Column: "uuid", Operator: driver.OpEquals, Value: "123"}, "not a UUID"},
		{"pattern on a number", typed, driver.Filter{Column: "count", Operator: driver.OpContains, Value: "1"}, "text properties only"},
		{"comparison on text", typed, driver.Filter{Column: "title", Operator: driver.OpGreater, Value: "A"}, "numbers and dates only"},
		{"len on an int", typed, driver.Filter{Column: "count", Operator: driver.OpIsEmpty}, "text and array properties only"},
		{"an item of the list does not parse", typed, driver.Filter{Column: "count", Operator: driver.OpIn, Value: "1, two"}, `"two" is not an integer`},
		{"an empty list", typed, driver.Filter{Column: "title", Operator: driver.OpIn, Value: " "}, "the list is empty"},
		{"between with one bound", typed, driver.Filter{Column: "count", Operator: driver.OpBetween, Value: "1"}, "two bounds"},
		{"unknown column", typed, driver.Filter{Column: "nope", Operator: driver.OpEquals, Value: "1"}, `no column "nope"`},
		{"the vector column", typed, driver.Filter{Column: "vector", Operator: driver.OpEquals, Value: "1"}, "vector column cannot be filtered"},
		{"a geo property", typed, driver.Filter{Column: "location", Operator: driver.OpEquals, Value: "1"}, "cannot be filtered"},
		{"a reference", typed, driver.Filter{Column: "writtenBy", Operator: driver.OpEquals, Value: "x"}, "cross-reference"},
		{"unknown operator", typed, driver.Filter{Column: "title", Operator: "like", Value: "x"}, "unknown operator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := buildWhere(tt.c, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "ok"}, tt.f})
			if err == nil {
				t.Fatal("no error")
			}
			if driver.KindOf(err) != driver.KindRefusedFilter {
				t.Errorf("kind %s", driver.KindOf(err))
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "cannot run") {
				t.Errorf("%q does not say %q", err, tt.want)
			}
		})
	}
}

func TestColumnsAreUUIDFirstPropertiesInSchemaOrderVectorLast(t *testing.T) {
	info := mustClass(typedSchema).info()
	var names []string
	for _, c := range info.Columns {
		names = append(names, c.Name)
	}
	want := []string{"uuid", "title", "body", "count", "price", "active", "published", "tags", "scores", "externalId", "location", "phone", "details", "writtenBy", "vector"}
	if len(names) != len(want) {
		t.Fatalf("columns %v", names)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("columns %v, want %v", names, want)
		}
	}
	if c := info.Columns[0]; !c.PrimaryKey || !c.ReadOnly {
		t.Errorf("uuid %+v", c)
	}
	if c := info.Columns[len(info.Columns)-1]; !c.ReadOnly || c.PrimaryKey {
		t.Errorf("vector %+v", c)
	}
	if !info.Settings.IndexNullState || !info.Settings.IndexPropertyLength {
		t.Errorf("settings %+v", info.Settings)
	}
	un := mustClass(unindexedSchema).info()
	if c, _ := un.Column("count"); hasOp(c.Filterable, driver.OpIsNull) {
		t.Errorf("Unindexed count offers is_null: %v", c.Filterable)
	}
	if c, _ := info.Column("count"); !hasOp(c.Filterable, driver.OpIsNull) || hasOp(c.Filterable, driver.OpContains) {
		t.Errorf("Typed count operators %v", c.Filterable)
	}
}

func hasOp(ops []driver.Operator, op driver.Operator) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}
