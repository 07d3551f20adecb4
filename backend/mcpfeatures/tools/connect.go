package tools

import (
	"context"
	"encoding/json"

	"app/backend/mcp"
)

// NameConnect opens a saved connection.
const NameConnect = "connect"

// Connect is the connect tool. Opening reads nothing, but it is a statement on the connection
// as far as the user's policy goes: it goes through the Approver as a read ("open the
// connection"), so on an alwaysAsk connection the user is asked first. The other tools connect
// on their own; this one lets a model check reachability and the key up front. A connection
// that cannot be reached or whose key is refused is not_connected with the driver's reason.
func Connect(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameConnect,
		Title:       "Connect",
		Description: "Opens a saved connection (checks host, TLS and key). Changes no data; other tools connect on their own.",
		// It changes which connections are open, never any data: read-only as far as the
		// databases go, and opening an open connection changes nothing.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a connArgs, raw json.RawMessage) (string, connStatus, error) {
		before, err := d.saved(ctx, a.Connection)
		if err != nil {
			return "", connStatus{}, err
		}
		wasOpen := d.Conns.Open != nil && d.Conns.Open.IsOpen(before.ID)
		_, c, err := d.use(ctx, before.ID, read(NameConnect, raw, "open the connection"))
		if err != nil {
			return "", connStatus{}, err
		}
		// The caller holds it now, so its disconnect closes what it opened and nothing else.
		d.Conns.Open.Hold(c.ID, mcp.CallFrom(ctx).Principal.ID)
		s := statusOf(c, true)
		lead := "Connected to "
		if wasOpen {
			lead = "Already connected to "
		}
		return s.text(lead), s, nil
	})
}
