package tools

import (
	"strings"

	"app/backend/driver"
)

// The server instructions (server/discover and legacy initialize, SPEC.md B "What the service
// does" 4): where to start, describe before query, that a refusal is the user's policy, and
// the query language of the databases the app reaches, in each driver's own words.
const (
	instructionsStart = "This server gives you the user's database connections. " +
		"Start from list_connections; the other tools take a connection id or name from it, and it says each connection's query language. " +
		"Call describe_table before writing a query against a table, so you use its real columns and types. "
	instructionsEnd = "browse_table, count_rows and vector_search need no query text. " +
		"Results are capped (default 500 rows) and say when they were cut and how to read on. " +
		"Writes wait for the user's approval. When the server refuses (denied, a forbidden connection, a missing scope), " +
		"treat the refusal as the user's policy, not a transient error: do not retry or work around it; tell the user."
)

// Instructions is the app's server instructions text with what each described connection
// type says of its language (driver.Words.Instructions), in order, each once. Core passes it
// as mcp.Options.Instructions with the descriptions of the plugins installed when the server
// starts; list_connections says each connection's language whatever was installed since.
func Instructions(ds []driver.Description) string {
	var b strings.Builder
	b.WriteString(instructionsStart)
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Words == nil || d.Words.Instructions == "" || seen[d.Words.Instructions] {
			continue
		}
		seen[d.Words.Instructions] = true
		b.WriteString(strings.TrimSpace(d.Words.Instructions))
		b.WriteString(" ")
	}
	b.WriteString(instructionsEnd)
	return b.String()
}
