package prompts

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/mcpfeatures/tools"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// TestMain stops the shared weaviate-server node the tests start.
func TestMain(m *testing.M) { weaviatetest.Main(m) }

// liveEnv is a real MCP server serving the prompts over saved connections to the shared,
// fixture-loaded API-key weaviate-server, opened by a real Manager with the in-process driver.
type liveEnv struct {
	node *weaviatenode.Node
	srv  *mcptest.Server
	ids  map[string]string
}

func newLiveEnv(t *testing.T, authn func(ids map[string]string) mcp.Authenticator) *liveEnv {
	t.Helper()
	node := weaviatetest.Shared(t, weaviatenode.APIKey)
	store := mcptest.NewStore(t)
	s := driver.DefaultSettings()
	s.Host, s.Port, s.AuthMethod = node.Host, node.Port, driver.AuthAPIKey
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := s
	down.Port = l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	e := &liveEnv{node: node, ids: map[string]string{}}
	for _, c := range []connections.Connection{
		{Type: "weaviate", Name: "Node", Settings: s},
		{Type: "weaviate", Name: "Other", Settings: s},
		{Type: "weaviate", Name: "Blocked", Settings: s, ExternalAccess: connections.AccessBlocked},
		{Type: "weaviate", Name: "Down", Settings: down},
	} {
		saved, err := store.Add(context.Background(), c, node.APIKey)
		if err != nil {
			t.Fatal(err)
		}
		e.ids[c.Name] = saved.ID
	}
	m := connections.NewManager(store, connections.ManagerOptions{Factory: func(_ context.Context, c connections.Connection) (driver.Driver, error) {
		return weaviate.New(c.Settings)
	}})
	t.Cleanup(m.Close)
	var a mcp.Authenticator
	if authn != nil {
		a = authn(e.ids)
	}
	e.srv = mcptest.Start(t, mcp.Options{Prompts: All(Deps{Connections: store, Open: m}), Authenticator: a})
	return e
}

// get renders a prompt and returns its text, failing on a protocol error or when the node's
// API key is in it.
func (e *liveEnv) get(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	r := e.srv.Call(t, "prompts/get", map[string]any{"name": name, "arguments": args})
	if r.Error != nil {
		t.Fatalf("%s: %d %s", name, r.Error.Code, r.Error.Message)
	}
	text := r.Result["messages"].([]any)[0].(map[string]any)["content"].(map[string]any)["text"].(string)
	if strings.Contains(text, e.node.APIKey) {
		t.Fatalf("the API key is in the prompt: %s", text)
	}
	return text
}

func (e *liveEnv) complete(t *testing.T, prompt, arg, value string, chosen map[string]any) []any {
	t.Helper()
	r := e.srv.Call(t, "completion/complete", map[string]any{
		"ref":      map[string]any{"type": "ref/prompt", "name": prompt},
		"argument": map[string]any{"name": arg, "value": value},
		"context":  map[string]any{"arguments": chosen},
	})
	if r.Error != nil {
		t.Fatalf("%d %s", r.Error.Code, r.Error.Message)
	}
	return r.Result["completion"].(map[string]any)["values"].([]any)
}

// toolWord matches what reads as a tool name in a prompt: a snake_case word that starts with
// one of the tool table's verbs (list_tables, count_rows, vector_search, ...). Filter operator
// names (is_null) and prompt names (find_similar) start otherwise.
var toolWord = regexp.MustCompile(`\b(?:list|describe|browse|count|vector|execute|insert|update|delete|search|connection|confirm)_[a-z_]+\b`)

func mustContain(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Fatalf("%q missing from:\n%s", w, text)
		}
	}
}

