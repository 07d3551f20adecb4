package grpcdriver

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// vectorText is a 768-dimension vector cell as the driver sends it: JSON text.
func vectorText(dims int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range dims {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%.7f", math.Sin(float64(i))*0.5)
	}
	b.WriteByte(']')
	return b.String()
}

// wire sends m through protobuf's encoding and back, as gRPC does, so a test proves what
// survives the bytes and not only the Go structs.
func wire[T proto.Message](t *testing.T, m T) T {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	out := m.ProtoReflect().New().Interface().(T)
	if err := proto.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

func TestValuesRoundTripExactly(t *testing.T) {
	cases := []struct {
		name string
		v    any
	}{
		{"null", nil},
		{"empty text is not null", ""},
		{"text", "Ada Lovelace"},
		{"text with unicode and newlines", "größe\n改行\t\"quoted\""},
		{"true", true},
		{"false is not null", false},
		{"json number", json.Number("1.5")},
		{"json number beyond float64 precision", json.Number("12345678901234567890123")},
		{"json number zero", json.Number("0")},
		{"int64", int64(-42)},
		{"int64 max", int64(math.MaxInt64)},
		{"float64", 3.25},
		{"float64 zero", 0.0},
		{"vector cell (768 dims as JSON text)", vectorText(768)},
		{"empty list is not null", []any{}},
		{"list with a null, text and a number", []any{nil, "a", json.Number("1"), true}},
		{"empty object is not null", map[string]any{}},
		{"nested object (a Weaviate object property)", map[string]any{
			"name":   "x",
			"tags":   []any{"a", "b"},
			"nested": map[string]any{"deep": []any{map[string]any{"n": json.Number("7")}, []any{}}, "null": nil},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pv, err := toValue(c.v)
			if err != nil {
				t.Fatal(err)
			}
			got := fromValue(wire(t, pv))
			if !reflect.DeepEqual(got, c.v) {
				t.Fatalf("round trip: got %#v, want %#v", got, c.v)
			}
		})
	}
}

type point struct {
	Lat float64 `json:"latitude"`
	Lon float64 `json:"longitude"`
}

func TestValuesNormalizeGoTypes(t *testing.T) {
	var nilSlice []string
	var nilMap map[string]any
	var nilPtr *int
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"int becomes int64", 7, int64(7)},
		{"int32 becomes int64", int32(-7), int64(-7)},
		{"uint8 becomes int64", uint8(200), int64(200)},
		{"uint64 above MaxInt64 becomes its exact number text", uint64(math.MaxUint64), json.Number("18446744073709551615")},
		{"float32 becomes float64", float32(0.5), 0.5},
		{"[]string becomes []any", []string{"a", "b"}, []any{"a", "b"}},
		{"[]float32 becomes []any of float64", []float32{0.25, -1}, []any{0.25, -1.0}},
		{"typed nil slice is null", nilSlice, nil},
		{"nil map is null", nilMap, nil},
		{"nil []any is null", []any(nil), nil},
		{"nil map[string]any is null", map[string]any(nil), nil},
		{"nil pointer is null", nilPtr, nil},
		{"map[string]string becomes map[string]any", map[string]string{"k": "v"}, map[string]any{"k": "v"}},
		{"[]byte becomes base64 text, as encoding/json writes it", []byte("hi"), "aGk="},
		{"json.RawMessage becomes the value it encodes", json.RawMessage(`{"a":[1,2.5,null]}`), map[string]any{"a": []any{json.Number("1"), json.Number("2.5"), nil}}},
		{"a struct travels as its JSON", point{52.37, 4.9}, map[string]any{"latitude": json.Number("52.37"), "longitude": json.Number("4.9")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pv, err := toValue(c.in)
			if err != nil {
				t.Fatal(err)
			}
			got := fromValue(wire(t, pv))
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
	t.Run("a value JSON cannot encode is refused with its type", func(t *testing.T) {
		_, err := toValue(make(chan int))
		if err == nil || !strings.Contains(err.Error(), "chan int") {
			t.Fatalf("err = %v", err)
		}
	})
}

func sampleColumns() []driver.Column {
	return []driver.Column{
		{Name: "uuid", Type: "uuid", PrimaryKey: true, ReadOnly: true, Filterable: []driver.Operator{driver.OpEquals, driver.OpNotEquals}, Sortable: true},
		{Name: "title", Type: "text", Filterable: driver.Operators(), Sortable: true, Description: "the title"},
		{Name: "tags", Type: "text[]", Array: true, Filterable: []driver.Operator{driver.OpContains}, Kind: driver.ColumnArray, Of: driver.ColumnText},
		{Name: "vector", Type: "vector", ReadOnly: true, Kind: driver.ColumnVector, Dimension: 768},
	}
}

func TestGridRoundTrip(t *testing.T) {
	vec := vectorText(768)
	cases := []struct {
		name string
		g    *driver.Grid
	}{
		{"a page with every cell kind", &driver.Grid{
			Columns: sampleColumns(),
			Rows: [][]any{
				{"0000beec-0000-4000-8000-000000000001", "Ada", `["a","b"]`, vec},
				{"0000beec-0000-4000-8000-000000000002", "", `[]`, nil},
				{"0000beec-0000-4000-8000-000000000003", nil, nil, `{"named":[0.5,1]}`},
				{"0000beec-0000-4000-8000-000000000004", json.Number("12"), true, false},
			},
			Offset:  9000,
			HasMore: true,
			Notice:  "Paging stops at row 10,000",
		}},
		{"an empty page keeps [] rows and its columns", &driver.Grid{Columns: sampleColumns(), Rows: [][]any{}}},
		{"a search's profile: shards, kinds, metrics as written, seconds read again", &driver.Grid{Columns: []driver.Column{}, Rows: [][]any{},
			Profile: &driver.QueryProfile{Shards: []driver.ShardProfile{{Name: "typed_a1", Node: "node1", Searches: []driver.SearchProfile{
				{Kind: "keyword", Metrics: []driver.ProfileMetric{driver.NewProfileMetric("kwd_method", "blockmaxwand"), driver.NewProfileMetric("kwd_time", "221.515µs")}},
				{Kind: "vector", Metrics: []driver.ProfileMetric{}}}}}}}},
		{"no columns, no rows", &driver.Grid{Columns: []driver.Column{}, Rows: [][]any{}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pg, err := toGrid(c.g)
			if err != nil {
				t.Fatal(err)
			}
			got := fromGrid(wire(t, pg))
			if !reflect.DeepEqual(got, c.g) {
				t.Fatalf("round trip:\n got %#v\nwant %#v", got, c.g)
			}
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(c.g)
			if string(a) != string(b) {
				t.Fatalf("JSON differs:\n got %s\nwant %s", a, b)
			}
		})
	}
	t.Run("a nil Rows grid arrives as [] (an empty page is [] in JSON)", func(t *testing.T) {
		pg, _ := toGrid(&driver.Grid{})
		got := fromGrid(wire(t, pg))
		if got.Rows == nil || got.Columns == nil || len(got.Rows) != 0 {
			t.Fatalf("got %#v", got)
		}
	})
}

func TestContractTypesRoundTrip(t *testing.T) {
	t.Run("settings, API key included", func(t *testing.T) {
		s := driver.Settings{Host: "x.weaviate.cloud", Port: 443, AuthMethod: driver.AuthAPIKey, APIKey: "secret-key", SSLMode: driver.SSLVerifyCA, SkipTLSVerify: true, CAFile: "/tmp/ca.pem",
			Values: map[string]string{"database": "shop", "mode": "ro"}, Secrets: map[string]string{"password": "pw"}}
		if got := fromSettings(wire(t, toSettings(s))); !reflect.DeepEqual(got, s) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a description, every field kind and a suggestion", func(t *testing.T) {
		d := driver.Description{
			Types:       []driver.ConnectionType{{Name: "t", Label: "T", Summary: "one line"}},
			Address:     []string{"host", "port"},
			Settings:    driver.ProtocolTwoFields(),
			Suggestions: []driver.Suggestion{{Key: "host", Suffixes: []string{".example"}, Set: map[string]string{"port": "443"}, Text: "why", Action: "do"}},
			Words:       &driver.Words{Language: "SQL", Table: "table", Row: "row", Instructions: "Reads are SELECT.", Notes: "e.g. SELECT 1", ActivateTenant: "ALTER {table} ACTIVATE {tenant}"},
			URL: &driver.URLForm{Schemes: []string{"t"}, Example: "t://h/db", User: "u", Password: "apiKey", Host: "host", Port: "port", Path: "database",
				FilePath: true, Query: map[string]string{"sslmode": "sslMode"}},
		}
		d.Settings = append(d.Settings, driver.SettingField{Key: "file", Label: "File", Kind: driver.FieldPath, Required: true, Options: []string{"a"}, OptionHelp: map[string]string{"a": "b"}})
		if got := fromDescription(wire(t, toDescription(d)), nil); !reflect.DeepEqual(got, d) {
			t.Fatalf("got %#v\nwant %#v", got, d)
		}
	})
	t.Run("a plugin that sends no description is described by protocol 2's fields", func(t *testing.T) {
		got := fromDescription(nil, []string{"t"})
		if len(got.Types) != 1 || got.Types[0].Label != "T" || len(got.Settings) != len(driver.ProtocolTwoFields()) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("capabilities", func(t *testing.T) {
		c := driver.Capabilities{QueryLanguage: "graphql", SQL: true, SchemaEdits: true, SSHTunnel: true, DatabaseField: true, RESTLines: true, MaxResults: 10000, DefaultPageSize: 100, Operators: driver.Operators(), Transactions: true,
			Declared: true, Scan: true, Estimate: true, Completions: true, BatchWrite: true, Tenants: true, Nodes: true, Paths: true, Templates: true}
		if got := fromCapabilities(wire(t, toCapabilities(c))); !reflect.DeepEqual(got, c) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("tables", func(t *testing.T) {
		ts := []driver.Table{{Name: "Person", Description: "people"}, {Name: "Typed"}, {Name: "Tenanted", MultiTenant: true},
			{Name: "acme:Article", Group: "acme", Label: "Article"}}
		got := fromTables(wire(t, &pb.ListTablesResponse{Tables: toTables(ts)}).GetTables())
		if !reflect.DeepEqual(got, ts) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("table info with settings and definition", func(t *testing.T) {
		ti := &driver.TableInfo{
			Name: "Typed", Description: "d", PrimaryKey: []string{"uuid"},
			// An exact number's digits, a negative scale among them (PostgreSQL 15's numeric(5,-2)).
			Columns:    append(sampleColumns(), driver.Column{Name: "price", Type: "numeric(5,-2)", Kind: driver.ColumnNumber, Exact: true, Precision: 5, Scale: -2}),
			Settings:   driver.TableSettings{IndexNullState: true, IndexPropertyLength: true, IndexTimestamps: true, MultiTenancy: true, Vectorizer: "none", NamedVectors: []string{"a", "b"}, VectorizedVectors: []string{"b"}, OwnVector: true},
			Definition: json.RawMessage(`{"class":"Typed","properties":[]}`),
			Details: []driver.DetailSection{{Title: "Inverted index", Items: []driver.DetailItem{
				{Label: "Null state indexed", Value: "yes: the is null and is not null filters run", Setting: "invertedIndexConfig.indexNullState"}, {Label: "BM25", Value: "k1 1.2, b 0.75"}}}},
		}
		if got := fromTableInfo(wire(t, toTableInfo(ti))); !reflect.DeepEqual(got, ti) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("table info without definition or named vectors", func(t *testing.T) {
		ti := &driver.TableInfo{Name: "P", Columns: sampleColumns()[:1], PrimaryKey: []string{"uuid"}, Settings: driver.TableSettings{Vectorizer: "none"}}
		if got := fromTableInfo(wire(t, toTableInfo(ti))); !reflect.DeepEqual(got, ti) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("filters and sorts", func(t *testing.T) {
		fs := []driver.Filter{{Column: "n", Operator: driver.OpBetween, Value: "1", Value2: "5"}, {Column: "title", Operator: driver.OpIsNull}}
		ss := []driver.Sort{{Column: "n", Descending: true}, {Column: "title"}}
		req := wire(t, &pb.BrowseRequest{Filters: toFilters(fs), Sort: toSorts(ss)})
		if got := fromFilters(req.GetFilters()); !reflect.DeepEqual(got, fs) {
			t.Fatalf("filters: %#v", got)
		}
		if got := fromSorts(req.GetSort()); !reflect.DeepEqual(got, ss) {
			t.Fatalf("sorts: %#v", got)
		}
		if fromFilters(nil) != nil || fromSorts(nil) != nil {
			t.Fatal("no filters must stay nil")
		}
	})
	t.Run("results: grid, JSON and text", func(t *testing.T) {
		for _, r := range []*driver.Result{
			{Kind: driver.ResultGrid, Table: "Person", Grid: &driver.Grid{Columns: sampleColumns()[:2], Rows: [][]any{{"id", "x"}}}},
			{Kind: driver.ResultJSON, JSON: json.RawMessage("{\n  \"data\": null\n}"), Status: 200},
			{Kind: driver.ResultText, Text: "Seq Scan on t\n  Filter: (id > 1)", Notice: "NOTICE: planned"},
			{Kind: driver.ResultGrid, Tag: "SELECT 1", Grid: &driver.Grid{Columns: sampleColumns()[:1], Rows: [][]any{{"a"}}},
				Before: []driver.Result{{Kind: driver.ResultJSON, JSON: json.RawMessage(`{"commands":["CREATE TABLE"]}`), Tag: "CREATE TABLE"},
					{Kind: driver.ResultText, Text: "Result"}}},
		} {
			pr, err := toResult(r)
			if err != nil {
				t.Fatal(err)
			}
			if got := fromResult(wire(t, pr)); !reflect.DeepEqual(got, r) {
				t.Fatalf("got %#v, want %#v", got, r)
			}
		}
	})
	t.Run("classification, with and without error", func(t *testing.T) {
		c := driver.Classification{Access: driver.AccessWrite, Destructive: true}
		got, err := fromClassification(wire(t, toClassification(c, nil)))
		if err != nil || got != c {
			t.Fatalf("got %#v, %v", got, err)
		}
		got, err = fromClassification(wire(t, toClassification(driver.Classification{Access: driver.AccessWrite}, driver.Errorf(driver.KindInvalidArgument, "cannot parse"))))
		if got.Access != driver.AccessWrite || !driver.IsKind(err, driver.KindInvalidArgument) || err.Error() != "cannot parse" {
			t.Fatalf("got %#v, %v", got, err)
		}
	})
	t.Run("edit rows with nested values, and row results", func(t *testing.T) {
		rows := []driver.Row{
			{Values: map[string]any{"title": "new", "tags": []any{"a"}, "obj": map[string]any{"k": json.Number("1")}, "empty": "", "none": nil}},
			{Key: driver.Key{"uuid": "0000beec-0000-4000-8000-000000000001"}, Values: map[string]any{"count": json.Number("3")}},
			{Key: driver.Key{"uuid": "0000beec-0000-4000-8000-000000000002"}},
		}
		pr, err := toRows(rows, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := fromRows(wire(t, &pb.EditRequest{Rows: pr}).GetRows()); !reflect.DeepEqual(got, rows) {
			t.Fatalf("got %#v", got)
		}
		rs := []driver.RowResult{{Index: 0, Key: driver.Key{"uuid": "u"}, Status: driver.RowOK}, {Index: 1, Status: driver.RowSkipped, Message: "no uuid"}, {Index: 2, Status: driver.RowFailed, Kind: driver.KindNotFound, Message: "gone"}}
		if got := fromRowResults(wire(t, &pb.EditResponse{Results: toRowResults(rs)}).GetResults()); !reflect.DeepEqual(got, rs) {
			t.Fatalf("got %#v", got)
		}
	})
	t.Run("a row value that cannot be sent is invalid_argument naming the row and column", func(t *testing.T) {
		_, err := toRows([]driver.Row{{Values: map[string]any{"c": func() {}}}}, false)
		if !driver.IsKind(err, driver.KindInvalidArgument) || !strings.Contains(err.Error(), "row 1, column c") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestDescribeMatchesInfo: what describe prints is what Info answers.
func TestDescribeMatchesInfo(t *testing.T) {
	info := Info{Name: "weaviate", Version: "1.2.3", Types: []string{"weaviate"}, Capabilities: driver.Capabilities{QueryLanguage: "graphql", MaxResults: 10000, Operators: driver.Operators()}}
	d := Describe(info, ProtocolVersion)
	want := Description{Name: "weaviate", Version: "1.2.3", ProtocolVersion: ProtocolVersion, Types: []string{"weaviate"}, Capabilities: info.Capabilities,
		Connections: driver.ProtocolTwoDescription("weaviate")}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %#v", d)
	}
}

// Contract 3, item 3: a key travels by column and, for a peer of protocol 2 or 3, as the one
// text those protocols carried; each side reads the key by column first and the one text only
// from a peer that did not send it.
func TestRowKeysCrossTheWireToNewerAndOlderPeers(t *testing.T) {
	one := driver.Key{"uuid": "0a1b2c3d-0000-4000-8000-000000000001"}
	two := driver.Key{"tenant": "north", "id": json.Number("42")}
	in := []driver.Row{{Key: one}, {Key: two}, {Values: map[string]any{"uuid": "0a1b2c3d-0000-4000-8000-000000000009", "title": "t"}}}
	rows, err := toRows(in, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := fromRows(wire(t, &pb.EditRequest{Rows: rows}).GetRows()); !reflect.DeepEqual(got, in) {
		t.Fatalf("keys by column to a newer plugin: %#v", got)
	}
	// To an older plugin the one text goes too: a one-column key's, an insert's typed uuid.
	if rows, err = toRows(in, true); err != nil {
		t.Fatal(err)
	}
	if rows[0].GetUuid() != one["uuid"] || rows[1].GetUuid() != "" || rows[2].GetUuid() != "0a1b2c3d-0000-4000-8000-000000000009" {
		t.Fatalf("the one text an older plugin reads: %q %q %q", rows[0].GetUuid(), rows[1].GetUuid(), rows[2].GetUuid())
	}
	// An older host sends the one text only: the plugin reads it as the uuid column's.
	old := fromRows([]*pb.EditRow{{Uuid: "0a1b2c3d-0000-4000-8000-000000000002"}})
	if !reflect.DeepEqual(old[0].Key, driver.Key{"uuid": "0a1b2c3d-0000-4000-8000-000000000002"}) {
		t.Fatalf("an older host's key: %#v", old[0].Key)
	}
	// An older plugin answers the one text; a newer one both.
	res := fromRowResults([]*pb.RowResult{{Index: 0, Uuid: "u1", Status: "ok"}})
	if !reflect.DeepEqual(res[0].Key, driver.Key{"uuid": "u1"}) {
		t.Fatalf("an older plugin's outcome: %#v", res[0])
	}
	back := toRowResults([]driver.RowResult{{Key: two, Status: driver.RowOK}})
	if back[0].GetUuid() != "" || !reflect.DeepEqual(fromRowResults(wire(t, &pb.EditResponse{Results: back}).GetResults())[0].Key, two) {
		t.Fatalf("a composite key's outcome: %v", back[0])
	}
	// A table's key: by column, and its one column for an older host.
	ti := toTableInfo(&driver.TableInfo{Name: "T", PrimaryKey: []string{"tenant", "id"}})
	if ti.GetPrimaryKey() != "" || !reflect.DeepEqual(fromTableInfo(wire(t, ti)).PrimaryKey, []string{"tenant", "id"}) {
		t.Fatalf("a composite table key: %v", ti)
	}
	if got := fromTableInfo(&pb.DescribeTableResponse{Name: "T", PrimaryKey: "uuid"}).PrimaryKey; !reflect.DeepEqual(got, []string{"uuid"}) {
		t.Fatalf("an older plugin's table key: %v", got)
	}
}

// A page asked for "numbers" carries whole vectors as packed float32s (3 bytes on the wire for
// each 8 of their text), and the host prints them as the driver would have (driver.VectorText):
// a grid in the host holds the text, never the numbers.
func TestAVectorCarriedAsNumbersArrivesAsItsText(t *testing.T) {
	v := make([]float32, 768)
	for i := range v {
		v[i] = float32(math.Sin(float64(i+1))) * 1e3
	}
	g := &driver.Grid{Columns: sampleColumns(), Rows: [][]any{{"id-1", "a", nil, driver.Floats(v)}, {"id-2", "b", nil, nil}}}
	pg, err := toGrid(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pg.GetRows()[0].GetCells()[3].GetKind().(*pb.Value_Floats); !ok {
		t.Fatalf("the vector went as %T", pg.GetRows()[0].GetCells()[3].GetKind())
	}
	asText := &driver.Grid{Columns: sampleColumns(), Rows: [][]any{{"id-1", "a", nil, driver.VectorText(v)}}}
	textGrid, _ := toGrid(asText)
	if packed, text := proto.Size(pg.GetRows()[0]), proto.Size(textGrid.GetRows()[0]); packed*2 > text {
		t.Fatalf("the packed row is %d bytes, the text's %d", packed, text)
	}
	got := fromGrid(wire(t, pg))
	if got.Rows[0][3] != driver.VectorText(v) || got.Rows[1][3] != nil {
		t.Fatalf("arrived as %T %.40v", got.Rows[0][3], got.Rows[0][3])
	}
}
