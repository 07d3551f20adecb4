package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sirupsen/logrus"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
	"google.golang.org/protobuf/proto"

	"app/backend/driver"
)

// FuzzFilter: whatever the user types, a filter is either refused or renders
// a where argument that stays one well-formed GraphQL value (no injection
// into the surrounding query).
func FuzzFilter(f *testing.F) {
	typed := mustClass(typedSchema)
	cols := []string{"uuid", "title", "count", "price", "active", "published", "tags", "scores", "externalId"}
	ops := driver.Operators()
	f.Add(uint8(1), uint8(0), "Alpha", "")
	f.Add(uint8(2), uint8(12), "1", "10")
	f.Add(uint8(1), uint8(10), `a, "b,c", d`, "")
	f.Add(uint8(1), uint8(6), `x" } ) { a } } mutation { y`, "")
	f.Add(uint8(5), uint8(0), "2024-01-01T00:00:00Z", "")
	f.Add(uint8(3), uint8(2), "1e308", "")
	f.Fuzz(func(t *testing.T, c, o uint8, v1, v2 string) {
		fl := driver.Filter{Column: cols[int(c)%len(cols)], Operator: ops[int(o)%len(ops)], Value: v1, Value2: v2}
		w, ok, err := buildWhere(typed, []driver.Filter{fl, {Column: "title", Operator: driver.OpEquals, Value: v2}})
		if err != nil {
			if driver.KindOf(err) != driver.KindRefusedFilter {
				t.Fatalf("kind %s: %v", driver.KindOf(err), err)
			}
			return
		}
		if !ok {
			t.Fatal("no where for two filters")
		}
		q := "{ Get { Typed(where: " + w.String() + ") { title } } }"
		doc, perr := parser.ParseQuery(&ast.Source{Input: q})
		if perr != nil {
			t.Fatalf("generated GraphQL does not parse: %v\n%s", perr, q)
		}
		if len(doc.Operations) != 1 || doc.Operations[0].Operation != ast.Query {
			t.Fatalf("generated text is not one query: %s", q)
		}
		get := doc.Operations[0].SelectionSet
		if len(get) != 1 {
			t.Fatalf("top level changed: %s", q)
		}
		inner := get[0].(*ast.Field).SelectionSet
		if len(inner) != 1 || len(inner[0].(*ast.Field).Arguments) != 1 {
			t.Fatalf("arguments changed: %s", q)
		}
	})
}

// FuzzRESTLine: a REST line never escapes to another host, always targets
// /v1, and carries only valid JSON bodies; Classify never panics, and never
// calls read what Execute would send as a write (issue 25, item 1).
func FuzzRESTLine(f *testing.F) {
	f.Add("\ufeffDELETE /v1/objects/T/x")
	f.Add("\u200b\u00a0DELETE\u00a0/v1/objects/x?class=T")
	f.Add("GET /nodes")
	f.Add("POST /objects {\"a\":1}")
	f.Add("PATCH /v1/objects/x?class=T\n{\"properties\":{}}")
	f.Add("GET //evil/x")
	f.Add("DELETE /v1/../x")
	f.Add("{ Get { T { a } } }")
	f.Add("GET /%2e%2e/meta")
	f.Fuzz(func(t *testing.T, text string) {
		c, cerr := Classify(text)
		r, ok, err := parseRESTLine(text)
		if cerr == nil && !c.Write() && ok && err == nil && r.Method != "GET" && r.Method != "HEAD" && r.Method != "POST" {
			t.Fatalf("Classify calls %q a read, and Execute would send %s", text, r.Method)
		}
		if !ok || err != nil {
			return
		}
		if !restMethods[r.Method] {
			t.Fatalf("method %q", r.Method)
		}
		if r.Path != "/v1" && !strings.HasPrefix(r.Path, "/v1/") {
			t.Fatalf("path %q", r.Path)
		}
		if strings.HasPrefix(r.Path, "//") || strings.Contains(r.Path, "://") {
			t.Fatalf("host in path %q", r.Path)
		}
		if strings.ContainsAny(r.Target(), " \t\r\n") {
			t.Fatalf("whitespace in target %q", r.Target())
		}
		if r.Body != nil && !json.Valid(r.Body) {
			t.Fatalf("invalid body %q", r.Body)
		}
	})
}

