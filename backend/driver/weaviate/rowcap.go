package weaviate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
	"github.com/vektah/gqlparser/v2/parser"

	"app/backend/driver"
)

// Execute's row cap (ExecOptions.MaxRows) is applied in the statement itself, never by
// reading everything and cutting afterwards (issue 12; in the driver since issue 19): a
// GraphQL Get over a collection without a limit, or with one above the cap, and a REST page
// of /v1/objects, are sent asking for cap+1 rows; the one extra row tells that more exist,
// and the answer is cut to the cap and says so (issue 25, item 3). A statement's own limit
// within the cap is the whole answer it asked for.

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
		// A limit of 0 asks for the server's default page, which may be above the cap.
		if n, err := strconv.Atoi(arg.Value.Raw); err == nil && n > 0 && n <= c.max {
			return
		}
		arg.Value = c.want
	}
	c.capped = true
}

// capREST applies the cap to a REST line that reads rows: a page of /v1/objects (the limit
// query parameter, however often or oddly it is given) and a GraphQL read posted to
// /v1/graphql (its Get collections), each asking for limit+1. Other lines are returned
// unchanged, with capped false. A query string the driver cannot read is refused, since the
// database might read it differently.
func capREST(r restLine, limit int) (out restLine, capped bool, err error) {
	p := strings.TrimSuffix(r.Path, "/")
	switch {
	case r.Method == http.MethodGet && p == "/v1/objects":
		v, err := url.ParseQuery(r.Query)
		if err != nil {
			return r, false, driver.Errorf(driver.KindInvalidArgument, "the query string of %s cannot be read: %v", r.Path, err)
		}
		if ls := v["limit"]; len(ls) == 1 {
			if n, err := strconv.Atoi(ls[0]); err == nil && n > 0 && n <= limit {
				return r, false, nil
			}
		}
		v.Set("limit", strconv.Itoa(limit+1))
		r.Query = v.Encode()
		return r, true, nil
	case r.Method == http.MethodPost && p == "/v1/graphql":
		var req map[string]any
		if json.Unmarshal(r.Body, &req) != nil {
			return r, false, nil // the server refuses a body that is not JSON
		}
		q, _ := req["query"].(string)
		capped, changed := capGraphQL(q, limit)
		if !changed {
			return r, false, nil
		}
		req["query"] = capped
		b, err := json.Marshal(req)
		if err != nil {
			return r, false, driver.Wrap(driver.KindQueryFailed, err, "the capped query cannot be written")
		}
		r.Body = b
		return r, true, nil
	}
	return r, false, nil
}

// cutObjects cuts a REST page of objects to limit, saying how to read on (the cursor after
// the last object kept).
func cutObjects(res *driver.Result, limit int) {
	var page map[string]json.RawMessage
	if json.Unmarshal(res.JSON, &page) != nil {
		return
	}
	var objs []json.RawMessage
	if json.Unmarshal(page["objects"], &objs) != nil || len(objs) <= limit {
		return
	}
	objs = objs[:limit]
	var last struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(objs[len(objs)-1], &last)
	page["objects"], _ = json.Marshal(objs)
	page["totalResults"], _ = json.Marshal(limit)
	b, _ := json.Marshal(page)
	res.JSON = formatJSON(b, res.Status)
	res.Truncated = true
	res.Notice = fmt.Sprintf("the page was limited to %d objects: read on with after=%s (the cursor, with class and no offset) or offset=%d", limit, last.ID, limit)
}

// getShape is what the cut of a Get's answer needs from its text: the response keys of
// its Get fields (an alias included) and the offset its one collection starts at (0 when it
// names none, or when the text holds several collections).
func getShape(doc *ast.QueryDocument, op *ast.OperationDefinition) (keys []string, offset int) {
	var colls []*ast.Field
	for _, f := range fields(doc, op.SelectionSet, 0) {
		if f.Name == "Get" {
			keys = append(keys, key(f))
			colls = append(colls, fields(doc, f.SelectionSet, 0)...)
		}
	}
	if len(colls) == 1 {
		if a := colls[0].Arguments.ForName("offset"); a != nil && a.Value.Kind == ast.IntValue {
			offset, _ = strconv.Atoi(a.Value.Raw)
		}
	}
	return keys, offset
}

// cutGetJSON cuts every collection of a Get answer ({"Get": {"C": [...]}} under each of
// keys, the Get fields' response keys; under "data" for a posted GraphQL answer) to limit,
// saying so.
func cutGetJSON(res *driver.Result, limit, offset int, keys []string, underData bool) {
	var doc map[string]json.RawMessage
	if json.Unmarshal(res.JSON, &doc) != nil {
		return
	}
	holder := doc
	if underData {
		if json.Unmarshal(doc["data"], &holder) != nil {
			return
		}
	}
	cut := false
	for _, k := range keys {
		var get map[string][]json.RawMessage
		if json.Unmarshal(holder[k], &get) != nil {
			continue
		}
		changed := false
		for name, objs := range get {
			if len(objs) > limit {
				get[name], changed = objs[:limit], true
			}
		}
		if changed {
			holder[k], _ = json.Marshal(get)
			cut = true
		}
	}
	if !cut {
		return
	}
	if underData {
		doc["data"], _ = json.Marshal(holder)
	}
	b, _ := json.Marshal(doc)
	res.JSON = formatJSON(b, http.StatusOK)
	res.Truncated = true
	res.Notice = joinNotes(res.Notice, limitNotice(limit, offset))
}

// joinNotes puts a second note after a first (a translated Get that was also cut says both).
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// cutGrid cuts a Get's grid to limit, saying so; the grid starts at the statement's offset.
func cutGrid(g *driver.Grid, limit, offset int) bool {
	g.Offset = offset
	if len(g.Rows) <= limit {
		return false
	}
	g.Rows = g.Rows[:limit]
	g.HasMore = true
	g.Notice = limitNotice(limit, offset)
	return true
}

func limitNotice(limit, offset int) string {
	return fmt.Sprintf("the statement was limited to %d rows: add offset: %d (and a limit) to the Get arguments to read on", limit, offset+limit)
}
