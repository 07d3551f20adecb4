package tools

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// Names of the statement tools.
const (
	NameExecuteQuery       = "execute_query"
	NameConfirmDestructive = "confirm_destructive_operation"
)

type queryArgs struct {
	connArgs
	Query string   `json:"query" jsonschema:"one statement in the connection's query language (its language in list_connections)"`
	Limit rowLimit `json:"limit,omitempty"`
}

// ExecuteQuery is execute_query: reads run at once; a write waits for the user's consent
// (backend/approval); a destructive statement is refused here and pointed to
// confirm_destructive_operation. Progress: 0.0 classified, 0.3 running, 1.0 done.
//
// Its structuredContent is one of three shapes (a page of rows with kind "grid", a JSON
// document with kind "json", or a plan's text with kind "text"), so it lists no output schema:
// one object schema for all would say less than the description does.
func ExecuteQuery(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameExecuteQuery,
		Title:       "Execute a query",
		Description: "Runs one statement in the connection's own query language (list_connections says which; the server instructions give an example of each). Writes wait for the user's approval; deletes need confirm_destructive_operation.",
		Annotations: &mcp.ToolAnnotations{Title: "Execute a query", OpenWorldHint: false},
	}, func(ctx context.Context, a queryArgs, raw json.RawMessage) (string, any, error) {
		return d.statement(ctx, NameExecuteQuery, a, raw, false)
	})
}

// ConfirmDestructive is confirm_destructive_operation: the one way an AI client runs a
// destructive statement (a REST DELETE or PUT, a batch), each time with the user's consent,
// which is never remembered. Admin scope: a fullAccess token.
func ConfirmDestructive(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameConfirmDestructive,
		Title:       "Run a destructive statement",
		Description: "Runs a destructive statement (a delete, a drop, a batch) that execute_query refused, once the user confirms it (in App, or in your approval form on a fullAccess token). Cannot be undone.",
		Scope:       auth.ScopeAdmin,
		Write:       true,
		Annotations: &mcp.ToolAnnotations{Title: "Run a destructive statement", DestructiveHint: true},
	}, func(ctx context.Context, a queryArgs, raw json.RawMessage) (string, any, error) {
		return d.statement(ctx, NameConfirmDestructive, a, raw, true)
	})
}

// statement runs execute_query (destructive false: destructive statements are refused) or
// confirm_destructive_operation (destructive true: only destructive statements are taken).
func (d Deps) statement(ctx context.Context, tool string, a queryArgs, raw json.RawMessage, destructive bool) (string, any, error) {
	if strings.TrimSpace(a.Query) == "" {
		return "", nil, mcp.NewToolError(mcp.ToolErrInvalidArgument, "query is empty")
	}
	call := mcp.CallFrom(ctx)
	c, err := d.saved(ctx, a.Connection)
	if err != nil {
		return "", nil, err
	}
	drv, err := d.open(ctx, c)
	if err != nil {
		return "", nil, err
	}
	class, err := drv.Classify(a.Query)
	if err != nil {
		return "", nil, err
	}
	call.Progress(0, 1, "classified as a "+classWord(class))
	switch {
	case class.PersonOnly:
		// A backup, a restore: writes of that size are the person's (issue 40, item 5), so no
		// AI client starts one, whatever its token or the connection's rights, and nobody is
		// asked to approve one.
		return "", nil, mcp.NewToolError(mcp.ToolErrUnsupported, "this statement starts work on the whole database (a backup, a restore or the like) that only the user starts, in App's window or its command line; AI clients cannot run it")
	case class.Destructive && !destructive:
		return "", nil, mcp.NewToolError(mcp.ToolErrUnsupported, "execute_query does not run destructive statements; call %s with the same connection and query, and the user will be asked to confirm", NameConfirmDestructive)
	case !class.Destructive && destructive:
		return "", nil, mcp.NewToolError(mcp.ToolErrInvalidArgument, "this statement is not destructive: run it with %s", NameExecuteQuery)
	}
	if err := d.Approver.Approve(ctx, approval.Statement{Tool: tool, Args: raw, Connection: c, Text: a.Query, Class: class, Verbatim: true}); err != nil {
		return "", nil, err
	}

	// A read is capped by the driver, in its own language (ExecOptions.MaxRows).
	limit, note := d.pageLimit(a.Limit)
	opts := driver.ExecOptions{}
	if !class.Write() {
		opts.MaxRows = limit
	}
	call.Progress(0.3, 1, "running")
	var res *driver.Result
	if err := d.run(ctx, func(ctx context.Context) error {
		var err error
		res, err = drv.Execute(ctx, a.Query, opts)
		return err
	}); err != nil {
		return "", nil, err
	}
	call.Progress(1, 1, "done")
	out := resultOf(c, res, limit, d.limits().MaxRows, note)
	return out.Text, out.Structured, nil
}

