package prompts

import "strings"

func explainSchema(f *facts) (string, string, error) {
	var b strings.Builder
	b.WriteString("Explain the schema of this database to me.\n" + header(f.c))
	b.WriteString(f.schema() + "\n")
	b.WriteString("For each table say what one row stands for and what its important columns mean; point out how the tables " +
		"relate (a column whose type is another table's name is a cross-reference to it) and which columns hold vectors for " +
		"similarity search. End with three questions this data could answer.\n\n" +
		"Tools: describe_table for a table's full description (filters, settings), browse_table to look at a few rows, " +
		"count_rows for how big a table is; list_connections names the other connections. Only read: do not change anything.")
	return "Explain the schema of " + f.c.Name, b.String(), nil
}
