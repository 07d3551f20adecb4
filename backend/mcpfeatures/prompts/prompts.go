// Package prompts is the app's MCP prompt table, with the completion of
// each prompt's arguments from live data (SPEC.md B "What the service
// does" 3). It imports backend/mcp and is wired into the server by
// backend/core through mcp.Options; backend/mcp never imports it.
//
// The prompts, each for one saved connection (by name or id):
//
//	explain_schema      connection                  what the tables hold and how they relate
//	explain_table       connection, table           one table's columns, settings and use
//	write_query         connection, question        a question in plain words -> a query
//	review_query        connection, query           check a query against the schema
//	data_quality_audit  connection, table[, property]  nulls, empties, outliers, duplicates
//	find_similar        connection, table, key      rows near one row (vector search)
//
// Each text embeds the live schema facts it needs, read from the connection's driver when the
// prompt is rendered (the tables and their columns with types; for one table its primary key
// and the settings that gate filters and vector search), and names the tools the model should
// use (list_connections, list_tables, describe_table, browse_table, count_rows, vector_search,
// execute_query). Reading the schema opens the connection when it is not open and reads
// metadata only, so it asks nobody (the rows themselves are read through the tools, which
// ask as the connection's AI policy says). When the schema cannot be read (the database is
// unreachable, or this server cannot open connections) the prompt says so and tells the model
// to look it up with describe_table, rather than failing; an unknown table, property or a
// key the table or the database cannot read is -32602.
//
// Completion (completion/complete with ref/prompt): connection from the connections the caller
// may see, table from the chosen connection's tables (context.arguments.connection), property
// from the chosen table's columns (context.arguments.table).
package prompts

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// Deps are what the prompts need from the rest of the backend.
type Deps struct {
	// Connections lists the saved connections visible to AI clients.
	Connections connections.AILister
	// Open opens a saved connection's driver for the live schema facts; nil: the prompts
	// carry none and send the model to describe_table.
	Open *connections.Manager
}

// The prompt names.
const (
	NameExplainSchema    = "explain_schema"
	NameExplainTable     = "explain_table"
	NameWriteQuery       = "write_query"
	NameReviewQuery      = "review_query"
	NameDataQualityAudit = "data_quality_audit"
	NameFindSimilar      = "find_similar"
)

// maxSchemaTables is how many tables a prompt lists with their columns; the others are named.
const maxSchemaTables = 40

// The arguments the prompts share.
var (
	argConnection = mcp.PromptArgument{Name: "connection", Title: "Connection", Description: "the connection's name or id (from list_connections)", Required: true}
	argTable      = mcp.PromptArgument{Name: "table", Title: "Table", Description: "a table of the connection (what its database calls a table: a collection, a view…)", Required: true}
)

// All is the prompt table in listing order.
func All(d Deps) []mcp.Prompt {
	complete := d.complete
	return []mcp.Prompt{{
		Name:        NameExplainSchema,
		Title:       "Explain a schema",
		Description: "Explains what a connection's tables hold, how they relate and what questions the data can answer.",
		Arguments:   []mcp.PromptArgument{argConnection},
		Get:         d.render(explainSchema),
		Complete:    complete,
	}, {
		Name:        NameExplainTable,
		Title:       "Explain a table",
		Description: "Explains one table: its columns and types, its key, its search and filter settings, and how to query it.",
		Arguments:   []mcp.PromptArgument{argConnection, argTable},
		Get:         d.render(explainTable),
		Complete:    complete,
	}, {
		Name:        NameWriteQuery,
		Title:       "Write a query",
		Description: "Turns a question about one connection's data into a query in that database's language (list_connections says which).",
		Arguments: []mcp.PromptArgument{argConnection,
			{Name: "question", Title: "Question", Description: "what you want to know or change, in plain words", Required: true}},
		Get:      d.render(writeQuery),
		Complete: complete,
	}, {
		Name:        NameReviewQuery,
		Title:       "Review a query",
		Description: "Checks a query against the connection's live schema: names, types, filters, limits, and whether it writes.",
		Arguments: []mcp.PromptArgument{argConnection,
			{Name: "query", Title: "Query", Description: "the query text, in the connection's language", Required: true}},
		Get:      d.render(reviewQuery),
		Complete: complete,
	}, {
		Name:        NameDataQualityAudit,
		Title:       "Audit data quality",
		Description: "Plans and runs a read-only data-quality audit of one table: missing and empty values, odd formats, outliers and duplicates.",
		Arguments: []mcp.PromptArgument{argConnection, argTable,
			{Name: "property", Title: "Property", Description: "audit only this column (optional)"}},
		Get:      d.render(dataQualityAudit),
		Complete: complete,
	}, {
		Name:        NameFindSimilar,
		Title:       "Find similar rows",
		Description: "Finds the rows of a table nearest to one row by vector search, and explains what they share.",
		Arguments: []mcp.PromptArgument{argConnection, argTable,
			{Name: "key", Title: "Row key", Description: "the key of the row to start from: its value, or a JSON object by key column", Required: true}},
		Get:      d.render(findSimilar),
		Complete: complete,
	}}
}

