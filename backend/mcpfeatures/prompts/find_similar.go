package prompts

import (
	"bytes"
	"encoding/json"
	"strings"

	"app/backend/driver"
	"app/backend/mcp"
)

func findSimilar(f *facts) (string, string, error) {
	table := strings.TrimSpace(f.args["table"])
	info, err := f.describe(table)
	if err != nil {
		return "", "", err
	}
	key, err := f.rowKey(info, table, strings.TrimSpace(f.args["key"]))
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString("Find the rows of " + quote(table) + " most similar to the row " + key + ".\n" + header(f.c))
	b.WriteString(tableFacts(f, info, table))
	target := ""
	if info != nil && len(info.Settings.NamedVectors) > 0 {
		target = " Name the vector to compare (one of " + strings.Join(info.Settings.NamedVectors, ", ") + ") and say which you used."
	}
	b.WriteString("1. Fetch the row with browse_table (a filter equals on each key column) and say what it is.\n" +
		"2. Search with vector_search similarTo that row's key, limit 11, and leave the row itself out." + target + "\n" +
		"3. List the matches with their distance and what they share with the row and how they differ.\n" +
		"If the table has no vectors, say so and compare by columns with browse_table filters instead.\n\n" +
		"Tools: browse_table, vector_search, describe_table, execute_query. Only read: do not change anything.")
	return "Rows similar to " + key + " in " + table, b.String(), nil
}

// rowKey reads the key argument: a JSON object by key column, or the value alone for a table
// keyed by one column. It is held to the table's key and, where the connection is open, to
// the database's own reading of it (a Count on the key's filters), so a key the database
// cannot read is -32602 here rather than a failed search later. It returns the key as the
// prompt shows it: its JSON object, or the text as given when the table could not be read.
func (f *facts) rowKey(info *driver.TableInfo, table, text string) (string, error) {
	bad := func(why string) error {
		return mcp.NewError(mcp.CodeInvalidParams, "invalid params: key "+quote(text)+": "+why, nil)
	}
	if text == "" {
		return "", bad("give the key of the row to start from")
	}
	var k driver.Key
	if strings.HasPrefix(text, "{") {
		dec := json.NewDecoder(bytes.NewReader([]byte(text)))
		dec.UseNumber()
		if err := dec.Decode(&k); err != nil {
			return "", bad("not a JSON object of key columns")
		}
	}
	if info == nil {
		return text, nil // the table could not be read: the prompt sends the model to describe_table
	}
	if k == nil && len(info.PrimaryKey) == 1 {
		k = driver.Key{info.PrimaryKey[0]: text}
	}
	if err := driver.CheckKey(info.PrimaryKey, k, "the key"); err != nil {
		return "", bad(safeMessage(err))
	}
	if _, err := f.drv.Count(f.ctx, table, driver.KeyFilters(info.PrimaryKey, k)); driver.KindOf(err) == driver.KindRefusedFilter {
		return "", bad(safeMessage(err))
	}
	out, _ := json.Marshal(k)
	return string(out), nil
}
