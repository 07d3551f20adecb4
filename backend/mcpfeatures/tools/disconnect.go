package tools

import (
	"context"
	"encoding/json"

	"app/backend/mcp"
)

// NameDisconnect ends the caller's use of a connection.
const NameDisconnect = "disconnect"

// Disconnect is the disconnect tool: it ends the calling client's hold on the connection in
// the app's connection manager, which closes it only when nobody else holds it. What the
// person has open in the window stays open: an AI client never breaks the person's tabs or
// running queries (issue 25, item 5). It runs no statement, so it needs no approval; the
// connection must still be one the caller may see and use. It changes the app's state, so it
// is not read-only, and destroys nothing.
func Disconnect(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameDisconnect,
		Title:       "Disconnect",
		Description: "Ends your use of a connection; it closes unless App's window or another client has it open. Changes no data.",
		// It changes which connections are open (not read-only), never any data (not
		// destructive); releasing twice is releasing once.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: false, IdempotentHint: true},
	}, func(ctx context.Context, a connArgs, _ json.RawMessage) (string, connStatus, error) {
		c, err := d.saved(ctx, a.Connection)
		if err != nil {
			return "", connStatus{}, err
		}
		lead, open := "Was not open: ", false
		if d.Conns.Open != nil && d.Conns.Open.IsOpen(c.ID) {
			closed, err := d.Conns.Open.Release(c.ID, mcp.CallFrom(ctx).Principal.ID)
			if err != nil {
				return "", connStatus{}, err
			}
			lead = "Disconnected "
			if !closed {
				lead, open = "Left open (the user has it open in App, or another client uses it; your use of it ended): ", true
			}
		}
		s := statusOf(c, open)
		return s.text(lead), s, nil
	})
}