// facts is what a prompt knows of its connection when it is rendered.
type facts struct {
	ctx  context.Context
	c    connections.Summary
	args map[string]string
	// drv is the open driver, nil when the schema cannot be read; why says why.
	drv driver.Driver
	why string
}

// render resolves the connection argument, opens the connection for the facts, and renders
// the one user message text builds.
func (d Deps) render(text func(f *facts) (desc, msg string, err error)) func(ctx context.Context, args map[string]string) (*mcp.PromptResult, error) {
	return func(ctx context.Context, args map[string]string) (*mcp.PromptResult, error) {
		c, err := find(ctx, d.Connections, args["connection"])
		if err != nil {
			return nil, err
		}
		f := &facts{ctx: ctx, c: c, args: args}
		f.drv, f.why = d.open(ctx, c.ID)
		desc, msg, err := text(f)
		if err != nil {
			return nil, err
		}
		return &mcp.PromptResult{Description: desc, Messages: []mcp.PromptMessage{{Role: "user", Text: msg}}}, nil
	}
}

// open returns the connection's driver, or why there is none.
func (d Deps) open(ctx context.Context, id string) (driver.Driver, string) {
	if d.Open == nil {
		return nil, "this server does not open connections for prompts"
	}
	drv, _, err := d.Open.Open(ctx, id)
	if err != nil {
		if msg := oneLine(safeMessage(err)); msg != "" {
			return nil, msg
		}
		return nil, "the connection could not be opened"
	}
	return drv, ""
}

// describe returns the named table, -32602 when the connection has no such table; nil
// without error when the schema cannot be read (f.why says why).
func (f *facts) describe(table string) (*driver.TableInfo, error) {
	if f.drv == nil {
		return nil, nil
	}
	info, err := f.drv.DescribeTable(f.ctx, table)
	if driver.KindOf(err) == driver.KindNotFound {
		return nil, mcp.NewError(mcp.CodeInvalidParams, "invalid params: connection "+quote(f.c.Name)+" has no table "+quote(table), nil)
	}
	if err != nil {
		f.why = oneLine(safeMessage(err))
		return nil, nil
	}
	return info, nil
}

// schema is the live schema as prompt text: one line per table with its columns and types.
func (f *facts) schema() string {
	var b strings.Builder
	if f.drv != nil {
		tables, err := f.drv.ListTables(f.ctx)
		if err == nil {
			fmt.Fprintf(&b, "The live schema of %q (%d tables):\n", f.c.Name, len(tables))
			for i, t := range tables {
				if i == maxSchemaTables {
					names := make([]string, 0, len(tables)-i)
					for _, r := range tables[i:] {
						names = append(names, r.Name)
					}
					fmt.Fprintf(&b, "- and %d more, not described here: %s\n", len(names), strings.Join(names, ", "))
					break
				}
				info, err := f.drv.DescribeTable(f.ctx, t.Name)
				if err != nil {
					fmt.Fprintf(&b, "- %s (not described: %s)\n", t.Name, oneLine(safeMessage(err)))
					continue
				}
				b.WriteString("- " + tableLine(info) + "\n")
			}
			if len(tables) == 0 {
				b.WriteString("(no tables yet)\n")
			}
			return b.String()
		}
		f.why = oneLine(safeMessage(err))
	}
	return "The live schema could not be read just now (" + f.why + "); look it up with list_tables and describe_table, or read the resource " +
		"app://connections/" + f.c.ID + "/schema, before relying on any table or property name.\n"
}

// tableLine is "Name (description): col type, col type, ...".
func tableLine(t *driver.TableInfo) string {
	cols := make([]string, 0, len(t.Columns))
	for _, c := range t.Columns {
		s := c.Name + " " + typeOf(c)
		if c.PrimaryKey {
			s += " (primary key)"
		}
		cols = append(cols, s)
	}
	line := t.Name
	if d := oneLine(t.Description); d != "" {
		line += " (" + d + ")"
	}
	return line + ": " + strings.Join(cols, ", ")
}