func classWord(c driver.Classification) string {
	switch {
	case c.Destructive:
		return "destructive write"
	case c.Write():
		return "write"
	}
	return "read"
}

// resultOf renders a statement's result: a grid as a page of rows, anything else as compact
// JSON, capped. The driver cut a read at the limit in the statement and says so
// (Result.Truncated, Notice: how to read on); a statement's own limit within the maximum is
// the whole answer it asked for, and maxRows is the backstop for a driver that does not cap.
// Every cut says so, in the text and in structuredContent.truncated.
func resultOf(c connections.Connection, res *driver.Result, limit, maxRows int, note string) *mcp.ToolResult {
	if res.Notice != "" && !res.Truncated {
		// Not a cut, but what the driver did (a Get translated to the server's gRPC API).
		note = strings.TrimSpace(res.Notice + ". " + note)
	}
	if len(res.Before) > 0 {
		// The text held several statements: the answer is the last one's; the others say what they did.
		tags := make([]string, len(res.Before))
		for i, b := range res.Before {
			tags[i] = cmp.Or(b.Tag, string(b.Kind))
		}
		note = strings.TrimSpace("the answer is the last statement's; before it: " + strings.Join(tags, ", ") + ". " + note)
	}

	if res.Kind == driver.ResultGrid && res.Grid != nil {
		g := *res.Grid
		var p page
		more := func(next int) string {
			return fmt.Sprintf("the answer was cut at the maximum of %d rows: add offset: %d (and a limit) to the Get arguments to read on", maxRows, next)
		}
		if res.Truncated {
			g.Notice = ""
			p = pageOf(res.Table, &g, g.Offset, len(g.Rows))
			next := g.Offset + len(g.Rows)
			p.Truncated, p.NextOffset = true, &next
			more = func(int) string { return res.Notice }
		} else {
			p = pageOf(res.Table, &g, g.Offset, min(max(limit, len(g.Rows)), maxRows))
		}
		p.addNote(note)
		out := struct {
			Kind string `json:"kind"`
			page
		}{"grid", p}
		return &mcp.ToolResult{
			Text:       p.text(fmt.Sprintf("%s on %s", tableOr(res.Table), c.Name), more),
			Structured: out,
		}
	}
	if res.Kind == driver.ResultText {
		// A plan reads as the database wrote it, line by line.
		text := capText("plan:\n"+res.Text, "the whole text is in structuredContent.text")
		structured := map[string]any{"kind": "text", "text": res.Text, "truncated": res.Truncated}
		if note != "" {
			text += "\n" + note
			structured["notes"] = note
		}
		return &mcp.ToolResult{Text: text, Structured: structured}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, res.JSON); err != nil {
		compact.Reset()
		compact.Write(res.JSON)
	}
	body := compact.String()
	if body == "" {
		body = "null"
	}
	head := "result"
	if res.Status != 0 {
		head = fmt.Sprintf("HTTP %d", res.Status)
	}
	structured := map[string]any{"kind": "json", "json": json.RawMessage(compact.Bytes()), "truncated": res.Truncated}
	if compact.Len() == 0 {
		structured["json"] = nil
	}
	if res.Status != 0 {
		structured["status"] = res.Status
	}
	text := capText(head+": "+body, "the whole document is in structuredContent.json")
	notes := note
	if res.Truncated {
		// The cut goes first: it says what the document lacks.
		text = head + " (cut: " + res.Notice + "): " + strings.TrimPrefix(text, head+": ")
		notes = strings.TrimSpace(res.Notice + ". " + note)
	}
	if note != "" {
		text += "\n" + note
	}
	if notes != "" {
		structured["notes"] = notes
	}
	return &mcp.ToolResult{Text: text, Structured: structured}
}

func tableOr(t string) string {
	if t == "" {
		return "rows"
	}
	return t
}
