package prompts

import (
	"strings"
)

func explainTable(f *facts) (string, string, error) {
	table := strings.TrimSpace(f.args["table"])
	info, err := f.describe(table)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString("Explain the table " + quote(table) + " to me.\n" + header(f.c))
	b.WriteString(tableFacts(f, info, table))
	b.WriteString("Say what one row stands for, what each column means and holds (look at a few rows with browse_table, " +
		"limit 5), how many rows there are (count_rows), which columns can be filtered and sorted, and how to search it " +
		"by meaning (vector_search) when it has vectors. Give two example queries for execute_query.\n\n")
	b.WriteString(queryNotes(f.c))
	b.WriteString("Tools: describe_table, browse_table, count_rows, vector_search, execute_query. Only read: do not change anything.")
	return "Explain " + table + " in " + f.c.Name, b.String(), nil
}
