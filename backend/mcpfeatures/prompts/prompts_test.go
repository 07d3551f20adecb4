package prompts

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
	"app/backend/mcpfeatures/tools"
	"app/internal/testkit/mcptest"
)

// write_query: arguments validated and completed from the live, visible
// connections; the text says how this database is queried (GraphQL reads,
// REST-line writes), with one example of each.
func TestWriteQuery(t *testing.T) {
	store := mcptest.NewStore(t)
	ctx := context.Background()
	demo, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "Demo", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "Dark", ExternalAccess: connections.AccessBlocked, Settings: driver.Settings{Host: "127.0.0.1", Port: 8081}}, ""); err != nil {
		t.Fatal(err)
	}
	srv := mcptest.Start(t, mcp.Options{Prompts: All(Deps{Connections: store})})

	t.Run("prompts/list lists write_query with two required arguments", func(t *testing.T) {
		r := srv.Call(t, "prompts/list", nil)
		var p map[string]any
		for _, it := range r.Result["prompts"].([]any) {
			if it.(map[string]any)["name"] == NameWriteQuery {
				p = it.(map[string]any)
			}
		}
		args := p["arguments"].([]any)
		if len(args) != 2 || args[0].(map[string]any)["required"] != true {
			t.Fatalf("%v", r.Result)
		}
	})
	for _, ref := range []string{"Demo", "demo", demo.ID} {
		t.Run("the connection is found by name or id: "+ref, func(t *testing.T) {
			r := srv.Call(t, "prompts/get", map[string]any{"name": NameWriteQuery, "arguments": map[string]any{"connection": ref, "question": "the 10 longest articles"}})
			text := r.Result["messages"].([]any)[0].(map[string]any)["content"].(map[string]any)["text"].(string)
			for _, want := range []string{`"Demo"`, demo.ID, "the 10 longest articles", "GraphQL, not SQL", "{ Get {", "PATCH /v1/objects/"} {
				if !strings.Contains(text, want) {
					t.Fatalf("%q missing from %s", want, text)
				}
			}
		})
	}
	for name, args := range map[string]map[string]any{
		"a blocked connection":  {"connection": "Dark", "question": "q"},
		"an unknown connection": {"connection": "nope", "question": "q"},
		"no question":           {"connection": "Demo"},
	} {
		t.Run(name+" is -32602", func(t *testing.T) {
			r := srv.Call(t, "prompts/get", map[string]any{"name": NameWriteQuery, "arguments": args})
			if r.Status != 400 || r.Code() != mcp.CodeInvalidParams {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("connection completes from the visible connection names", func(t *testing.T) {
		r := srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": NameWriteQuery},
			"argument": map[string]any{"name": "connection", "value": "D"},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if len(vals) != 1 || vals[0] != "Demo" {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("question has nothing to complete", func(t *testing.T) {
		r := srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": NameWriteQuery},
			"argument": map[string]any{"name": "question", "value": "x"},
		})
		if vals := r.Result["completion"].(map[string]any)["values"].([]any); len(vals) != 0 {
			t.Fatalf("%v", vals)
		}
	})
}

// SPEC.md B "Authentication" 3, issue 11: write_query's connection argument completes from the
// caller's allowlisted connections only, and naming one outside the allowlist is 403 -33007.
func TestWriteQueryHonoursTheTokenAllowlist(t *testing.T) {
	store := mcptest.NewStore(t)
	ctx := context.Background()
	demo, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "Demo", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "Dev", Settings: driver.Settings{Host: "127.0.0.1", Port: 8081}}, ""); err != nil {
		t.Fatal(err)
	}
	srv := mcptest.Start(t, mcp.Options{Prompts: All(Deps{Connections: store}),
		Authenticator: mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
			return mcp.Principal{ID: "token:t", Scopes: auth.Scopes(auth.LevelReadOnly), Connections: []string{demo.ID}}, nil
		})})
	get := func(ref string) mcptest.Reply {
		return srv.Call(t, "prompts/get", map[string]any{"name": NameWriteQuery, "arguments": map[string]any{"connection": ref, "question": "q"}})
	}
	t.Run("an allowlisted connection is found", func(t *testing.T) {
		if r := get("Demo"); r.Code() != 0 {
			t.Fatalf("%v", r.Error)
		}
	})
	for _, ref := range []string{"Dev", "dev"} {
		t.Run("a connection outside the allowlist is 403 -33007: "+ref, func(t *testing.T) {
			if r := get(ref); r.Status != 403 || r.Code() != mcp.CodeForbidden {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("connection completes from the allowlisted names only", func(t *testing.T) {
		r := srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/prompt", "name": NameWriteQuery},
			"argument": map[string]any{"name": "connection", "value": "D"},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if len(vals) != 1 || vals[0] != "Demo" {
			t.Fatalf("%v", r.Result)
		}
	})
}

// issue 24, item 1: every tool a prompt names is in the tool table, so renaming or removing a
// tool cannot leave a prompt that sends a model to a tool that is not there. The prompts'
// text is read from their source, where every snake_case word is a tool, a prompt or a filter
// operator.
func TestPromptsNameOnlyToolsOfTheTable(t *testing.T) {
	src, err := os.ReadFile("prompts.go")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for _, tool := range tools.All(tools.Deps{}) {
		known[tool.Name] = "tool"
	}
	for _, p := range All(Deps{}) {
		known[p.Name] = "prompt"
	}
	for _, op := range driver.Operators() {
		known[string(op)] = "operator"
	}
	words := regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`).FindAllString(string(src), -1)
	named := 0
	for _, w := range slices.Compact(slices.Sorted(slices.Values(words))) {
		t.Run(w, func(t *testing.T) {
			if known[w] == "" {
				t.Fatalf("%q is named in prompts.go but is no tool of tools.All, prompt or filter operator", w)
			}
		})
		if known[w] == "tool" {
			named++
		}
	}
	if named < 5 {
		t.Fatalf("found %d tool names in prompts.go; the scan is broken", named)
	}
}
