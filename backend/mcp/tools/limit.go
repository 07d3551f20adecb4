package tools

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"
)

// The row limit of execute_query is applied in the statement itself, never by reading
// everything and cutting afterwards (issue 12): a GraphQL Get over a collection without a
// limit, or with one above the limit in force, is sent with limit+1 (the one extra row tells
// whether more exist); a REST page of /v1/objects gets the limit as its query parameter.

// capGraphQL rewrites the collection fields of every Get in q so that each asks for at most
// limit+1 objects. It returns q unchanged when nothing needed a limit, and the text the
// database gets otherwise. capped tells whether a limit was added or lowered, so that a
// result of limit+1 rows is cut to limit and reported as cut.
func capGraphQL(q string, limit int) (out string, capped bool) {
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return q, false // the driver reports the syntax error itself
	}
	want := &ast.Value{Kind: ast.IntValue, Raw: strconv.Itoa(limit + 1)}
	for _, op := range doc.Operations {
		for _, sel := range op.SelectionSet {
			get, ok := sel.(*ast.Field)
			if !ok || get.Name != "Get" {
				continue
			}
			for _, csel := range get.SelectionSet {
				coll, ok := csel.(*ast.Field)
				if !ok {
					continue
				}
				arg := coll.Arguments.ForName("limit")
				switch {
				case arg == nil:
					coll.Arguments = append(coll.Arguments, &ast.Argument{Name: "limit", Value: want})
					capped = true
				case arg.Value.Kind != ast.IntValue:
					arg.Value = want // a variable or a wrong type: the limit in force decides
					capped = true
				default:
					if n, err := strconv.Atoi(arg.Value.Raw); err != nil || n > limit {
						arg.Value = want
						capped = true
					}
				}
			}
		}
	}
	if !capped {
		return q, false
	}
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatQueryDocument(doc)
	return b.String(), true
}

// capRESTPage lowers the limit of a REST line that reads a page of objects (GET /v1/objects,
// with or without the /v1 prefix) to the limit in force. Other lines are returned unchanged.
func capRESTPage(line string, limit int) string {
	first, rest, _ := strings.Cut(strings.TrimSpace(line), "\n")
	method, target, ok := strings.Cut(strings.TrimSpace(first), " ")
	if !ok || !strings.EqualFold(method, "GET") {
		return line
	}
	target = strings.TrimSpace(target)
	path, query, _ := strings.Cut(target, "?")
	if p := strings.TrimSuffix(path, "/"); p != "/v1/objects" && p != "/objects" {
		return line
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		return line
	}
	if n, err := strconv.Atoi(v.Get("limit")); err == nil && n > 0 && n <= limit {
		return line
	}
	v.Set("limit", strconv.Itoa(limit))
	out := method + " " + path + "?" + v.Encode()
	if rest != "" {
		out += "\n" + rest
	}
	return out
}
