package app

import (
	"context"
	"testing"
	"time"

	"app/backend/activity"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
)

// confirmCase is one facade call that asks before it changes something.
type confirmCase struct {
	rule string
	run  func(t *testing.T, dialog *answering) (bool, error)
	done func(t *testing.T) bool
}

// Issue 25, item 4: Delete connection, Revoke token and Disconnect client ask with no time
// limit on the question (a Yes given after the call's 30 s must still act), and the change
// itself runs after the answer; all three through askThenAct.
func TestAConfirmedChangeIsNotBoundByTheCallTimeLimit(t *testing.T) {
	ctx := context.Background()
	var cases []confirmCase

	s, _ := newStore(t)
	conn := add(t, s, connections.Connection{Type: "weaviate", Name: "A", Settings: driver.Settings{Host: "localhost", Port: 8080}}, "")
	conns := NewConnectionsAPI(s)
	cases = append(cases, confirmCase{"Delete connection", func(t *testing.T, d *answering) (bool, error) {
		conns.start(env{confirm: d})
		return conns.Remove(conn.ID)
	},
		func(t *testing.T) bool { l, _ := conns.List(); return len(l) == 0 }})

	store := newTokenStore(t)
	tok, _, err := store.Create(ctx, auth.NewToken{Name: "agent", Level: auth.LevelReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	tokens := NewTokensAPI(store)
	cases = append(cases, confirmCase{"Revoke token", func(t *testing.T, d *answering) (bool, error) {
		tokens.start(env{confirm: d})
		return tokens.Revoke(tok.ID)
	},
		func(t *testing.T) bool { _, err := store.Get(ctx, tok.ID); return err != nil }})

	tok2, _, err := store.Create(ctx, auth.NewToken{Name: "cursor", Level: auth.LevelReadWrite})
	if err != nil {
		t.Fatal(err)
	}
	table := activity.NewClients(nil, 0)
	table.Observe(mcp.Record{Start: time.Now(), Principal: mcp.Principal{ID: tok2.PrincipalID(), Name: "cursor", Level: auth.LevelReadWrite},
		Client: &mcp.ClientInfo{Name: "Cursor"}, Method: "tools/list"})
	clients := NewClientsAPI(table, store)
	cases = append(cases, confirmCase{"Disconnect client", func(t *testing.T, d *answering) (bool, error) {
		clients.start(env{confirm: d})
		return clients.Disconnect(tok2.PrincipalID(), "Cursor")
	}, func(t *testing.T) bool { _, err := store.Get(ctx, tok2.ID); return err != nil }})

	for _, c := range cases {
		t.Run(c.rule+" asks without a time limit and acts on Yes", func(t *testing.T) {
			dialog := &answering{yes: true}
			yes, err := c.run(t, dialog)
			if err != nil || !yes {
				t.Fatalf("%v %v", yes, err)
			}
			if len(dialog.timed) != 1 || dialog.timed[0] {
				t.Fatalf("asked %d times, under a deadline: %v", len(dialog.timed), dialog.timed)
			}
			if !c.done(t) {
				t.Fatal("Yes did not act")
			}
		})
	}
}
