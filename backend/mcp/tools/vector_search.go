package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
	"app/backend/mcp"
)

// NameVectorSearch runs a vector, keyword or hybrid search on one table.
const NameVectorSearch = "vector_search"

type vectorSearchArgs struct {
	Connection   string    `json:"connection"`
	Table        string    `json:"table"`
	Tenant       string    `json:"tenant"`
	NearVector   []float64 `json:"nearVector"`
	Query        *string   `json:"query"`
	Mode         string    `json:"mode"`
	Alpha        *float64  `json:"alpha"`
	SimilarTo    string    `json:"similarTo"`
	TargetVector string    `json:"targetVector"`
	Limit        int       `json:"limit"`
	Properties   []string  `json:"properties"`
}

// request is the search the arguments ask for, run by the driver's Search.
func (a *vectorSearchArgs) request() driver.SearchRequest {
	return driver.SearchRequest{
		NearVector: a.NearVector, Query: a.Query, Mode: a.Mode, Alpha: a.Alpha,
		SimilarTo: a.SimilarTo, TargetVector: a.TargetVector, Properties: a.Properties,
	}
}

// VectorSearch is the vector_search tool: Driver.Search, the one search the desktop app's
// "Find similar" shares. The driver builds it in its own language (Weaviate: the GraphQL Get
// of SPEC.md A "GraphQL editor rules" 5, or gRPC where the server has GraphQL off), checking
// every name and quoting every string, so no argument can change the query's shape.
func VectorSearch(d Deps) mcp.Tool {
	return mcp.Tool{
		Name:        NameVectorSearch,
		Title:       "Vector search",
		Description: "Best matches in a table for exactly one of: nearVector, query (bm25/hybrid), similarTo (a row uuid).",
		InputSchema: object(map[string]*jsonschema.Schema{
			"connection":   connectionArg(),
			"table":        tableArg(),
			"tenant":       tenantArg(),
			"nearVector":   arrayOf(typed("number")),
			"query":        typed("string"),
			"mode":         {Type: "string", Enum: []any{driver.SearchBM25, driver.SearchHybrid}, Description: "default bm25"},
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
			a.Table = driver.TenantTable(a.Table, a.Tenant)
			req := a.request()
			if err := req.Check(); err != nil {
				return nil, invalidArgument(err)
			}
			limit, note := d.rowLimit(a.Limit)
			// The search in words: the approval text and the result's first line.
			summary := fmt.Sprintf("search %s by %s, best %d", a.Table, req.Describe(), limit)
			drv, _, err := d.use(ctx, a.Connection, read(NameVectorSearch, raw, summary))
			if err != nil {
				return nil, err
			}
			caps := drv.Capabilities()
			call := mcp.CallFrom(ctx)
			call.Progress(0, 1, "searching")
			// Ask for one more than the limit to know whether more matches exist, within the
			// database's paging maximum.
			ask := limit + 1
			if caps.MaxResults > 0 && ask > caps.MaxResults {
				ask = caps.MaxResults
			}
			var g *driver.Grid
			err = d.run(ctx, func(ctx context.Context) error {
				var err error
				g, err = drv.Search(ctx, a.Table, req, ask)
				return err
			})
			if err != nil {
				return nil, FromError(err)
			}
			p := pageOf(a.Table, g, 0, limit)
			if ask <= limit && len(p.Rows) == limit {
				// The limit is the database's maximum: more matches may exist, none reachable.
				p.Truncated = true
			}
			p.NextOffset = nil // ranked matches are not paged: a larger limit reads more
			p.addNote(note)
			call.Progress(1, 1, fmt.Sprintf("found %d", len(p.Rows)))
			more := fmt.Sprintf("more matches exist: call %s with a larger limit", NameVectorSearch)
			if ask <= limit {
				more = "more matches may exist; the limit is the maximum"
			}
			text := p.textWith(summary, more)
			return &mcp.ToolResult{Text: text, Structured: p}, nil
		},
	}
}

// invalidArgument is the tool error of a request driver.SearchRequest.Check refused: its message
// as written, the one line the tool answered with before the builder moved to backend/search
// (FromError would also fold the spaces inside a quoted name the model sent).
func invalidArgument(err error) error {
	var de *driver.Error
	if errors.As(err, &de) && de.Kind == driver.KindInvalidArgument {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "%s", de.Msg)
	}
	return FromError(err)
}
