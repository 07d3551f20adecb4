package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"app/backend/connections"
	"app/backend/mcp"
)

// NameConnectionStatus tells whether a connection is open and what AI clients may do on it.
const NameConnectionStatus = "connection_status"

// connStatus is the structuredContent of connection_status, connect and disconnect. It names
// the connection and never carries its credential.
type connStatus struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
	Host string `json:"host"`
	Port int    `json:"port"`
	Open bool   `json:"open"`
	// Reads and Writes say what happens to an AI client's statements (connections.AIRights).
	Reads  string `json:"reads"`
	Writes string `json:"writes"`
}

func statusOf(c connections.Connection, open bool) connStatus {
	r := connections.AIRights(c)
	return connStatus{ID: c.ID, Name: c.Name, Type: c.Type, Host: c.Settings.Host, Port: c.Settings.Port,
		Open: open, Reads: r.Read.String(), Writes: r.Write.String()}
}

func (s connStatus) text(lead string) string {
	state := "closed"
	if s.Open {
		state = "open"
	}
	return fmt.Sprintf("%s%s (%s at %s:%d, id %s): %s; reads: %s; writes: %s.",
		lead, s.Name, s.Type, s.Host, s.Port, s.ID, state, s.Reads, s.Writes)
}

// ConnectionStatus is the connection_status tool. It reads the saved connection and the open
// set only: no statement runs, so nothing is approved and nothing is opened.
func ConnectionStatus(d Deps) mcp.Tool {
	return define(spec{
		Name:        NameConnectionStatus,
		Title:       "Connection status",
		Description: "Tells whether a connection is open, and whether AI reads and writes on it run, need the user's approval, or are refused.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(ctx context.Context, a connArgs, _ json.RawMessage) (string, connStatus, error) {
		c, err := d.saved(ctx, a.Connection)
		if err != nil {
			return "", connStatus{}, err
		}
		s := statusOf(c, d.Conns.Open != nil && d.Conns.Open.IsOpen(c.ID))
		return s.text(""), s, nil
	})
}
