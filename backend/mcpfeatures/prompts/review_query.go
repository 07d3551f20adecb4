package prompts

import (
	"strings"
)

func reviewQuery(f *facts) (string, string, error) {
	query := strings.TrimSpace(f.args["query"])
	var b strings.Builder
	b.WriteString("Review this query before it runs.\n" + header(f.c))
	b.WriteString("The query:\n```\n" + query + "\n```\n\n")
	if f.drv != nil {
		cl, err := f.drv.Classify(query)
		switch {
		case err != nil:
			b.WriteString("The driver cannot classify it (" + oneLine(safeMessage(err)) + "), so it counts as a write.\n\n")
		case cl.Write() && cl.Destructive:
			b.WriteString("The driver classifies it as a destructive write: it deletes or overwrites data, and the user approves it before it runs.\n\n")
		case cl.Write():
			b.WriteString("The driver classifies it as a write: the user approves it before it runs.\n\n")
		default:
			b.WriteString("The driver classifies it as a read.\n\n")
		}
	}
	b.WriteString(f.schema() + "\n")
	b.WriteString(queryNotes(f.c))
	b.WriteString("Check that every table and property it names exists with that type, that each filter's operator and value " +
		"type suit the property (describe_table lists the filters each column accepts), that it has a sensible limit, and " +
		"whether it writes. Say what it returns or changes, list the problems, and give a corrected query. You may run a " +
		"read with execute_query (with a small limit) or count_rows to check; do not run a write.")
	return "Review a query on " + f.c.Name, b.String(), nil
}
