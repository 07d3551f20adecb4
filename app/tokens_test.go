package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/auth"
	"app/backend/secrets"
)

// newTokenStore is a real token store in a temp config dir, hashes in the file keyring.
func newTokenStore(t *testing.T) *auth.Store {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	return auth.NewStore(dir, keys)
}

// Issue 11, Settings: tokens are listed (never the token), created (shown once) and revoked
// after a native confirmation.
func TestTokensAPI(t *testing.T) {
	store := newTokenStore(t)
	api := NewTokensAPI(store)
	dialog := &answering{}
	api.start(env{confirm: dialog})

	t.Run("an empty store lists as [] not null", func(t *testing.T) {
		got, err := api.List()
		b, _ := json.Marshal(got)
		if err != nil || string(b) != "[]" {
			t.Fatalf("List() = %s, %v", b, err)
		}
	})
	var created dto.CreatedTokenDTO
	t.Run("create returns the token once, with its level and expiry", func(t *testing.T) {
		var err error
		created, err = api.Create(dto.TokenRequestDTO{Name: "claude", Level: auth.LevelReadOnly, Expires: "30d"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(created.Secret, "app_") || created.Token.Name != "claude" || created.Token.Level != auth.LevelReadOnly || created.Token.ExpiresAt == "" {
			t.Fatalf("%+v", created)
		}
		if _, err := store.Get(context.Background(), "claude"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("list never carries the token", func(t *testing.T) {
		got, err := api.List()
		if err != nil || len(got) != 1 || got[0].ID != created.Token.ID {
			t.Fatalf("%+v %v", got, err)
		}
		b, _ := json.Marshal(got)
		if strings.Contains(string(b), created.Secret) || strings.Contains(string(b), created.Secret[4:]) {
			t.Fatalf("List() shows the token: %s", b)
		}
	})
	for _, c := range []struct {
		name string
		req  dto.TokenRequestDTO
		code string
	}{
		{"a level that is not one of the three is invalid_argument", dto.TokenRequestDTO{Name: "x", Level: "root"}, CodeInvalidArgument},
		{"an expiry that is no duration or date is invalid_argument", dto.TokenRequestDTO{Name: "x", Level: auth.LevelReadOnly, Expires: "soon"}, CodeInvalidArgument},
		{"a name taken (any case) is invalid_argument", dto.TokenRequestDTO{Name: "CLAUDE", Level: auth.LevelReadOnly}, CodeInvalidArgument},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := api.Create(c.req)
			wantCode(t, err, c.code)
		})
	}
	t.Run("revoke asks first; No keeps the token", func(t *testing.T) {
		ok, err := api.Revoke(created.Token.ID)
		if err != nil || ok {
			t.Fatalf("%v %v", ok, err)
		}
		if len(dialog.questions) != 1 || !strings.Contains(dialog.questions[0], "\u201cclaude\u201d") {
			t.Fatalf("asked %q", dialog.questions)
		}
		if got, _ := api.List(); len(got) != 1 {
			t.Fatalf("the token went: %+v", got)
		}
	})
	t.Run("revoke after Yes removes it; a second revoke is not_found", func(t *testing.T) {
		dialog.yes = true
		ok, err := api.Revoke(created.Token.ID)
		if err != nil || !ok {
			t.Fatalf("%v %v", ok, err)
		}
		if got, _ := api.List(); len(got) != 0 {
			t.Fatalf("still listed: %+v", got)
		}
		_, err = api.Revoke(created.Token.ID)
		wantCode(t, err, CodeNotFound)
	})
}

// A revoke from the window goes through access control: the token is refused at once, not
// at the next poll of the tokens file (PollEvery is an hour here, so only the in-process path
// can pass).
func TestARevokeFromTheWindowRefusesTheTokenAtOnce(t *testing.T) {
	store := newTokenStore(t)
	var revoked []string
	svc := auth.NewService(auth.Options{Store: store, PollEvery: time.Hour, Revoke: func(p string) { revoked = append(revoked, p) }})
	ctx := context.Background()
	tok, secret, err := store.Create(ctx, auth.NewToken{Name: "agent", Level: auth.LevelReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	call := func() error {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.Header.Set("Authorization", "Bearer "+secret)
		_, err := svc.Authenticate(r)
		return err
	}
	if err := call(); err != nil {
		t.Fatalf("before the revoke: %v", err)
	}
	api := NewTokensAPI(LiveTokens(svc))
	api.start(env{confirm: &answering{yes: true}})
	if ok, err := api.Revoke(tok.ID); err != nil || !ok {
		t.Fatalf("%v %v", ok, err)
	}
	if err := call(); err == nil {
		t.Fatal("the revoked token is still accepted")
	}
	if len(revoked) != 1 || revoked[0] != tok.PrincipalID() {
		t.Fatalf("requests and sessions ended for %v, want %s", revoked, tok.PrincipalID())
	}
}
