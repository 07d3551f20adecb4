package resources

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/mcp"
	"app/internal/testkit/fixtures"
)

// The schema, table and sample resources (package comment) against a real weaviate-server
// holding the fixtures, through a real MCP server.
func TestSchemaTableAndSampleResources(t *testing.T) {
	e := newEnv(t, envOptions{})
	node := e.id("Node")

	t.Run("resources/templates/list lists the four templates", func(t *testing.T) {
		r := e.srv.Call(t, "resources/templates/list", nil)
		var got []string
		for _, it := range r.Result["resourceTemplates"].([]any) {
			got = append(got, it.(map[string]any)["uriTemplate"].(string))
		}
		want := []string{TemplateConnection, TemplateSchema, TemplateTable, TemplateSample}
		if !slices.Equal(got, want) {
			t.Fatalf("%v", got)
		}
	})
	t.Run("the schema lists every table with its columns and types, ttlMs 60000", func(t *testing.T) {
		r := e.read(t, SchemaURI(node))
		var doc schemaDoc
		text(t, r, &doc)
		if r.Result["ttlMs"] != float64(60000) || doc.Connection.ID != node || doc.Connection.Name != "Node" {
			t.Fatalf("%v", r.Result)
		}
		var typed *schemaTable
		for i, tb := range doc.Tables {
			if tb.Name == fixtures.Typed {
				typed = &doc.Tables[i]
			}
		}
		if typed == nil || typed.URI != TableURI(node, fixtures.Typed) {
			t.Fatalf("no Typed table: %+v", doc.Tables)
		}
		cols := map[string]string{}
		for _, c := range typed.Columns {
			cols[c.Name] = c.Type
		}
		if cols["title"] != "text" || cols["count"] != "int" || cols["writtenBy"] != fixtures.Person || !typed.Columns[0].PrimaryKey {
			t.Fatalf("%+v", typed.Columns)
		}
	})
	t.Run("a table's description has its columns, key and settings, ttlMs 60000", func(t *testing.T) {
		r := e.read(t, TableURI(node, fixtures.Typed))
		var doc tableDoc
		text(t, r, &doc)
		if r.Result["ttlMs"] != float64(60000) || doc.Name != fixtures.Typed || strings.Join(doc.PrimaryKey, ",") != "uuid" ||
			!doc.Settings.IndexNullState || doc.SampleURI != SampleURI(node, fixtures.Typed) {
			t.Fatalf("%+v", doc)
		}
		ok := false
		for _, c := range doc.Columns {
			if c.Name == "count" && c.Type == "int" && len(c.Filterable) > 0 {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("%+v", doc.Columns)
		}
	})
	t.Run("a sample holds the first 20 rows without vectors, ttlMs 10000", func(t *testing.T) {
		r := e.read(t, SampleURI(node, fixtures.Big))
		var doc sampleDoc
		text(t, r, &doc)
		if r.Result["ttlMs"] != float64(10000) || len(doc.Rows) != SampleRows || !doc.HasMore || slices.Contains(doc.Columns, "vector") {
			t.Fatalf("%d rows, hasMore %v, columns %v", len(doc.Rows), doc.HasMore, doc.Columns)
		}
		if _, ok := doc.Rows[0]["uuid"]; !ok {
			t.Fatalf("%v", doc.Rows[0])
		}
	})
	// Issue 25, item 2: named vectors are a vector column too ("vectors"), and stay out.
	t.Run("a sample of a named-vector table leaves the named vectors out", func(t *testing.T) {
		var doc sampleDoc
		text(t, e.read(t, SampleURI(node, fixtures.NamedVectors)), &doc)
		if len(doc.Rows) == 0 || slices.Contains(doc.Columns, "vectors") || slices.Contains(doc.Columns, "vector") {
			t.Fatalf("columns %v", doc.Columns)
		}
		for _, r := range doc.Rows {
			if _, ok := r["vectors"]; ok {
				t.Fatalf("a row carries its named vectors: %v", r)
			}
		}
	})
	for name, uri := range map[string]string{
		"an unknown table":                     TableURI(node, "NoSuchTable"),
		"the sample of an unknown table":       SampleURI(node, "NoSuchTable"),
		"the schema of a blocked connection":   SchemaURI(e.id("Blocked")),
		"a table of a blocked connection":      TableURI(e.id("Blocked"), fixtures.Typed),
		"the schema of an unknown connection":  SchemaURI("nope"),
		"a connection named instead of its id": SchemaURI("Node"),
		"an unknown URI":                       "app://connections/" + node + "/indexes",
	} {
		t.Run(name+" does not exist: -32602", func(t *testing.T) {
			r := e.read(t, uri)
			if r.Status != 400 || r.Code() != mcp.CodeInvalidParams {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("a driver failure is -32603 with the driver's own message", func(t *testing.T) {
		r := e.read(t, SchemaURI(e.id("Down")))
		if r.Status != 500 || r.Code() != mcp.CodeInternalError || !strings.Contains(r.Error.Message, "Connection failed:") {
			t.Fatalf("%d %v", r.Status, r.Error)
		}
	})
	t.Run("the schema of an alwaysAsk connection is metadata: read without asking", func(t *testing.T) {
		before := e.asked.Load()
		if r := e.read(t, SchemaURI(e.id("Ask"))); r.Code() != 0 || e.asked.Load() != before {
			t.Fatalf("%v, asked %d times", r.Error, e.asked.Load()-before)
		}
	})
	t.Run("{table} completes from the chosen connection's tables", func(t *testing.T) {
		r := e.srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateSample},
			"argument": map[string]any{"name": "table", "value": "T"},
			"context":  map[string]any{"arguments": map[string]any{"id": node}},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if !slices.Contains(vals, any(fixtures.Typed)) || !slices.Contains(vals, any(fixtures.Tenanted)) || slices.Contains(vals, any(fixtures.Person)) {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("{table} of a blocked connection completes to nothing", func(t *testing.T) {
		r := e.srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateTable},
			"argument": map[string]any{"name": "table", "value": ""},
			"context":  map[string]any{"arguments": map[string]any{"id": e.id("Blocked")}},
		})
		if vals := r.Result["completion"].(map[string]any)["values"].([]any); len(vals) != 0 {
			t.Fatalf("%v", vals)
		}
	})
	t.Run("{id} of the schema template completes from the visible connections", func(t *testing.T) {
		r := e.srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateSchema},
			"argument": map[string]any{"name": "id", "value": ""},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if len(vals) != 3 || slices.Contains(vals, any(e.id("Blocked"))) {
			t.Fatalf("%v", vals)
		}
	})
}

// A sample is a real read: under a connection whose AI policy is alwaysAsk it goes through the
// approval gate as browse_table does (the app's dialog, or input_required for a client that
// declared elicitation).
func TestSampleReadIsApproved(t *testing.T) {
	e := newEnv(t, envOptions{})
	ask := SampleURI(e.id("Ask"), fixtures.Person)

	t.Run("under the default policy a sample is read without asking", func(t *testing.T) {
		before := e.asked.Load()
		if r := e.read(t, SampleURI(e.id("Node"), fixtures.Person)); r.Code() != 0 || e.asked.Load() != before {
			t.Fatalf("%v, asked %d", r.Error, e.asked.Load()-before)
		}
	})
	t.Run("under alwaysAsk the user's approval lets it run", func(t *testing.T) {
		e.answer.Store(int32(approval.Approve))
		before := e.asked.Load()
		r := e.read(t, ask)
		var doc sampleDoc
		text(t, r, &doc)
		if len(doc.Rows) != 3 || e.asked.Load() != before+1 {
			t.Fatalf("%d rows, asked %d", len(doc.Rows), e.asked.Load()-before)
		}
	})
	t.Run("under alwaysAsk the user's denial is 403 -33007", func(t *testing.T) {
		e.answer.Store(int32(approval.Deny))
		r := e.read(t, ask)
		if r.Status != 403 || r.Code() != mcp.CodeForbidden {
			t.Fatalf("%d %v", r.Status, r.Error)
		}
	})
	t.Run("a client that declared elicitation gets input_required, then the rows once it approves", func(t *testing.T) {
		e.answer.Store(int32(approval.Approve))
		first := postElicitation(t, e.srv.URL, ask, nil)
		res, _ := first["result"].(map[string]any)
		if res == nil || res["resultType"] != "input_required" || res["inputRequests"].(map[string]any)[approval.RequestName] == nil {
			t.Fatalf("%v", first)
		}
		second := postElicitation(t, e.srv.URL, ask, map[string]any{
			"requestState":   res["requestState"],
			"inputResponses": map[string]any{approval.RequestName: map[string]any{"action": "accept", "content": map[string]any{"approved": true}}},
		})
		res, _ = second["result"].(map[string]any)
		if res == nil || res["resultType"] != "complete" || len(res["contents"].([]any)) != 1 {
			t.Fatalf("%v", second)
		}
	})
	t.Run("without an approver a read that needs approval is 403 -33007", func(t *testing.T) {
		d := e.deps
		d.Approver = nil
		err := d.approve(t.Context(), e.conns["Ask"], ask, fixtures.Person)
		if pe, ok := err.(*mcp.Error); !ok || pe.Code != mcp.CodeForbidden {
			t.Fatalf("%v", err)
		}
	})
}

// SPEC.md B "Authentication" 3: a connection outside the token's allowlist is 403 -33007 for
// every resource of it, and completes to nothing.
func TestTableResourcesHonourTheTokenAllowlist(t *testing.T) {
	e := newEnv(t, envOptions{auth: func(e *env) mcp.Authenticator {
		return mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
			return mcp.Principal{ID: "token:t", Scopes: auth.Scopes(auth.LevelReadOnly), Connections: []string{e.id("Node")}}, nil
		})
	}})
	other := e.id("Ask")
	for _, uri := range []string{SchemaURI(other), TableURI(other, fixtures.Person), SampleURI(other, fixtures.Person)} {
		t.Run("a connection outside the allowlist is 403 -33007: "+strings.TrimPrefix(uri, "app://connections/"+other), func(t *testing.T) {
			if r := e.read(t, uri); r.Status != 403 || r.Code() != mcp.CodeForbidden {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("an allowlisted connection is readable", func(t *testing.T) {
		if r := e.read(t, TableURI(e.id("Node"), fixtures.Person)); r.Code() != 0 {
			t.Fatalf("%v", r.Error)
		}
	})
	t.Run("{table} of a connection outside the allowlist completes to nothing", func(t *testing.T) {
		r := e.srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateTable},
			"argument": map[string]any{"name": "table", "value": ""},
			"context":  map[string]any{"arguments": map[string]any{"id": other}},
		})
		if vals := r.Result["completion"].(map[string]any)["values"].([]any); len(vals) != 0 {
			t.Fatalf("%v", vals)
		}
	})
}
