package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"app/backend/driver"
	"app/backend/explore"
	"app/backend/mcp"
)

// NameVectorSearch runs a vector, keyword or hybrid search on one table.
const NameVectorSearch = "vector_search"

type vectorSearchArgs struct {
	target
	Vector       []float64              `json:"vector,omitempty"`
	Query        *string                `json:"query,omitempty"`
	Mode         string                 `json:"mode,omitempty" jsonschema:"from describe_table; default the first"`
	Params       map[string]searchParam `json:"params,omitempty"`
	SimilarTo    similarKey             `json:"similarTo,omitempty"`
	TargetVector string                 `json:"targetVector,omitempty"`
	Limit        rowLimit               `json:"limit,omitempty"`
	Properties   []string               `json:"properties,omitempty"`
}

// request is the search the arguments ask for, run by the driver's Search.
func (a *vectorSearchArgs) request() driver.SearchRequest {
	r := driver.SearchRequest{Vector: a.Vector, Query: a.Query, Mode: a.Mode,
		SimilarTo: driver.Key(a.SimilarTo), TargetVector: a.TargetVector, Properties: a.Properties}
	for k, v := range a.Params {
		if r.Params == nil {
			r.Params = map[string]string{}
		}
		r.Params[k] = v.text()
	}
	return r
}

// VectorSearch is the vector_search tool: Driver.Search, the one search the desktop app's
// "Find similar" shares. The driver builds it in its own language (Weaviate: the GraphQL Get
// of SPEC.md A "GraphQL editor rules" 5, or gRPC where the server has GraphQL off), checking
// every name and quoting every string, so no argument can change the query's shape.
func VectorSearch(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameVectorSearch,
		Title:       "Vector search",
		Description: "Best matches for a vector, a query (and a vector where its mode takes one) or similarTo (a row's key by column).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a vectorSearchArgs, raw json.RawMessage) (string, page, error) {
		table := a.table()
		req := a.request()
		// Words with similarTo: the row's stored vector is the mode's vector (hybrid's), read
		// back once the connection is open.
		var vectorRow driver.Key
		if req.Query != nil && req.SimilarTo != nil && len(req.Vector) == 0 {
			vectorRow, req.SimilarTo = req.SimilarTo, nil
		}
		if err := req.Check(); err != nil {
			return "", page{}, invalidArgument(err)
		}
		limit, note := d.pageLimit(a.Limit)
		// The search in words: the approval text and the result's first line.
		what := req.Describe()
		if vectorRow != nil {
			what += " with the vector of row " + truncate(vectorRow.Text(), 100)
		}
		summary := fmt.Sprintf("search %s by %s, best %d", table, what, limit)
		drv, c, err := d.use(ctx, a.Connection, read(NameVectorSearch, raw, summary))
		if err != nil {
			return "", page{}, err
		}
		caps := drv.Capabilities()
		// Ask for one more than the limit to know whether more matches exist, within the
		// database's paging maximum.
		ask := limit + 1
		if caps.MaxResults > 0 && ask > caps.MaxResults {
			ask = caps.MaxResults
		}
		var g *driver.Grid
		err = d.query(ctx, "searching", func(ctx context.Context) error {
			if vectorRow != nil {
				vec, target, err := explore.ReadRowVector(ctx, drv, table, vectorRow, req.TargetVector)
				if err != nil {
					return err
				}
				req.Vector, req.TargetVector = vec, target
			}
			var err error
			g, err = drv.Search(ctx, table, req, ask)
			return err
		})
		if err != nil {
			return "", page{}, a.explainTenant(err, d.words(c))
		}
		p := pageOf(table, g, 0, limit)
		if ask <= limit && len(p.Rows) == limit {
			// The limit is the database's maximum: more matches may exist, none reachable.
			p.Truncated = true
		}
		p.NextOffset = nil // ranked matches are not paged: a larger limit reads more
		p.addNote(note)
		mcp.CallFrom(ctx).Progress(1, 1, fmt.Sprintf("found %d", len(p.Rows)))
		more := fmt.Sprintf("more matches exist: call %s with a larger limit", NameVectorSearch)
		if ask <= limit {
			more = "more matches may exist; the limit is the maximum"
		}
		return p.textWith(summary, more), p, nil
	})
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

// UnmarshalJSON takes a number or a string, as the schema says.
func (p *searchParam) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v.(type) {
	case float64, string:
		p.value = v
		return nil
	}
	return errors.New("a search parameter is a number or a string")
}

// text is the parameter as the contract carries it: a number as Go formats it.
func (p searchParam) text() string {
	if f, ok := p.value.(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	s, _ := p.value.(string)
	return s
}
