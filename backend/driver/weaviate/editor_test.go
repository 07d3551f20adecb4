package weaviate

import (
	"strings"
	"testing"

	"app/backend/driver"
)

func TestRESTLineParsing(t *testing.T) {
	tests := []struct {
		name           string
		text           string
		method, target string
		body           string
	}{
		{"a path without /v1 gets it", "GET /nodes", "GET", "/v1/nodes", ""},
		{"a /v1 path is kept", "GET /v1/schema", "GET", "/v1/schema", ""},
		{"the query is kept", "get /objects?class=Typed&limit=2", "GET", "/v1/objects?class=Typed&limit=2", ""},
		{"a body on the same line", `POST /objects {"class":"Typed"}`, "POST", "/v1/objects", `{"class":"Typed"}`},
		{"a body on the lines below", "PATCH /v1/objects/x?class=T\n{\n  \"properties\": {}\n}\n", "PATCH", "/v1/objects/x?class=T", "{\n  \"properties\": {}\n}"},
		{"leading blank lines", "\n\n  DELETE /objects/x?class=T  ", "DELETE", "/v1/objects/x?class=T", ""},
		{"/ alone is /v1", "GET /", "GET", "/v1", ""},
		{"/v1meta is not /v1", "GET /v1meta", "GET", "/v1/v1meta", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok, err := parseRESTLine(tt.text)
			if !ok || err != nil {
				t.Fatalf("ok=%v err=%v", ok, err)
			}
			if r.Method != tt.method || r.Target() != tt.target || string(r.Body) != tt.body {
				t.Errorf("got %s %s body %q", r.Method, r.Target(), r.Body)
			}
		})
	}
}

func TestRESTLineRefusals(t *testing.T) {
	for _, text := range []string{
		"GET http://example.com/v1/meta",
		"GET //evil.example/v1/meta",
		"GET /v1/../meta",
		"POST /objects {not json",
		"GET /v1/meta {\"a\":1}",
		"DELETE \n/objects",
	} {
		t.Run(text, func(t *testing.T) {
			_, ok, err := parseRESTLine(text)
			if !ok || err == nil {
				t.Fatalf("ok=%v err=%v", ok, err)
			}
			if driver.KindOf(err) != driver.KindInvalidArgument {
				t.Errorf("kind %s", driver.KindOf(err))
			}
		})
	}
	for _, text := range []string{"{ Get { Typed { title } } }", "query { Get { A { b } } }", "GETX /v1", "mutation { x }", "get"} {
		if _, ok, _ := parseRESTLine(text); ok {
			t.Errorf("%q taken for a REST line", text)
		}
	}
}

func TestClassifyForTheApprovalLayer(t *testing.T) {
	tests := []struct {
		text        string
		access      driver.Access
		destructive bool
	}{
		{"{ Get { Typed { title } } }", driver.AccessRead, false},
		{"query Q { Aggregate { Typed { meta { count } } } }", driver.AccessRead, false},
		{"mutation { Delete { Typed } }", driver.AccessWrite, false},
		{"subscription { x }", driver.AccessWrite, false},
		{"GET /v1/objects?class=Typed", driver.AccessRead, false},
		{"HEAD /objects/x", driver.AccessRead, false},
		{`POST /v1/objects {"class":"Typed","properties":{}}`, driver.AccessWrite, false},
		{`PATCH /v1/objects/x?class=Typed {"properties":{}}`, driver.AccessWrite, false},
		{"PUT /v1/objects/Typed/x {}", driver.AccessWrite, true},
		{"DELETE /v1/objects/x?class=Typed", driver.AccessWrite, true},
		{"DELETE /schema/Typed", driver.AccessWrite, true},
		{`POST /v1/batch/objects {"objects":[]}`, driver.AccessWrite, true},
		{`POST /graphql {"query":"{ Get { Typed { title } } }"}`, driver.AccessRead, false},
		{`POST /graphql {"query":"mutation { x }"}`, driver.AccessWrite, false},
		{`POST /v1/objects/validate {}`, driver.AccessRead, false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c, err := Classify(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if c.Access != tt.access || c.Destructive != tt.destructive {
				t.Errorf("got %+v", c)
			}
		})
	}
	c, err := Classify("{ Get { ")
	if err == nil || !c.Write() {
		t.Errorf("unparseable text: %+v %v", c, err)
	}
}

func TestGraphQLParsing(t *testing.T) {
	_, _, err := parseGraphQL("{ Get { Typed { title }")
	if driver.KindOf(err) != driver.KindInvalidArgument || !strings.Contains(err.Error(), "GraphQL syntax error") || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("syntax error: %v", err)
	}
	_, _, err = parseGraphQL("query A { Get { T { a } } } query B { Get { T { a } } }")
	if driver.KindOf(err) != driver.KindInvalidArgument {
		t.Errorf("two operations: %v", err)
	}
	_, op, err := parseGraphQL("# a comment\nmutation { Add { T } }")
	if err != nil || op.Operation != "mutation" {
		t.Fatalf("%v %v", op, err)
	}
	// A "mutation" word inside a string or comment is no mutation.
	_, op, err = parseGraphQL(`# mutation
{ Get { T(where: {path: ["a"], operator: Equal, valueText: "mutation { x }"}) { a } } }`)
	if err != nil || op.Operation != "query" {
		t.Fatalf("%v %v", op, err)
	}
}
