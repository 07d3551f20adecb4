package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameVectorSearch runs a vector, keyword or hybrid search on one table.
const NameVectorSearch = "vector_search"

// Search modes of the query argument.
const (
	modeBM25   = "bm25"
	modeHybrid = "hybrid"
)

type vectorSearchArgs struct {
	Connection   string    `json:"connection"`
	Table        string    `json:"table"`
	NearVector   []float64 `json:"nearVector"`
	Query        *string   `json:"query"`
	Mode         string    `json:"mode"`
	Alpha        *float64  `json:"alpha"`
	SimilarTo    string    `json:"similarTo"`
	TargetVector string    `json:"targetVector"`
	Limit        int       `json:"limit"`
	Properties   []string  `json:"properties"`
}

// VectorSearch is the vector_search tool. The driver contract has no search method, so it
// builds the GraphQL Get the editor accepts (SPEC.md A "GraphQL editor rules" 5) and runs it
// with Driver.Execute, on drivers whose query language is GraphQL only. Every name in the
// text is checked against the GraphQL name syntax and the table's schema, every string is
// JSON-quoted, so no argument can change the query's shape.
func VectorSearch(d Deps) mcp.Tool {
	return mcp.Tool{
		Name:        NameVectorSearch,
		Title:       "Vector search",
		Description: "Best matches in a table for exactly one of: nearVector, query (bm25/hybrid), similarTo (a row uuid).",
		InputSchema: object(map[string]*jsonschema.Schema{
			"connection":   connectionArg(),
			"table":        tableArg(),
			"nearVector":   arrayOf(typed("number")),
			"query":        typed("string"),
			"mode":         {Type: "string", Enum: []any{modeBM25, modeHybrid}, Description: "default bm25"},
			"alpha":        {Type: "number", Minimum: ptr(0.0), Maximum: ptr(1.0), Description: "hybrid: 1=vector"},
			"similarTo":    typed("string"),
			"targetVector": typed("string"),
			"limit":        limitArg(),
			"properties":   arrayOf(typed("string")),
		}, "connection", "table"),
		OutputSchema: pageOutput(),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a vectorSearchArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			if err := a.check(); err != nil {
				return nil, err
			}
			limit, note := d.rowLimit(a.Limit)
			drv, _, err := d.use(ctx, a.Connection, read(NameVectorSearch, raw, a.summary(limit)))
			if err != nil {
				return nil, err
			}
			caps := drv.Capabilities()
			if caps.QueryLanguage != "graphql" {
				return nil, mcp.NewToolError(mcp.ToolErrUnsupported, "vector_search needs a GraphQL database; this connection's query language is %q", caps.QueryLanguage)
			}
			call := mcp.CallFrom(ctx)
			call.Progress(0, 2, "reading the table's schema")
			var res *driver.Result
			var ask int
			err = d.run(ctx, func(ctx context.Context) error {
				info, err := drv.DescribeTable(ctx, a.Table)
				if err != nil {
					return err
				}
				// Ask for one more than the limit to know whether more matches exist, within
				// the database's paging maximum.
				ask = limit + 1
				if caps.MaxResults > 0 && ask > caps.MaxResults {
					ask = caps.MaxResults
				}
				q, err := a.query(info, ask)
				if err != nil {
					return err
				}
				call.Progress(1, 2, "searching")
				res, err = drv.Execute(ctx, q)
				return err
			})
			if err != nil {
				return nil, FromError(err)
			}
			if res == nil || res.Kind != driver.ResultGrid || res.Grid == nil {
				return nil, mcp.NewToolError(mcp.ToolErrQueryFailed, "the search did not answer with rows")
			}
			g := res.Grid
			p := pageOf(a.Table, g, 0, limit)
			if ask <= limit && len(p.Rows) == limit {
				// The limit is the database's maximum: more matches may exist, none reachable.
				p.Truncated = true
			}
			p.NextOffset = nil // ranked matches are not paged: a larger limit reads more
			p.addNote(note)
			call.Progress(2, 2, fmt.Sprintf("found %d", len(p.Rows)))
			more := fmt.Sprintf("more matches exist: call %s with a larger limit", NameVectorSearch)
			if ask <= limit {
				more = "more matches may exist; the limit is the maximum"
			}
			text := p.textWith(a.summary(limit), more)
			return &mcp.ToolResult{Text: text, Structured: p}, nil
		},
	}
}

// check validates what the schema cannot say: exactly one search, a GraphQL table name, a
// uuid, and hybrid-only alpha.
func (a *vectorSearchArgs) check() error {
	n := 0
	for _, set := range []bool{len(a.NearVector) > 0, a.Query != nil, a.SimilarTo != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "give exactly one of nearVector, query or similarTo")
	}
	if !graphQLName(a.Table) {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "table %q is not a valid collection name", truncate(a.Table, 100))
	}
	if a.Query != nil {
		if strings.TrimSpace(*a.Query) == "" {
			return mcp.NewToolError(mcp.ToolErrInvalidArgument, "query is empty")
		}
		if a.Mode == "" {
			a.Mode = modeBM25
		}
	} else if a.Mode != "" {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "mode goes with query")
	}
	if a.Alpha != nil && a.Mode != modeHybrid {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "alpha goes with mode hybrid")
	}
	if a.SimilarTo != "" {
		if _, err := uuid.Parse(a.SimilarTo); err != nil || len(a.SimilarTo) != 36 {
			return mcp.NewToolError(mcp.ToolErrInvalidArgument, "similarTo must be a row uuid like 00000000-0000-0000-0000-000000000000")
		}
		a.SimilarTo = strings.ToLower(a.SimilarTo)
	}
	if a.TargetVector != "" && !graphQLName(a.TargetVector) {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "targetVector %q is not a valid vector name", truncate(a.TargetVector, 100))
	}
	return nil
}

