package prompts

import (
	"strings"

	"app/backend/mcp"
)

func dataQualityAudit(f *facts) (string, string, error) {
	table := strings.TrimSpace(f.args["table"])
	info, err := f.describe(table)
	if err != nil {
		return "", "", err
	}
	prop := strings.TrimSpace(f.args["property"])
	if prop != "" && info != nil {
		if _, ok := info.Column(prop); !ok {
			return "", "", mcp.NewError(mcp.CodeInvalidParams, "invalid params: table "+quote(table)+" has no property "+quote(prop), nil)
		}
	}
	var b strings.Builder
	b.WriteString("Audit the data quality of the table " + quote(table))
	if prop != "" {
		b.WriteString(", property " + quote(prop) + " only")
	}
	b.WriteString(".\n" + header(f.c))
	b.WriteString(tableFacts(f, info, table))
	b.WriteString("Steps, all read-only:\n" +
		"1. count_rows for the total.\n" +
		"2. For each property: count_rows with the is_null filter where the null index is on, and is_empty where the length index is on " +
		"(where they are off, say that those checks cannot run on this table rather than guessing).\n" +
		"3. browse_table (a few pages of 50) to spot odd formats, placeholder values, out-of-range numbers and dates.\n" +
		"4. Duplicates and outliers: an Aggregate query with groupBy or meta count through execute_query.\n" +
		"Report each finding with its count and share of rows and an example row's key, worst first, and suggest fixes; " +
		"change nothing.\n\nTools: count_rows, browse_table, describe_table, execute_query.")
	return "Audit " + table + " in " + f.c.Name, b.String(), nil
}
