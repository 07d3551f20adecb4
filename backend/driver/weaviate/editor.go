package weaviate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"app/backend/driver"
)

// restMethods are the methods a REST line may start with.
var restMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true,
	http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true,
}

// restLine is a parsed "<METHOD> <path> [body]" editor line.
type restLine struct {
	Method string
	Path   string // starts with /v1; no query
	Query  string // raw query, without '?'
	Body   []byte // nil when absent; valid JSON otherwise
}

// Target is the path with its query.
func (r restLine) Target() string {
	if r.Query == "" {
		return r.Path
	}
	return r.Path + "?" + r.Query
}

// parseRESTLine recognises a REST line. ok=false means the text is not a
// REST line (it is GraphQL); err means it is one but malformed.
//
// Leading white space and invisible characters (a byte-order mark, a zero-width space, a
// no-break space: what copied text carries) are not part of the line, and any white space
// separates the method from the path: a line that looks like a REST line to a person is
// one here, so it is classified, confirmed and run as one (issue 25, item 1).
func parseRESTLine(text string) (r restLine, ok bool, err error) {
	s := strings.TrimLeftFunc(text, invisible)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i <= 0 {
		return r, false, nil
	}
	method := strings.ToUpper(s[:i])
	if !restMethods[method] {
		return r, false, nil
	}
	rest := strings.TrimLeftFunc(s[i:], inlineSpace)
	if rest == "" || rest[0] == '\n' || rest[0] == '\r' {
		return r, true, driver.Errorf(driver.KindInvalidArgument, "the REST line %s has no path; write <METHOD> <path>, e.g. GET /v1/meta", method)
	}
	j := strings.IndexFunc(rest, unicode.IsSpace)
	target, body := rest, ""
	if j >= 0 {
		target, body = rest[:j], rest[j:]
	}
	if !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "//") {
		return r, true, driver.Errorf(driver.KindInvalidArgument, "the REST path %q must start with a single / (e.g. /v1/schema); hosts and schemes are not allowed", target)
	}
	u, perr := url.Parse(target)
	if perr != nil || u.Host != "" || u.Scheme != "" || u.Fragment != "" || u.User != nil {
		return r, true, driver.Errorf(driver.KindInvalidArgument, "the REST path %q is not a valid path", target)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == ".." || seg == "." {
			return r, true, driver.Errorf(driver.KindInvalidArgument, "the REST path %q must not hold . or .. segments", target)
		}
	}
	for _, c := range target {
		if c < 0x20 || c == 0x7f {
			return r, true, driver.Errorf(driver.KindInvalidArgument, "the REST path holds a control character")
		}
	}
	path, query, _ := strings.Cut(target, "?")
	if path != "/v1" && !strings.HasPrefix(path, "/v1/") {
		path = "/v1" + path
		if path == "/v1/" {
			path = "/v1"
		}
	}
	r = restLine{Method: method, Path: path, Query: query}
	body = strings.TrimSpace(body)
	if body != "" {
		if !json.Valid([]byte(body)) {
			return r, true, driver.Errorf(driver.KindInvalidArgument, "the body of %s %s is not valid JSON", method, path)
		}
		if method == http.MethodGet || method == http.MethodHead {
			return r, true, driver.Errorf(driver.KindInvalidArgument, "%s takes no body", method)
		}
		r.Body = []byte(body)
	}
	return r, true, nil
}

// invisible reports whether r may lead a statement without being part of it: white space
// (Unicode's, so a no-break space too) and format characters (a byte-order mark, zero-width
// spaces and joiners, direction marks).
func invisible(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }

// inlineSpace is white space within a line.
func inlineSpace(r rune) bool { return r != '\n' && r != '\r' && unicode.IsSpace(r) }

// parseGraphQL parses editor GraphQL and returns its one operation.
func parseGraphQL(text string) (*ast.QueryDocument, *ast.OperationDefinition, error) {
	doc, err := parser.ParseQuery(&ast.Source{Name: "editor", Input: text})
	if err != nil {
		msg := err.Error()
		var ge *gqlerror.Error
		if e, ok := err.(*gqlerror.Error); ok {
			ge = e
		}
		if ge != nil {
			msg = ge.Message
			if len(ge.Locations) > 0 {
				msg = fmt.Sprintf("%s (line %d, column %d)", ge.Message, ge.Locations[0].Line, ge.Locations[0].Column)
			}
		}
		return nil, nil, driver.Wrap(driver.KindInvalidArgument, err, "GraphQL syntax error: %s", msg)
	}
	switch len(doc.Operations) {
	case 0:
		return nil, nil, driver.Errorf(driver.KindInvalidArgument, "the text holds no GraphQL operation; write { Get { <Collection> { ... } } }")
	case 1:
	default:
		return nil, nil, driver.Errorf(driver.KindInvalidArgument, "the text holds %d GraphQL operations; run one at a time", len(doc.Operations))
	}
	return doc, doc.Operations[0], nil
}

