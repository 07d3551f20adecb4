package tools

import (
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/driver/weaviate"
)

// Issue 12, "Instructions and tools": what the server instructions must tell a model; the
// language of each database is its driver's words (contract 3), here the Weaviate plugin's.
func TestInstructions(t *testing.T) {
	text := Instructions([]driver.Description{weaviate.Describe(), weaviate.Describe()})
	for _, c := range []struct{ rule, want string }{
		{"start from list_connections", "Start from list_connections"},
		{"list_connections says each connection's language", "it says each connection's query language"},
		{"call describe_table before writing a query", "describe_table before writing a query"},
		{"a refusal is the user's policy, not a transient error", "the user's policy, not a transient error"},
		{"a Weaviate connection's language is GraphQL reads, not SQL", "does not speak SQL: reads are GraphQL"},
		{"one short GraphQL example", "{ Get { Article(limit: 5)"},
		{"REST lines for writes, with one example", "writes are REST lines, e.g. POST /v1/objects"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			if !strings.Contains(text, c.want) {
				t.Fatalf("the instructions do not say %q:\n%s", c.want, text)
			}
		})
	}
	if strings.Count(text, "does not speak SQL") != 1 {
		t.Fatalf("a type's words are said once:\n%s", text)
	}
	if plain := Instructions(nil); strings.Contains(plain, "SQL") || !strings.Contains(plain, "Start from list_connections") {
		t.Fatalf("with no driver described, the instructions name no language:\n%s", plain)
	}
}
