package prompts

import (
	"strings"

	"github.com/google/uuid"

	"app/backend/mcp"
)

func findSimilar(f *facts) (string, string, error) {
	table := strings.TrimSpace(f.args["table"])
	id := strings.TrimSpace(f.args["uuid"])
	if _, err := uuid.Parse(id); err != nil {
		return "", "", mcp.NewError(mcp.CodeInvalidParams, "invalid params: uuid "+quote(id)+" is not a uuid", nil)
	}
	info, err := f.describe(table)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString("Find the objects of " + quote(table) + " most similar to the object " + id + ".\n" + header(f.c))
	b.WriteString(tableFacts(f, info, table))
	target := ""
	if info != nil && len(info.Settings.NamedVectors) > 0 {
		target = " Name the vector to compare (one of " + strings.Join(info.Settings.NamedVectors, ", ") + ") and say which you used."
	}
	b.WriteString("1. Fetch the object with browse_table (filter uuid equals " + id + ") and say what it is.\n" +
		"2. Search with vector_search similarTo that object (its uuid), limit 11, and leave the object itself out." + target + "\n" +
		"3. List the matches with their distance and what they share with the object and how they differ.\n" +
		"If the table has no vectors, say so and compare by properties with browse_table filters instead.\n\n" +
		"Tools: browse_table, vector_search, describe_table, execute_query. Only read: do not change anything.")
	return "Objects similar to " + id + " in " + table, b.String(), nil
}
