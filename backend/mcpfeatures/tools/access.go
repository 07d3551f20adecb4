package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// Approver decides whether a statement may run for the calling request: nil runs it; an
// *mcp.ToolError (denied), an *mcp.Error (-33007, -32602) or an *mcp.InputRequired ends the
// tool with that answer. *approval.Gate implements it.
type Approver interface {
	Approve(ctx context.Context, s approval.Statement) error
}

// Saved is the one route from the tools to the user's saved connections: those AI clients may
// see (connections.VisibleToAI) and one of them by id or name. *connections.Store implements
// it.
type Saved interface {
	connections.AILister
	Get(ctx context.Context, idOrName string) (connections.Connection, error)
	// Words are what the connection's driver says to AI clients, nil for nothing.
	Words(c connections.Connection) *driver.Words
}

// words are the driver's words for c, nil when the tools reach no saved connections.
func (d Deps) words(c connections.Connection) *driver.Words {
	if d.Conns.Store == nil {
		return nil
	}
	return d.Conns.Store.Words(c)
}

// Conns is how the tools reach the user's saved and open connections.
type Conns struct {
	Store Saved
	Open  *connections.Manager
}

// errUnknownConnection is the tool error for a connection an AI client may not see: a
// blocked connection answers exactly like one that does not exist.
func errUnknownConnection(name string) *mcp.ToolError {
	return mcp.NewToolError(mcp.ToolErrNotFound, "no connection %q; call list_connections for the ids", truncate(name, 100))
}

// saved resolves the connection an AI call names (id or name) among those AI clients may see
// and the caller's token may use. The connection carries no credential.
func (d Deps) saved(ctx context.Context, idOrName string) (connections.Connection, error) {
	if d.Conns.Store == nil {
		return connections.Connection{}, errUnknownConnection(idOrName)
	}
	c, err := d.Conns.Store.Get(ctx, idOrName)
	if errors.Is(err, connections.ErrNotFound) || (err == nil && !connections.VisibleToAI(c)) {
		return connections.Connection{}, errUnknownConnection(idOrName)
	}
	if err != nil {
		return connections.Connection{}, err
	}
	if !auth.MayUse(ctx, c.ID) {
		return connections.Connection{}, auth.ConnectionNotAllowed()
	}
	c.Settings.APIKey = ""
	return c, nil
}

// use resolves the named connection, asks the Approver whether st may run on it (st.Connection
// is filled in here), and returns its open driver, connecting it when it is not open yet (an AI
// client's first statement on a saved connection opens it, as opening it in the window does).
// A connection that cannot be reached or whose key is refused is the tool error not_connected
// with the driver's message.
func (d Deps) use(ctx context.Context, idOrName string, st approval.Statement) (driver.Driver, connections.Connection, error) {
	c, err := d.saved(ctx, idOrName)
	if err != nil {
		return nil, c, err
	}
	st.Connection = c
	if d.Approver == nil {
		return nil, c, mcp.NewToolError(mcp.ToolErrDenied, "statements are not accepted by this server")
	}
	if err := d.Approver.Approve(ctx, st); err != nil {
		return nil, c, err
	}
	drv, err := d.open(ctx, c)
	return drv, c, err
}

// open returns the driver of a connection, connecting it when needed.
func (d Deps) open(ctx context.Context, c connections.Connection) (driver.Driver, error) {
	if d.Conns.Open == nil {
		return nil, mcp.NewToolError(mcp.ToolErrNotConnected, "connection %q cannot be opened here", c.Name)
	}
	drv, _, err := d.Conns.Open.Open(ctx, c.ID)
	if err != nil {
		return nil, FromError(err)
	}
	return drv, nil
}

// decodeArgs decodes a tool's arguments (already checked against its input schema) into v;
// arguments that still do not fit are the tool error invalid_argument.
func decodeArgs(raw json.RawMessage, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "arguments: %v", err)
	}
	return nil
}

// read is the Statement of a read-only tool call (browse, count, describe, search).
func read(tool string, args []byte, text string) approval.Statement {
	return approval.Statement{Tool: tool, Args: args, Text: text, Class: driver.Classification{Access: driver.AccessRead}}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

var errStatementTimeout = errors.New("the statement timeout passed")

// run runs one statement under the MCP panel's statement timeout. When that timeout ends it,
// the request ends with -33003 (SPEC.md B "States and transitions": statement timeout); the
// driver stops its query with the context, so nothing is left running on the database.
func (d Deps) run(ctx context.Context, fn func(context.Context) error) error {
	l := d.limits()
	if l.QueryTimeout <= 0 {
		return fn(ctx)
	}
	end := time.Now().Add(l.QueryTimeout)
	sctx, cancel := context.WithDeadlineCause(ctx, end, errStatementTimeout)
	defer cancel()
	err := fn(sctx)
	// A driver in its plugin process gets the deadline too, and its own timer may end the
	// call (a timeout error) a moment before this process's timer marks sctx done: a timeout
	// at or past the statement's end is the statement timeout either way.
	expired := driver.IsKind(err, driver.KindTimeout) && !time.Now().Before(end)
	if err != nil && ctx.Err() == nil && (errors.Is(context.Cause(sctx), errStatementTimeout) || expired) {
		return mcp.NewError(mcp.CodeRequestTimeout, "request timeout: the statement timeout of "+l.QueryTimeout.String()+" passed", nil)
	}
	return err
}
