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
		form        driver.Form
	}{
		{"{ Get { Typed { title } } }", driver.AccessRead, false, driver.FormQuery},
		{"query Q { Aggregate { Typed { meta { count } } } }", driver.AccessRead, false, driver.FormQuery},
		{"GET /v1/objects?class=Typed", driver.AccessRead, false, driver.FormRequest},
		{"HEAD /objects/x", driver.AccessRead, false, driver.FormRequest},
		{`POST /v1/objects {"class":"Typed","properties":{}}`, driver.AccessWrite, false, driver.FormRequest},
		{`PATCH /v1/objects/x?class=Typed {"properties":{}}`, driver.AccessWrite, false, driver.FormRequest},
		{"PUT /v1/objects/Typed/x {}", driver.AccessWrite, true, driver.FormRequest},
		{"DELETE /v1/objects/x?class=Typed", driver.AccessWrite, true, driver.FormRequest},
		{"DELETE /schema/Typed", driver.AccessWrite, true, driver.FormRequest},
		{`POST /v1/batch/objects {"objects":[]}`, driver.AccessWrite, true, driver.FormRequest},
		{`POST /graphql {"query":"{ Get { Typed { title } } }"}`, driver.AccessRead, false, driver.FormRequest},
		{`POST /graphql {"query":"mutation { x }"}`, driver.AccessWrite, false, driver.FormRequest},
		{`POST /v1/objects/validate {}`, driver.AccessRead, false, driver.FormRequest},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c, err := Classify(tt.text)
			if err != nil {
				t.Fatal(err)
			}
			if c.Access != tt.access || c.Destructive != tt.destructive || c.Form != tt.form {
				t.Errorf("got %+v", c)
			}
		})
	}
	c, err := Classify("{ Get { ")
	if err == nil || !c.Write() {
		t.Errorf("unparseable text: %+v %v", c, err)
	}
}

// Issue 25, item 7: a GraphQL mutation can never run, so it is refused when it is classified,
// before anyone is asked to approve it; the refusal teaches the class-scoped REST paths
// (item 11), not the ?class= form the server ignores on a delete.
func TestAGraphQLMutationIsRefusedWhenClassified(t *testing.T) {
	for _, text := range []string{"mutation { Delete { Typed } }", "subscription { x }", "\ufeffmutation M { x }"} {
		t.Run(text, func(t *testing.T) {
			c, err := Classify(text)
			if !c.Write() || driver.KindOf(err) != driver.KindUnsupported {
				t.Fatalf("got %+v, %v; want a write refused as unsupported", c, err)
			}
			if !strings.Contains(err.Error(), "DELETE /v1/objects/<collection>/<uuid>") || strings.Contains(err.Error(), "?class=") {
				t.Errorf("the refusal teaches the wrong path: %v", err)
			}
		})
	}
}

// Issue 25, item 1: a REST line pasted with an invisible prefix is the same REST line, so a
// DELETE behind a byte-order mark, a zero-width space, a no-break space or a carriage return
// is classified as the destructive write it is (and asked about), in both path forms; and
// Execute reads it as the same line (the parser both use).
func TestAnInvisiblePrefixDoesNotHideARESTLine(t *testing.T) {
	prefixes := map[string]string{
		"byte-order mark": "\ufeff", "zero-width space": "\u200b", "no-break space": "\u00a0",
		"carriage return": "\r", "word joiner": "\u2060", "left-to-right mark": "\u200e",
		"several": "\ufeff\u200b \u00a0\r\n",
	}
	lines := []string{
		"DELETE /v1/objects/Gadget/00000000-0000-4000-8000-000000000001",
		"DELETE /v1/objects/00000000-0000-4000-8000-000000000001?class=Gadget",
		"DELETE\u00a0/v1/objects/Gadget/00000000-0000-4000-8000-000000000001",
	}
	for name, p := range prefixes {
		for _, line := range lines {
			t.Run(name+" before "+line, func(t *testing.T) {
				c, err := Classify(p + line)
				if err != nil || !c.Write() || !c.Destructive || c.Form != driver.FormRequest {
					t.Fatalf("got %+v, %v; want a destructive REST write", c, err)
				}
				r, ok, err := parseRESTLine(p + line)
				if !ok || err != nil || r.Method != "DELETE" || !strings.HasPrefix(r.Path, "/v1/objects/") {
					t.Fatalf("Execute would read %+v (ok %v, %v)", r, ok, err)
				}
			})
		}
	}
	// An invisible character inside the method or before the path is no REST line: refused,
	// never run.
	for _, text := range []string{"DE\u200bLETE /v1/objects/Gadget/x", "DELETE \u200b/v1/objects/Gadget/x"} {
		if c, err := Classify(text); err == nil || !c.Write() {
			t.Errorf("%q: got %+v, %v; want refused", text, c, err)
		}
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
