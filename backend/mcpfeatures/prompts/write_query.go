package prompts

import (
	"strings"
)

// writeQuery is the question, the live schema, and how this database is queried, with one
// short example of each kind.
func writeQuery(f *facts) (string, string, error) {
	var b strings.Builder
	b.WriteString("Write a query for the database connection \"" + f.c.Name + "\" (id " + f.c.ID + ", " + f.c.Type + " at " + f.c.Host + ").\n\n")
	b.WriteString("Question: " + strings.TrimSpace(f.args["question"]) + "\n\n")
	b.WriteString(f.schema() + "\n")
	b.WriteString(queryNotes(f.c))
	b.WriteString("Use the collection's real property names and types (look them up with describe_table before writing the query). " +
		"Give the query, then explain in one or two sentences what it returns. Run a read with execute_query only with a small " +
		"limit; a query that writes waits for the user's approval.")
	return "Write a query for " + f.c.Name, b.String(), nil
}
