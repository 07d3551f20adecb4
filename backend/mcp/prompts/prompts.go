// Package prompts is the app's MCP prompt table, with the completion of
// each prompt's arguments from live data (SPEC.md B "What the service
// does" 3). It imports backend/mcp and is wired into the server by
// backend/core through mcp.Options; backend/mcp never imports it.
package prompts

import (
	"context"
	"strings"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/mcp"
)

// Deps are what the prompts need from the rest of the backend.
type Deps struct {
	Connections connections.AILister
}

// NameWriteQuery turns a question into a query for one connection.
const NameWriteQuery = "write_query"

// All is the prompt table in listing order.
func All(d Deps) []mcp.Prompt {
	return []mcp.Prompt{writeQuery(d)}
}

func writeQuery(d Deps) mcp.Prompt {
	return mcp.Prompt{
		Name:        NameWriteQuery,
		Title:       "Write a query",
		Description: "Turns a question about one connection's data into a query in that database's language (Weaviate: GraphQL reads, REST lines for writes).",
		Arguments: []mcp.PromptArgument{
			{Name: "connection", Title: "Connection", Description: "the connection's name or id (from list_connections)", Required: true},
			{Name: "question", Title: "Question", Description: "what you want to know or change, in plain words", Required: true},
		},
		Get: func(ctx context.Context, args map[string]string) (*mcp.PromptResult, error) {
			c, err := find(ctx, d.Connections, args["connection"])
			if err != nil {
				return nil, err
			}
			return &mcp.PromptResult{
				Description: "Write a query for " + c.Name,
				Messages:    []mcp.PromptMessage{{Role: "user", Text: queryText(c, args["question"])}},
			}, nil
		},
		Complete: func(ctx context.Context, argument, _ string, _ map[string]string) ([]string, error) {
			if argument != "connection" {
				return nil, nil
			}
			list, err := visible(ctx, d.Connections)
			if err != nil {
				return nil, err
			}
			names := make([]string, 0, len(list))
			for _, c := range list {
				names = append(names, c.Name)
			}
			return names, nil
		},
	}
}

// queryText is the prompt's message: the connection, the question, and how
// this database is queried, with one short example of each kind.
func queryText(c connections.Summary, question string) string {
	var b strings.Builder
	b.WriteString("Write a query for the database connection \"" + c.Name + "\" (id " + c.ID + ", " + c.Type + " at " + c.Host + ").\n\n")
	b.WriteString("Question: " + strings.TrimSpace(question) + "\n\n")
	if c.Type == connections.TypeWeaviate {
		b.WriteString("This is Weaviate: collections are tables, objects are rows, and uuid is the primary key. " +
			"Reads are GraphQL, not SQL, for example:\n" +
			"  { Get { Article(where: {path: [\"wordCount\"], operator: GreaterThan, valueInt: 500}, limit: 10) { title _additional { id } } } }\n" +
			"Writes are REST lines, each approved by the user, for example:\n" +
			"  PATCH /v1/objects/<uuid>?class=Article {\"properties\": {\"title\": \"New title\"}}\n\n")
	}
	b.WriteString("Use the collection's real property names and types (look them up before writing the query). " +
		"Give the query, then explain in one or two sentences what it returns.")
	return b.String()
}

// find resolves a connection argument by id or by name (names first
// exactly, then case-insensitively); a connection AI clients may not see
// does not exist here, and one outside the caller's token allowlist is
// 403 -33007 (SPEC.md B "Authentication" 3).
func find(ctx context.Context, l connections.AILister, ref string) (connections.Summary, error) {
	list, err := visibleToAI(ctx, l)
	if err != nil {
		return connections.Summary{}, err
	}
	match := func(c connections.Summary) (connections.Summary, error) {
		if !auth.MayUse(ctx, c.ID) {
			return connections.Summary{}, auth.ConnectionNotAllowed()
		}
		return c, nil
	}
	for _, c := range list {
		if c.ID == ref || c.Name == ref {
			return match(c)
		}
	}
	for _, c := range list {
		if strings.EqualFold(c.Name, ref) {
			return match(c)
		}
	}
	return connections.Summary{}, mcp.NewError(mcp.CodeInvalidParams, "invalid params: no connection named "+quote(ref), nil)
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100]
	}
	return "\"" + s + "\""
}

// visible lists the connections AI clients may see that the caller's token
// may use (completion offers only those).
func visible(ctx context.Context, l connections.AILister) ([]connections.Summary, error) {
	list, err := visibleToAI(ctx, l)
	if err != nil {
		return nil, err
	}
	return auth.Allowed(ctx, list, func(c connections.Summary) string { return c.ID }), nil
}

// visibleToAI lists the connections AI clients may see, whatever the
// token's allowlist.
func visibleToAI(ctx context.Context, l connections.AILister) ([]connections.Summary, error) {
	if l == nil {
		return []connections.Summary{}, nil
	}
	return l.ListVisibleToAI(ctx)
}