// mutationError is the answer to a GraphQL mutation or subscription.
func mutationError(op ast.Operation) error {
	return driver.Errorf(driver.KindUnsupported, "GraphQL %s is not available: Weaviate's GraphQL only reads ({ Get { ... } }, query { ... }). Writes go through REST: POST /v1/objects, PATCH /v1/objects/<collection>/<uuid>, DELETE /v1/objects/<collection>/<uuid>", op)
}

// Classify tells whether text reads or writes, and its form. GraphQL queries
// read; REST GET and HEAD read, as does POST /v1/graphql carrying a read and
// POST /v1/objects/validate; any other REST line writes. DELETE, PUT (a whole
// replacement) and batch writes are destructive. Text that cannot be parsed,
// and a GraphQL mutation or subscription (which Execute refuses, so asking
// anyone to approve it would be a question about nothing), are reported as a
// write, with the error.
//
// Classify and Execute read the text with the same two parsers, so what
// Execute sends is what Classify described.
func Classify(text string) (driver.Classification, error) {
	write := driver.Classification{Access: driver.AccessWrite}
	r, ok, err := parseRESTLine(text)
	if ok {
		if err != nil {
			return write, err
		}
		return classifyREST(r), nil
	}
	_, op, err := parseGraphQL(text)
	if err != nil {
		return write, err
	}
	if op.Operation != ast.Query && op.Operation != "" {
		return driver.Classification{Access: driver.AccessWrite, Form: driver.FormQuery}, mutationError(op.Operation)
	}
	return driver.Classification{Access: driver.AccessRead, Form: driver.FormQuery}, nil
}

func classifyREST(r restLine) driver.Classification {
	c := driver.Classification{Access: driver.AccessWrite, Form: driver.FormRequest}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		c.Access = driver.AccessRead
		return c
	}
	// A backup, a restore or an export of collections to a backend (and their cancels) is
	// work on the whole database that only the person starts (issue 40, item 5): MCP tools
	// refuse it, whatever the connection's rights. Reading their status stays a read.
	c.PersonOnly = personOnlyPath(r.Path)
	switch r.Method {
	case http.MethodDelete, http.MethodPut:
		c.Destructive = true
	case http.MethodPost:
		switch strings.TrimSuffix(r.Path, "/") {
		case "/v1/graphql":
			var q struct {
				Query string `json:"query"`
			}
			if json.Unmarshal(r.Body, &q) == nil && q.Query != "" {
				if qc, err := Classify(q.Query); err == nil && !qc.Write() {
					c.Access = driver.AccessRead
				}
			}
		case "/v1/objects/validate":
			c.Access = driver.AccessRead
		case "/v1/batch/objects", "/v1/batch/references":
			c.Destructive = true
		}
	}
	return c
}

