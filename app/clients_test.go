package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/activity"
	"app/backend/auth"
	"app/backend/mcp"
)

// Issue 11, Settings, Connected clients: who called lately; "disconnect" revokes that
// client's token after the native confirmation.
func TestClientsAPI(t *testing.T) {
	store := newTokenStore(t)
	ctx := context.Background()
	tok, _, err := store.Create(ctx, auth.NewToken{Name: "cursor", Level: auth.LevelReadWrite})
	if err != nil {
		t.Fatal(err)
	}
	table := activity.NewClients(nil, 0)
	table.Observe(mcp.Record{Start: time.Now(), Principal: mcp.Principal{ID: tok.PrincipalID(), Name: "cursor", Level: auth.LevelReadWrite},
		Client: &mcp.ClientInfo{Name: "Cursor", Version: "1.7"}, Method: "tools/list"})
	table.Observe(mcp.Record{Start: time.Now(), Principal: mcp.Principal{ID: "anonymous", Anonymous: true}, Client: &mcp.ClientInfo{Name: "curl"}, Method: "tools/list"})
	api := NewClientsAPI(table, store)
	dialog := &answering{}
	api.start(env{confirm: dialog})

	t.Run("recent lists each client with its token, level and counts", func(t *testing.T) {
		got, err := api.Recent()
		if err != nil || len(got) != 2 {
			t.Fatalf("%+v %v", got, err)
		}
		var cursor *dto.ConnectedClientDTO
		for i := range got {
			if got[i].Name == "Cursor" {
				cursor = &got[i]
			}
		}
		if cursor == nil || cursor.Version != "1.7" || cursor.TokenName != "cursor" || cursor.Level != auth.LevelReadWrite || cursor.Requests != 1 || cursor.LastSeen == "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("an anonymous caller has no token to revoke: invalid_argument", func(t *testing.T) {
		_, err := api.Disconnect("anonymous", "curl")
		wantCode(t, err, CodeInvalidArgument)
	})
	t.Run("disconnect asks naming the client and token; No keeps the token", func(t *testing.T) {
		ok, err := api.Disconnect(tok.PrincipalID(), "Cursor")
		if err != nil || ok {
			t.Fatalf("%v %v", ok, err)
		}
		if len(dialog.questions) != 1 || !strings.Contains(dialog.questions[0], "Disconnect Cursor by revoking its token \u201ccursor\u201d (readWrite)") {
			t.Fatalf("asked %q", dialog.questions)
		}
		if _, err := store.Get(ctx, tok.ID); err != nil {
			t.Fatal("the token went after a No")
		}
	})
	t.Run("Yes revokes the token and drops the client from the list", func(t *testing.T) {
		dialog.yes = true
		ok, err := api.Disconnect(tok.PrincipalID(), "Cursor")
		if err != nil || !ok {
			t.Fatalf("%v %v", ok, err)
		}
		if _, err := store.Get(ctx, tok.ID); err == nil {
			t.Fatal("the token is still there")
		}
		got, _ := api.Recent()
		if len(got) != 1 || got[0].Name != "curl" {
			t.Fatalf("%+v", got)
		}
		_, err = api.Disconnect(tok.PrincipalID(), "Cursor")
		wantCode(t, err, CodeNotFound)
	})
}
