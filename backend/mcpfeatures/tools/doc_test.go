package tools

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/auth"
)

// Every tool of the table has a unique name, an object input schema that
// refuses unknown arguments, an output schema, annotations and a handler. The
// statement tools list no output schema: their result is a page of rows or a
// JSON document, and define infers schemas from one struct (issue 24).
func TestToolTable(t *testing.T) {
	twoShapes := map[string]bool{NameExecuteQuery: true, NameConfirmDestructive: true}
	seen := map[string]bool{}
	for _, tool := range All(Deps{}) {
		t.Run(tool.Name+" is complete", func(t *testing.T) {
			if seen[tool.Name] {
				t.Fatal("listed twice")
			}
			seen[tool.Name] = true
			if tool.Description == "" || tool.Handler == nil || tool.Annotations == nil || (tool.OutputSchema == nil) != twoShapes[tool.Name] {
				t.Fatalf("%+v", tool)
			}
			if tool.InputSchema.Type != "object" || !refusesUnknown(tool.InputSchema) {
				b, _ := json.Marshal(tool.InputSchema)
				t.Fatalf("input schema %s must refuse unknown arguments", b)
			}
		})
	}
}

// docs/architecture.md "MCP access control": every tool that writes needs a write scope
// (tools:write, or admin for admin tools), so a readOnly token neither sees nor calls it; a
// read tool needs no scope beyond tools:read.
func TestEveryWriteToolNeedsAWriteScope(t *testing.T) {
	for _, tool := range All(Deps{}) {
		t.Run(tool.Name, func(t *testing.T) {
			switch {
			case tool.Write && tool.Scope != auth.ScopeToolsWrite && tool.Scope != auth.ScopeAdmin:
				t.Fatalf("writes with scope %q", tool.Scope)
			case !tool.Write && tool.Scope != "":
				t.Fatalf("reads with scope %q", tool.Scope)
			case tool.Name == NameExecuteQuery:
				// The one tool whose statements decide: it needs only tools:read, and each
				// write it runs is approved one by one (backend/approval), so it is not
				// read-only either.
				if tool.Write || tool.Scope != "" || tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint {
					t.Fatalf("execute_query: Write %v, scope %q, annotations %+v", tool.Write, tool.Scope, tool.Annotations)
				}
			case tool.Name == NameDisconnect:
				// It writes no data (no write scope, no approval) but changes which connections
				// are open, ending the caller's hold: not read-only, not destructive.
				if tool.Write || tool.Scope != "" || tool.Annotations.ReadOnlyHint || tool.Annotations.DestructiveHint {
					t.Fatalf("disconnect: Write %v, scope %q, annotations %+v", tool.Write, tool.Scope, tool.Annotations)
				}
			case tool.Write == tool.Annotations.ReadOnlyHint:
				t.Fatalf("Write %v but readOnlyHint %v", tool.Write, tool.Annotations.ReadOnlyHint)
			}
		})
	}
}

func refusesUnknown(s *jsonschema.Schema) bool {
	return s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
}

// The 2025 revisions' wire schema (and the TS SDK v1's validation of tools/list) takes every
// member of a schema's properties as an object: a boolean schema there (what an empty
// jsonschema.Schema marshals to) breaks tools/list for those clients.
func TestEveryPropertySchemaIsAnObject(t *testing.T) {
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			if a, ok := v.([]any); ok {
				for i, x := range a {
					walk(fmt.Sprintf("%s[%d]", path, i), x)
				}
			}
			return
		}
		for k, x := range m {
			if k == "properties" {
				props, _ := x.(map[string]any)
				for name, p := range props {
					if _, ok := p.(map[string]any); !ok {
						t.Errorf("%s.properties.%s is %v, not an object", path, name, p)
					}
					walk(path+".properties."+name, p)
				}
				continue
			}
			walk(path+"."+k, x)
		}
	}
	for _, tool := range All(Deps{}) {
		for name, s := range map[string]*jsonschema.Schema{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			if s == nil {
				continue
			}
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			_ = json.Unmarshal(b, &v)
			walk(tool.Name+"."+name, v)
		}
	}
}