// summary is the search in words: the approval text and the result's first line.
func (a *vectorSearchArgs) summary(limit int) string {
	var what string
	switch {
	case len(a.NearVector) > 0:
		what = fmt.Sprintf("nearVector of %d numbers", len(a.NearVector))
	case a.Query != nil:
		what = fmt.Sprintf("%s %s", a.Mode, gqlString(truncate(*a.Query, 200)))
		if a.Alpha != nil {
			what += " alpha " + number(*a.Alpha)
		}
	default:
		what = "objects similar to " + a.SimilarTo
	}
	if a.TargetVector != "" {
		what += " on vector " + a.TargetVector
	}
	return fmt.Sprintf("search %s by %s, best %d", a.Table, what, limit)
}

// query builds the GraphQL text, e.g.
//
//	{ Get { Typed(nearVector: {vector: [0.1, 0.2]}, limit: 11) { title _additional { id distance } } } }
func (a *vectorSearchArgs) query(info *driver.TableInfo, limit int) (string, error) {
	if info.Settings.MultiTenancy {
		return "", driver.Errorf(driver.KindUnsupported, "table %s is multi-tenant: search it with a GraphQL query that names the tenant", info.Name)
	}
	props, err := a.selection(info)
	if err != nil {
		return "", err
	}
	target, err := a.target(info)
	if err != nil {
		return "", err
	}
	var op, measure string
	switch {
	case len(a.NearVector) > 0:
		nums := make([]string, len(a.NearVector))
		for i, f := range a.NearVector {
			nums[i] = number(f)
		}
		op, measure = "nearVector: {vector: ["+strings.Join(nums, ", ")+"]"+target+"}", "distance"
	case a.Mode == modeHybrid:
		op, measure = "hybrid: {query: "+gqlString(*a.Query), "score"
		if a.Alpha != nil {
			op += ", alpha: " + number(*a.Alpha)
		}
		op += target + "}"
	case a.Query != nil:
		op, measure = "bm25: {query: "+gqlString(*a.Query)+"}", "score"
	default:
		op, measure = "nearObject: {id: "+gqlString(a.SimilarTo)+target+"}", "distance"
	}
	return fmt.Sprintf("{ Get { %s(%s, limit: %d) { %s _additional { id %s } } } }",
		info.Name, op, limit, strings.Join(props, " "), measure), nil
}

// target is the targetVectors member a search on a table with named vectors needs.
func (a *vectorSearchArgs) target(info *driver.TableInfo) (string, error) {
	named := info.Settings.NamedVectors
	switch {
	case a.TargetVector != "" && !slices.Contains(named, a.TargetVector):
		return "", driver.Errorf(driver.KindInvalidArgument, "table %s has no named vector %q (it has: %s)", info.Name, a.TargetVector, listOrNone(named))
	case a.TargetVector != "":
		return ", targetVectors: [" + gqlString(a.TargetVector) + "]", nil
	case len(named) > 1 && a.Query == nil || len(named) > 1 && a.Mode == modeHybrid:
		return "", driver.Errorf(driver.KindInvalidArgument, "table %s has several named vectors: name one in targetVector (%s)", info.Name, strings.Join(named, ", "))
	}
	return "", nil
}

// selection is the properties to return: the ones asked for (each must be a selectable
// column), else every scalar column of the schema.
func (a *vectorSearchArgs) selection(info *driver.TableInfo) ([]string, error) {
	if len(a.Properties) == 0 {
		var out []string
		for _, c := range info.Columns {
			if selectable(c) {
				out = append(out, c.Name)
			}
		}
		return out, nil
	}
	out := make([]string, 0, len(a.Properties))
	for _, name := range a.Properties {
		c, ok := info.Column(name)
		if !ok || !graphQLName(name) {
			return nil, driver.Errorf(driver.KindInvalidArgument, "table %s has no property %q", info.Name, truncate(name, 100))
		}
		if !selectable(c) {
			return nil, driver.Errorf(driver.KindInvalidArgument, "property %s (%s) cannot be returned by vector_search; use scalar properties", name, orDash(c.Type))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// selectable tells a property column a Get can select without a sub-selection: scalar types
// and arrays of them (objects, cross-references, geo and phone values need one; the key and
// the vector are not properties).
func selectable(c driver.Column) bool {
	if c.PrimaryKey || isVector(c) || !graphQLName(c.Name) {
		return false
	}
	switch strings.TrimSuffix(c.Type, "[]") {
	case "text", "string", "int", "number", "boolean", "date", "uuid":
		return true
	}
	return false
}

func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