// FuzzTranslate (issue 19, item 4): whatever GraphQL a person writes for a server with
// GraphQL off, the translator never panics, refuses with an invalid-argument, not-found or
// unsupported error that says why, and what it sends is a request gRPC can carry (valid
// protobuf; a string the text brought in that is not UTF-8 is the one thing it cannot). With a
// row cap in force, every Get it sends asks for 1 to cap+1 objects.
func FuzzTranslate(f *testing.F) {
	person := mustClass(`{"class": "Person", "properties": [{"name": "name", "dataType": ["text"]}]}`)
	schema := map[string]*class{"Typed": mustClass(typedSchema), "Person": person}
	// The grid's schema lookup of a name that is no collection reaches for the server; here
	// there is none, and the lookup fails as it does when a server does not answer.
	noServer := roundTrip(func(*http.Request) (*http.Response, error) { return nil, errors.New("no server in a fuzz test") })
	d := &Driver{log: logrus.New(), schema: schema, schemaAt: time.Now(), http: &http.Client{Transport: noServer}, base: "http://127.0.0.1:1"}
	classFor := func(_ context.Context, name string) (*class, error) {
		if c, ok := schema[name]; ok {
			return c, nil
		}
		return nil, driver.Errorf(driver.KindNotFound, "collection %q does not exist", name)
	}
	for _, seed := range []string{
		`{ Get { Typed(where: {operator: Or, operands: [{path: ["count"], operator: GreaterThan, valueInt: 1}, {path: ["title"], operator: Like, valueText: "a*"}]}, sort: [{path: ["title"], order: desc}], limit: 3) { title count details { color } location { latitude } writtenBy { ... on Person { name _additional { id } } } _additional { id vector distance certainty score } } } }`,
		`{ Get { Typed(nearVector: {vector: [1, 2.5], distance: 0.3, targetVectors: ["a"]}) { title } } }`,
		`{ Get { Typed(hybrid: {query: "x", alpha: 0.2, vector: [1], fusionType: rankedFusion, properties: ["title"]}, offset: 2) { title } } }`,
		`{ Get { Typed(bm25: {query: "x"}, tenant: "t", consistencyLevel: QUORUM, after: "x") { title } } }`,
		`{ Get { Typed(where: {path: ["location"], operator: WithinGeoRange, valueGeoRange: {geoCoordinates: {latitude: 1, longitude: 2}, distance: {max: 3}}}) { title } } }`,
		`{ Get { Typed(where: {path: ["writtenBy", "Person", "name"], operator: Equal, valueText: "x"}) { title } } }`,
		`{ Aggregate { Typed(where: {path: ["active"], operator: Equal, valueBoolean: true}, objectLimit: 3) { meta { count } count { sum mean mode } title { topOccurrences(limit: 2) { value occurs } } active { totalTrue } published { maximum } writtenBy { pointingTo } } } }`,
		`{ a: Get { b: Typed { c: title } } d: Aggregate { e: Person { f: meta { g: count } } } }`,
		`query { Get { Typed(limit: 0) { title } } }`,
		`{ Get { Typed(where: {path: ["title"], operator: Equal, valueText: "\u00ff\""}) { title } } }`,
	} {
		f.Add(seed, uint8(5))
	}
	f.Fuzz(func(t *testing.T, text string, capRows uint8) {
		doc, op, err := parseGraphQL(text)
		if err != nil || (op.Operation != ast.Query && op.Operation != "") {
			return
		}
		limit := int(capRows%20) + 1
		if q, capped := capGraphQL(text, limit); capped {
			if doc, op, err = parseGraphQL(q); err != nil {
				t.Fatalf("the capped text does not parse: %v\n%s", err, q)
			}
		}
		tr := translator{doc: doc, classFor: classFor}
		sendable := func(m proto.Message) {
			if _, err := proto.Marshal(m); err != nil && utf8.ValidString(text) {
				t.Fatalf("the request cannot be sent: %v\n%s", err, text)
			}
		}
		tr.search = func(_ context.Context, r *pb.SearchRequest) (*pb.SearchReply, error) {
			sendable(r)
			if r.Limit == 0 || int(r.Limit) > limit+1 {
				t.Fatalf("a capped Get asks for %d objects (cap %d)\n%s", r.Limit, limit, text)
			}
			return &pb.SearchReply{}, nil
		}
		tr.aggregate = func(_ context.Context, r *pb.AggregateRequest) (*pb.AggregateReply, error) {
			sendable(r)
			return &pb.AggregateReply{Result: &pb.AggregateReply_SingleResult{SingleResult: &pb.AggregateReply_Single{}}}, nil
		}
		res, err := tr.run(context.Background(), op, d.getGrid)
		if err != nil {
			switch driver.KindOf(err) {
			case driver.KindInvalidArgument, driver.KindNotFound, driver.KindUnsupported:
			default:
				t.Fatalf("kind %s: %v", driver.KindOf(err), err)
			}
			if err.Error() == "" {
				t.Fatal("a refusal without a reason")
			}
			return
		}
		if res.Kind == driver.ResultJSON && !json.Valid(res.JSON) {
			t.Fatalf("the answer is not JSON: %s", res.JSON)
		}
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
