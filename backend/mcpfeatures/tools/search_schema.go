package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"app/backend/mcp"
)

// NameSearchSchema finds tables and columns by name or description.
const NameSearchSchema = "search_schema"

// maxSchemaMatches bounds one answer; a query that matches more is too broad to help a model.
const maxSchemaMatches = 200

type searchSchemaArgs struct {
	connArgs
	Query needle `json:"query"`
}

// schemaMatch is one hit: a table (Column empty) or a column of it.
type schemaMatch struct {
	Table       string `json:"table"`
	Column      string `json:"column,omitempty"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}

// schemaMatches is search_schema's structuredContent.
type schemaMatches struct {
	Matches   []schemaMatch `json:"matches"`
	Truncated bool          `json:"truncated"`
}

// SearchSchema is the search_schema tool: a case-insensitive substring search over the table
// and column names and descriptions of ONE connection. It does not search every connection:
// that would open each of them and, on alwaysAsk connections, ask the user once per
// connection for a search the model could scope itself.
func SearchSchema(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameSearchSchema,
		Title:       "Search schema",
		Description: "Finds the tables and columns of one connection whose name or description contains query (any case).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a searchSchemaArgs, raw json.RawMessage) (string, schemaMatches, error) {
		q := strings.ToLower(strings.TrimSpace(string(a.Query)))
		if q == "" {
			return "", schemaMatches{}, mcp.NewToolError(mcp.ToolErrInvalidArgument, "query is empty")
		}
		drv, _, err := d.use(ctx, a.Connection, read(NameSearchSchema, raw, fmt.Sprintf("search the schema for %q", a.Query)))
		if err != nil {
			return "", schemaMatches{}, err
		}
		call := mcp.CallFrom(ctx)
		res := schemaMatches{Matches: []schemaMatch{}}
		err = d.query(ctx, "listing tables", func(ctx context.Context) error {
			tables, err := d.listTables(ctx, drv)
			if err != nil {
				return err
			}
			total := float64(len(tables))
			for i, t := range tables {
				if hit(q, t.Name, t.Description) {
					res.Matches = append(res.Matches, schemaMatch{Table: t.Name, Description: t.Description})
				}
				info, err := d.describeTable(ctx, drv, t.Name)
				if err != nil {
					return err
				}
				for _, c := range info.Columns {
					if hit(q, c.Name, c.Description) {
						res.Matches = append(res.Matches, schemaMatch{Table: t.Name, Column: c.Name, Type: c.Type, Description: c.Description})
					}
				}
				call.Progress(float64(i+1), total, "searched "+t.Name)
				if len(res.Matches) > maxSchemaMatches {
					res.Matches, res.Truncated = res.Matches[:maxSchemaMatches], true
					break
				}
			}
			return nil
		})
		if err != nil {
			return "", schemaMatches{}, err
		}
		return schemaText(string(a.Query), res.Matches, res.Truncated), res, nil
	})
}

func hit(q string, fields ...string) bool {
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), q) {
			return true
		}
	}
	return false
}

func schemaText(query string, matches []schemaMatch, truncated bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d matches for %q", len(matches), query)
	if truncated {
		fmt.Fprintf(&b, " (stopped at %d; search for something narrower)", maxSchemaMatches)
	}
	for _, m := range matches {
		b.WriteString("\n")
		if m.Column == "" {
			b.WriteString("table " + m.Table)
		} else {
			b.WriteString(m.Table + "." + m.Column + " " + orDash(m.Type))
		}
		if m.Description != "" {
			b.WriteString(" -- " + truncate(oneLine(m.Description), 200))
		}
	}
	return capText(b.String(), "structuredContent has every match")
}