// personOnlyPath reports whether a REST path written in the editor reaches the backups or
// the exports, read as the server routes it: escapes decoded ("/v1/%62ackups"), repeated
// slashes as one, any case.
func personOnlyPath(raw string) bool {
	p, err := url.PathUnescape(raw)
	if err != nil {
		p = raw
	}
	p = strings.ToLower(p)
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	p = strings.TrimSuffix(p, "/")
	for _, root := range []string{"/v1/backups", "/v1/export"} {
		if p == root || strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}

// Classify is the package Classify (needs no connection).
func (d *Driver) Classify(text string) (driver.Classification, error) { return Classify(text) }

// Execute runs editor text: a GraphQL read, or a REST line. A read is capped at
// opts.MaxRows in the statement itself (rowcap.go), and an answer that had more is cut and
// says how to read on.
func (d *Driver) Execute(ctx context.Context, text string, opts driver.ExecOptions) (*driver.Result, error) {
	if strings.TrimSpace(text) == "" {
		return nil, driver.Errorf(driver.KindInvalidArgument, "the query is empty")
	}
	r, ok, err := parseRESTLine(text)
	if ok {
		if err != nil {
			return nil, err
		}
		capped := false
		if opts.MaxRows > 0 && !classifyREST(r).Write() {
			if r, capped, err = capREST(r, opts.MaxRows); err != nil {
				return nil, err
			}
		}
		res, err := d.execREST(ctx, r)
		if err == nil && capped {
			if r.Method == http.MethodGet {
				cutObjects(res, opts.MaxRows)
			} else {
				var q struct {
					Query string `json:"query"`
				}
				if json.Unmarshal(r.Body, &q) == nil {
					if doc, op, perr := parseGraphQL(q.Query); perr == nil {
						keys, offset := getShape(doc, op)
						cutGetJSON(res, opts.MaxRows, offset, keys, true)
					}
				}
			}
		}
		return res, err
	}
	doc, op, err := parseGraphQL(text)
	if err != nil {
		return nil, err
	}
	if op.Operation != ast.Query && op.Operation != "" {
		return nil, mutationError(op.Operation)
	}
	capped := false
	if opts.MaxRows > 0 {
		var q string
		if q, capped = capGraphQL(text, opts.MaxRows); capped {
			if doc, op, err = parseGraphQL(q); err != nil {
				return nil, err
			}
			text = q
		}
	}
	res, err := d.execGraphQL(ctx, text, doc, op)
	if err == nil && capped {
		keys, offset := getShape(doc, op)
		if res.Grid != nil {
			if cutGrid(res.Grid, opts.MaxRows, offset) {
				res.Truncated, res.Notice = true, joinNotes(res.Notice, res.Grid.Notice)
			}
		} else {
			cutGetJSON(res, opts.MaxRows, offset, keys, false)
		}
	}
	return res, err
}

func (d *Driver) execREST(ctx context.Context, r restLine) (*driver.Result, error) {
	if isDeleteByFilter(r) {
		return d.execDeleteByFilter(ctx, r)
	}
	resp, err := d.sendRaw(ctx, r.Method, r.Path, r.Query, r.Body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := readLimitedAll(resp.Body)
	if err != nil {
		return nil, d.transportError(ctx, err)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		d.invalidateSchema()
	}
	if resp.StatusCode >= 300 {
		return nil, d.statusError(resp.StatusCode, body, r.Method+" "+r.Target())
	}
	res := &driver.Result{Kind: driver.ResultJSON, Status: resp.StatusCode}
	res.JSON = formatJSON(body, resp.StatusCode)
	return res, nil
}

// formatJSON indents a JSON answer; an empty answer becomes {"status": N};
// non-JSON text becomes a JSON string.
func formatJSON(body []byte, status int) json.RawMessage {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return json.RawMessage(fmt.Sprintf("{\n  \"status\": %d\n}", status))
	}
	var b bytes.Buffer
	if json.Indent(&b, body, "", "  ") == nil {
		return b.Bytes()
	}
	s, _ := json.Marshal(string(body))
	return s
}

// execGraphQL runs a GraphQL read where the server serves GraphQL, and its translation to
// gRPC (translate.go) where it has GraphQL off.
func (d *Driver) execGraphQL(ctx context.Context, text string, doc *ast.QueryDocument, op *ast.OperationDefinition) (*driver.Result, error) {
	var res *driver.Result
	err := d.readVia(func() error {
		a, err := d.postGraphQL(ctx, text)
		if err != nil {
			return err
		}
		if len(a.Errors) > 0 {
			return d.explainErrors(a.Errors, op)
		}
		if g, table, ok := d.getGrid(ctx, doc, op, a.Data); ok {
			res = &driver.Result{Kind: driver.ResultGrid, Grid: g, Table: table}
		} else {
			res = &driver.Result{Kind: driver.ResultJSON, JSON: formatJSON(a.Data, http.StatusOK)}
		}
		return nil
	}, func() (err error) {
		res, err = d.execTranslated(ctx, doc, op)
		return err
	})
	return res, err
}

// explainErrors adds the likely cause to known GraphQL errors: nearText
// without a vectorizer module.
func (d *Driver) explainErrors(errs []gqlError, op *ast.OperationDefinition) error {
	err := d.gqlErrors(errs)
	if usesArgument(op.SelectionSet, "nearText") {
		for _, e := range errs {
			m := strings.ToLower(e.Message)
			if strings.Contains(m, "neartext") || strings.Contains(m, "vectorizer") {
				return driver.Errorf(driver.KindQueryFailed, "nearText needs a vectorizer module, and this collection or node has none (vectorizer \"none\"): search with nearVector and a vector, bm25, or hybrid with a vector instead. Server said: %s", strings.TrimPrefix(err.Error(), "GraphQL error: "))
			}
		}
	}
	return err
}

func usesArgument(set ast.SelectionSet, name string) bool {
	for _, s := range set {
		switch f := s.(type) {
		case *ast.Field:
			if f.Arguments.ForName(name) != nil || usesArgument(f.SelectionSet, name) {
				return true
			}
		case *ast.InlineFragment:
			if usesArgument(f.SelectionSet, name) {
				return true
			}
		}
	}
	return false
}

// fields flattens a selection set: fragment spreads and inline fragments are
// expanded in place.
func fields(doc *ast.QueryDocument, set ast.SelectionSet, depth int) []*ast.Field {
	if depth > 20 {
		return nil
	}
	var out []*ast.Field
	for _, s := range set {
		switch f := s.(type) {
		case *ast.Field:
			out = append(out, f)
		case *ast.InlineFragment:
			out = append(out, fields(doc, f.SelectionSet, depth+1)...)
		case *ast.FragmentSpread:
			if def := doc.Fragments.ForName(f.Name); def != nil {
				out = append(out, fields(doc, def.SelectionSet, depth+1)...)
			}
		}
	}
	return out
}

func key(f *ast.Field) string {
	if f.Alias != "" {
		return f.Alias
	}
	return f.Name
}

// gridColumn is one grid column of an editor Get and where its value sits.
type gridColumn struct {
	col        driver.Column
	key        string // response key
	additional bool   // inside _additional
}

// getGrid shapes the answer of a query whose only top-level field is Get
// with one collection as a grid; ok=false for any other shape.
func (d *Driver) getGrid(ctx context.Context, doc *ast.QueryDocument, op *ast.OperationDefinition, data json.RawMessage) (*driver.Grid, string, bool) {
	top := fields(doc, op.SelectionSet, 0)
	if len(top) != 1 || top[0].Name != "Get" {
		return nil, "", false
	}
	inner := fields(doc, top[0].SelectionSet, 0)
	if len(inner) != 1 {
		return nil, "", false
	}
	cf := inner[0]
	name, answerKey := collectionOf(ctx, d.namespaced(), d.classFor, cf)
	var c *class
	if cc, err := d.classFor(ctx, name); err == nil {
		c = cc
	}
	var cols []gridColumn
	var idCol *gridColumn
	seen := map[string]bool{}
	for _, f := range fields(doc, cf.SelectionSet, 0) {
		if f.Name == "_additional" {
			for _, af := range fields(doc, f.SelectionSet, 0) {
				k := key(af)
				if af.Name == "id" && idCol == nil {
					idCol = &gridColumn{col: driver.Column{Name: ColUUID, Type: "uuid", PrimaryKey: true, ReadOnly: true}, key: k, additional: true}
					continue
				}
				name := k
				if seen[name] {
					name = "_additional." + k
				}
				seen[name] = true
				cols = append(cols, gridColumn{col: driver.Column{Name: name, ReadOnly: true, Array: len(af.SelectionSet) > 0}, key: k, additional: true})
			}
			continue
		}
		k := key(f)
		col := driver.Column{Name: k}
		if c != nil {
			if p, ok := c.property(f.Name); ok {
				b, arr := p.base()
				col.Type = p.Type()
				col.Array = arr || b == "object"
			}
		}
		if c == nil || col.Type == "" || len(f.SelectionSet) > 0 {
			col.ReadOnly = true
		}
		if seen[col.Name] {
			col.Name = col.Name + "_" + fmt.Sprint(len(cols))
		}
		seen[col.Name] = true
		cols = append(cols, gridColumn{col: col, key: k})
	}
	if idCol != nil {
		cols = append([]gridColumn{*idCol}, cols...)
	}
	// The answer is under the Get field's response key, an alias included.
	var out map[string]map[string][]map[string]json.RawMessage
	if json.Unmarshal(data, &out) != nil {
		return nil, "", false
	}
	get := out[key(top[0])]
	objs, ok := get[answerKey]
	if !ok && get != nil {
		return nil, "", false
	}
	g := &driver.Grid{Columns: make([]driver.Column, len(cols)), Rows: make([][]any, 0, len(objs))}
	for i, c := range cols {
		g.Columns[i] = c.col
	}
	withKinds(g.Columns)
	for _, o := range objs {
		var add map[string]json.RawMessage
		if raw, ok := o["_additional"]; ok {
			_ = json.Unmarshal(raw, &add)
		}
		row := make([]any, len(cols))
		for i, c := range cols {
			src := o
			if c.additional {
				src = add
			}
			if raw, ok := src[c.key]; ok {
				row[i] = cell(raw)
			}
		}
		g.Rows = append(g.Rows, row)
	}
	table := ""
	if c != nil {
		table = c.Class
	}
	return g, table, true
}