// Each prompt's text embeds the live schema facts it needs and names the tools to use
// (package comment), read from a real weaviate-server.
func TestPromptsEmbedLiveSchemaFacts(t *testing.T) {
	e := newLiveEnv(t, nil)
	const someUUID = "00000002-0000-4000-8000-000000000001"

	t.Run("prompts/list lists the six prompts", func(t *testing.T) {
		r := e.srv.Call(t, "prompts/list", nil)
		var names []string
		for _, p := range r.Result["prompts"].([]any) {
			names = append(names, p.(map[string]any)["name"].(string))
		}
		want := []string{NameExplainSchema, NameExplainTable, NameWriteQuery, NameReviewQuery, NameDataQualityAudit, NameFindSimilar}
		if !slices.Equal(names, want) {
			t.Fatalf("%v", names)
		}
	})
	cases := []struct {
		rule string
		name string
		args map[string]any
		want []string
	}{
		{"explain_schema lists every table with its columns and types", NameExplainSchema, map[string]any{"connection": "Node"},
			[]string{"- Typed (Every property type; null and length indexes on.): uuid uuid (primary key), title text", "count int", "writtenBy Person", "NamedVectors", "Big", "describe_table", "browse_table", "count_rows"}},
		{"explain_table describes the table's columns, filters and settings", NameExplainTable, map[string]any{"connection": "Node", "table": fixtures.Typed},
			[]string{"Table Typed", "Primary key: uuid", "- count: int", "filters:", "null index on", "browse_table", "count_rows", "vector_search", "execute_query"}},
		{"write_query embeds the schema and how Weaviate is queried", NameWriteQuery, map[string]any{"connection": "Node", "question": "who wrote the most?"},
			[]string{"who wrote the most?", "- Person (Cross-reference target.): uuid uuid (primary key), name text", "GraphQL, not SQL", "describe_table", "execute_query"}},
		{"review_query says a REST delete is a destructive write", NameReviewQuery, map[string]any{"connection": "Node", "query": "DELETE /v1/objects/Typed/" + someUUID},
			[]string{"DELETE /v1/objects/Typed/" + someUUID, "destructive write", "- Typed (", "execute_query"}},
		{"review_query says a Get is a read", NameReviewQuery, map[string]any{"connection": "Node", "query": "{ Get { Person { name } } }"},
			[]string{"classifies it as a read", "- Person ("}},
		{"data_quality_audit knows which null checks a table can run", NameDataQualityAudit, map[string]any{"connection": "Node", "table": fixtures.Unindexed},
			[]string{"Table Unindexed", "null index off", "is_null", "count_rows", "browse_table", "execute_query"}},
		{"data_quality_audit may focus on one property", NameDataQualityAudit, map[string]any{"connection": "Node", "table": fixtures.Typed, "property": "price"},
			[]string{`property "price" only`, "- price: number"}},
		{"find_similar names the table's vectors and the search", NameFindSimilar, map[string]any{"connection": "Node", "table": fixtures.NamedVectors, "key": someUUID},
			[]string{"named vectors", "title_vec", "body_vec", "vector_search similarTo", `{"uuid":"` + someUUID + `"}`, "browse_table"}},
		{"find_similar takes the key as a JSON object by key column too", NameFindSimilar, map[string]any{"connection": "Node", "table": fixtures.NamedVectors, "key": `{"uuid": "` + someUUID + `"}`},
			[]string{`the row {"uuid":"` + someUUID + `"}`}},
		{"an unreachable connection's prompt says why and sends the model to describe_table", NameExplainSchema, map[string]any{"connection": "Down"},
			[]string{"could not be read just now (Connection failed:", "describe_table", "app://connections/" + e.ids["Down"] + "/schema"}},
	}
	known := map[string]bool{}
	for _, tool := range tools.All(tools.Deps{}) {
		known[tool.Name] = true
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			text := e.get(t, c.name, c.args)
			mustContain(t, text, c.want...)
			// Issue 24, item 1: every tool a prompt sends the model to is in the tool table, so a
			// renamed or removed tool cannot leave a prompt naming what does not exist.
			for _, name := range toolWord.FindAllString(text, -1) {
				if !known[name] {
					t.Errorf("the prompt names the tool %q, which tools/list does not have", name)
				}
			}
		})
	}
	for _, c := range []struct {
		rule string
		name string
		args map[string]any
	}{
		{"an unknown table is -32602", NameExplainTable, map[string]any{"connection": "Node", "table": "NoSuchTable"}},
		{"an unknown property is -32602", NameDataQualityAudit, map[string]any{"connection": "Node", "table": fixtures.Typed, "property": "nope"}},
		{"a key the database cannot read (a uuid that is not one) is -32602", NameFindSimilar, map[string]any{"connection": "Node", "table": fixtures.Typed, "key": "not-a-uuid"}},
		{"a key naming another column than the table's key is -32602", NameFindSimilar, map[string]any{"connection": "Node", "table": fixtures.Typed, "key": `{"title": "Alpha"}`}},
		{"a key that is not JSON where it opens like an object is -32602", NameFindSimilar, map[string]any{"connection": "Node", "table": fixtures.Typed, "key": `{"uuid": `}},
		{"a blocked connection is -32602", NameExplainSchema, map[string]any{"connection": "Blocked"}},
		{"a missing table is -32602", NameExplainTable, map[string]any{"connection": "Node"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			r := e.srv.Call(t, "prompts/get", map[string]any{"name": c.name, "arguments": c.args})
			if r.Status != 400 || r.Code() != mcp.CodeInvalidParams {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
}

// completion/complete fills the prompts' arguments from the live schema.
func TestPromptArgumentsCompleteFromTheLiveSchema(t *testing.T) {
	e := newLiveEnv(t, nil)
	t.Run("connection completes from the visible connection names", func(t *testing.T) {
		if vals := e.complete(t, NameExplainTable, "connection", "", nil); !slices.Equal(vals, []any{"Down", "Node", "Other"}) {
			t.Fatalf("%v", vals)
		}
	})
	t.Run("table completes from the chosen connection's tables", func(t *testing.T) {
		vals := e.complete(t, NameExplainTable, "table", "t", map[string]any{"connection": "Node"})
		if !slices.Equal(vals, []any{fixtures.Tenanted, fixtures.Typed}) {
			t.Fatalf("%v", vals)
		}
	})
	t.Run("property completes from the chosen table's columns, key left out", func(t *testing.T) {
		vals := e.complete(t, NameDataQualityAudit, "property", "", map[string]any{"connection": "Node", "table": fixtures.Person})
		if !slices.Equal(vals, []any{"name"}) {
			t.Fatalf("%v", vals)
		}
	})
	t.Run("property completes without the named vectors, which are no property", func(t *testing.T) {
		vals := e.complete(t, NameDataQualityAudit, "property", "", map[string]any{"connection": "Node", "table": fixtures.NamedVectors})
		if len(vals) == 0 || slices.Contains(vals, any("vectors")) || slices.Contains(vals, any("vector")) {
			t.Fatalf("%v", vals)
		}
	})
	for name, chosen := range map[string]map[string]any{
		"no connection chosen":      nil,
		"a blocked connection":      {"connection": "Blocked"},
		"a connection that is down": {"connection": "Down"},
	} {
		t.Run("table completes to nothing for "+name, func(t *testing.T) {
			if vals := e.complete(t, NameFindSimilar, "table", "", chosen); len(vals) != 0 {
				t.Fatalf("%v", vals)
			}
		})
	}
	t.Run("key has nothing to complete", func(t *testing.T) {
		if vals := e.complete(t, NameFindSimilar, "key", "0", map[string]any{"connection": "Node", "table": fixtures.Typed}); len(vals) != 0 {
			t.Fatalf("%v", vals)
		}
	})
}

// SPEC.md B "Authentication" 3: a connection outside the token's allowlist is 403 -33007 for
// every prompt, and its tables complete to nothing.
func TestLivePromptsHonourTheTokenAllowlist(t *testing.T) {
	e := newLiveEnv(t, func(ids map[string]string) mcp.Authenticator {
		return mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
			return mcp.Principal{ID: "token:t", Scopes: auth.Scopes(auth.LevelReadOnly), Connections: []string{ids["Node"]}}, nil
		})
	})
	for _, name := range []string{NameExplainSchema, NameExplainTable, NameReviewQuery, NameDataQualityAudit, NameFindSimilar} {
		t.Run(name+" on a connection outside the allowlist is 403 -33007", func(t *testing.T) {
			args := map[string]any{"connection": "Other", "table": fixtures.Person, "query": "{ Get { Person { name } } }", "key": "00000001-0000-4000-8000-000000000001"}
			for _, a := range []string{"table", "query", "key"} {
				if !needs(name, a) {
					delete(args, a)
				}
			}
			r := e.srv.Call(t, "prompts/get", map[string]any{"name": name, "arguments": args})
			if r.Status != 403 || r.Code() != mcp.CodeForbidden {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("table of a connection outside the allowlist completes to nothing", func(t *testing.T) {
		if vals := e.complete(t, NameExplainTable, "table", "", map[string]any{"connection": "Other"}); len(vals) != 0 {
			t.Fatalf("%v", vals)
		}
	})
}

// needs tells whether the prompt has the argument.
func needs(prompt, arg string) bool {
	for _, p := range All(Deps{}) {
		if p.Name == prompt {
			for _, a := range p.Arguments {
				if a.Name == arg {
					return true
				}
			}
		}
	}
	return false
}