func typeOf(c driver.Column) string {
	if c.Type == "" {
		return "?"
	}
	return c.Type
}

// tableBlock is one table as prompt text: its columns with types, filters and descriptions,
// and its settings.
func tableBlock(t *driver.TableInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Table %s", t.Name)
	if d := oneLine(t.Description); d != "" {
		b.WriteString(": " + d)
	}
	fmt.Fprintf(&b, "\nPrimary key: %s\nColumns:\n", strings.Join(t.PrimaryKey, ", "))
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "- %s: %s", c.Name, typeOf(c))
		var notes []string
		if c.ReadOnly {
			notes = append(notes, "read-only")
		}
		if c.Sortable {
			notes = append(notes, "sortable")
		}
		if len(c.Filterable) > 0 {
			ops := make([]string, 0, len(c.Filterable))
			for _, o := range c.Filterable {
				ops = append(ops, string(o))
			}
			notes = append(notes, "filters: "+strings.Join(ops, " "))
		}
		if d := oneLine(c.Description); d != "" {
			notes = append(notes, "\""+d+"\"")
		}
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, "; ") + ")")
		}
		b.WriteString("\n")
	}
	s := t.Settings
	vec := s.Vectorizer
	if vec == "" {
		vec = "none"
	}
	fmt.Fprintf(&b, "Settings: vectorizer %s", vec)
	if len(s.NamedVectors) > 0 {
		fmt.Fprintf(&b, "; named vectors %s", strings.Join(s.NamedVectors, ", "))
	}
	fmt.Fprintf(&b, "; null index %s; length index %s; timestamp index %s", onOff(s.IndexNullState), onOff(s.IndexPropertyLength), onOff(s.IndexTimestamps))
	if s.MultiTenancy {
		b.WriteString("; multi-tenant (its rows live in tenants: pass tenant to the table tools; describe_table lists them)")
	}
	b.WriteString("\n")
	return b.String()
}

func onOff(b bool) string {
	if b {
		return "on (is_null / is_empty filters work)"
	}
	return "off"
}

// header is the first line of every prompt: which connection.
func header(c connections.Summary) string {
	return "Database connection \"" + c.Name + "\" (id " + c.ID + ", " + c.Type + " at " + c.Host + ").\n\n"
}

// queryNotes says how this connection's database is queried: its driver's own notes (the
// description's words), or where to learn its language.
func queryNotes(c connections.Summary) string {
	if c.Notes != "" {
		return c.Notes
	}
	if c.Language != "" {
		return "This connection's query language: " + c.Language + ".\n\n"
	}
	return ""
}

// tableFacts is the table's block, or the note that it could not be read.
func tableFacts(f *facts, info *driver.TableInfo, table string) string {
	if info != nil {
		return "The live description of the table:\n" + tableBlock(info) + "\n"
	}
	return "The table's description could not be read just now (" + f.why + "); call describe_table with connection " +
		quote(f.c.Name) + " and table " + quote(table) + " first.\n\n"
}

// complete suggests argument values from live data: connection names the caller may see,
// the chosen connection's tables, the chosen table's properties. Anything that cannot be
// read suggests nothing (a completion is a hint, not a place for errors).
func (d Deps) complete(ctx context.Context, argument, _ string, chosen map[string]string) ([]string, error) {
	switch argument {
	case "connection":
		list, err := visible(ctx, d.Connections)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(list))
		for _, c := range list {
			names = append(names, c.Name)
		}
		return names, nil
	case "table", "property":
		c, err := find(ctx, d.Connections, chosen["connection"])
		if err != nil {
			return nil, nil
		}
		drv, _ := d.open(ctx, c.ID)
		if drv == nil {
			return nil, nil
		}
		if argument == "table" {
			tables, err := drv.ListTables(ctx)
			if err != nil {
				return nil, nil
			}
			names := make([]string, 0, len(tables))
			for _, t := range tables {
				names = append(names, t.Name)
			}
			return names, nil
		}
		info, err := drv.DescribeTable(ctx, chosen["table"])
		if err != nil {
			return nil, nil
		}
		var names []string
		for _, col := range info.Columns {
			if !col.PrimaryKey && !col.IsVector() {
				names = append(names, col.Name)
			}
		}
		sort.Strings(names)
		return names, nil
	}
	return nil, nil
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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

// safeMessage is a driver error's own user-safe text (driver.Error.Msg), never a cause's.
func safeMessage(err error) string {
	var de *driver.Error
	if errors.As(err, &de) && strings.TrimSpace(de.Msg) != "" {
		return de.Msg
	}
	return "the database could not be read"
}
