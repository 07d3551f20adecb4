package tools

import (
	"encoding/json"
	"fmt"
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
func capGraphQL(q string, limit int) (out string, capped bool) { return capGetTo(q, limit, limit+1) }

// capGetTo sets the limit of every Get collection whose limit is missing, not a number, or
// above max to want. Fragments are followed (inline ones, and spreads of named fragments,
// whose definitions are capped in place), so a Get cannot hide its collections in one.
func capGetTo(q string, max, want int) (string, bool) {
	doc, err := parser.ParseQuery(&ast.Source{Input: q})
	if err != nil {
		return q, false // the driver reports the syntax error itself
	}
	c := capper{doc: doc, max: max, want: &ast.Value{Kind: ast.IntValue, Raw: strconv.Itoa(want)}, seen: map[string]bool{}}
	for _, op := range doc.Operations {
		c.top(op.SelectionSet)
	}
	if !c.capped {
		return q, false
	}
	var b strings.Builder
	formatter.NewFormatter(&b, formatter.WithIndent("  ")).FormatQueryDocument(doc)
	return b.String(), true
}

type capper struct {
	doc    *ast.QueryDocument
	max    int
	want   *ast.Value
	seen   map[string]bool // fragment definitions already visited, as top or as Get
	capped bool
}

// top walks a selection set where Get may appear.
func (c *capper) top(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "Get" {
				c.collections(s.SelectionSet)
			}
		case *ast.InlineFragment:
			c.top(s.SelectionSet)
		case *ast.FragmentSpread:
			if def := c.fragment("top:" + s.Name); def != nil {
				c.top(def.SelectionSet)
			}
		}
	}
}

// collections walks the selection set of a Get: each field is a collection.
func (c *capper) collections(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			c.capField(s)
		case *ast.InlineFragment:
			c.collections(s.SelectionSet)
		case *ast.FragmentSpread:
			if def := c.fragment("get:" + s.Name); def != nil {
				c.collections(def.SelectionSet)
			}
		}
	}
}

func (c *capper) fragment(key string) *ast.FragmentDefinition {
	if c.seen[key] {
		return nil
	}
	c.seen[key] = true
	_, name, _ := strings.Cut(key, ":")
	return c.doc.Fragments.ForName(name)
}

func (c *capper) capField(f *ast.Field) {
	arg := f.Arguments.ForName("limit")
	switch {
	case arg == nil:
		f.Arguments = append(f.Arguments, &ast.Argument{Name: "limit", Value: c.want})
	case arg.Value.Kind != ast.IntValue:
		arg.Value = c.want // a variable or a wrong type: the limit in force decides
	default:
		if n, err := strconv.Atoi(arg.Value.Raw); err == nil && n <= c.max {
			return
		}
		arg.Value = c.want
	}
	c.capped = true
}

// restLine splits a REST line as the driver reads it: the method and target are the first
// two fields of the first line (any white space, a byte-order mark ignored); the body is
// the rest of the first line and the lines below.
func restLine(text string) (method, target, body string, ok bool) {
	text = strings.TrimPrefix(strings.TrimSpace(text), "\ufeff")
	first, rest, _ := strings.Cut(text, "\n")
	f := strings.Fields(first)
	if len(f) < 2 {
		return "", "", "", false
	}
	switch m := strings.ToUpper(f[0]); m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE":
		_, after, _ := strings.Cut(first, f[1])
		return m, f[1], strings.TrimSpace(after + "\n" + rest), true
	}
	return "", "", "", false
}

// capREST applies the limit to a REST line that reads rows: a page of /v1/objects (the
// limit query parameter, however often or oddly it is given) and a GraphQL read posted to
// /v1/graphql (its Get collections). Other lines are returned unchanged. A query string the
// app cannot read is refused, since the database might read it differently.
func capREST(line string, limit int) (string, error) {
	method, target, body, ok := restLine(line)
	if !ok {
		return line, nil
	}
	path, query, _ := strings.Cut(target, "?")
	p := strings.TrimSuffix(path, "/")
	switch {
	case method == "GET" && (p == "/v1/objects" || p == "/objects"):
		v, err := url.ParseQuery(query)
		if err != nil {
			return "", fmt.Errorf("the query string of %s cannot be read: %w", truncate(target, 200), err)
		}
		if ls := v["limit"]; len(ls) == 1 {
			if n, err := strconv.Atoi(ls[0]); err == nil && n > 0 && n <= limit {
				return line, nil
			}
		}
		v.Set("limit", strconv.Itoa(limit))
		out := method + " " + path + "?" + v.Encode()
		if body != "" {
			out += "\n" + body
		}
		return out, nil
	case method == "POST" && (p == "/v1/graphql" || p == "/graphql"):
		var req map[string]any
		if json.Unmarshal([]byte(body), &req) != nil {
			return line, nil // the driver refuses a body that is not JSON
		}
		q, _ := req["query"].(string)
		capped, changed := capGetTo(q, limit, limit)
		if !changed {
			return line, nil
		}
		req["query"] = capped
		b, err := json.Marshal(req)
		if err != nil {
			return "", err
		}
		return method + " " + target + " " + string(b), nil
	}
	return line, nil
}
