package clientsetup

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/auth"
	"app/backend/pairing"
)

type fakeTokens struct {
	list    []auth.Token
	created []auth.NewToken
	refuse  error
}

func (f *fakeTokens) List(context.Context) ([]auth.Token, error) { return f.list, nil }

func (f *fakeTokens) Create(_ context.Context, req auth.NewToken) (auth.Token, string, error) {
	if f.refuse != nil {
		return auth.Token{}, "", f.refuse
	}
	f.created = append(f.created, req)
	return auth.Token{ID: "t1", Name: req.Name, Level: req.Level}, "secret-123", nil
}

func TestSetupMintsAFreeNameConfiguresAndWrites(t *testing.T) {
	c, err := pairing.Find("cursor")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 27, 3, 4, 0, 0, time.UTC)
	tokens := &fakeTokens{list: []auth.Token{{Name: "Cursor 2026-11-27 03:04"}}}
	file := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers":{"other":{"url":"http://x"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := Setup(context.Background(), tokens, Request{Client: c, Token: auth.NewToken{Level: "readOnly"},
		Endpoint: pairing.Endpoint{URL: "http://127.0.0.1:5/mcp"}, File: file}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(tokens.created) != 1 || tokens.created[0].Name == "Cursor 2026-11-27 03:04" || !strings.HasPrefix(tokens.created[0].Name, "Cursor 2026-11-27 03:04") {
		t.Fatalf("created %+v: want a free name after the taken one", tokens.created)
	}
	if !strings.Contains(res.Snippet.Text, "secret-123") || res.Written != file || res.Backup == "" {
		t.Fatalf("%+v", res)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "secret-123") || !strings.Contains(string(data), `"other"`) {
		t.Fatalf("the file keeps its other servers and gets the app's: %s", data)
	}
}

func TestSetupTellsARefusedTokenAndAFailedWriteApart(t *testing.T) {
	c, _ := pairing.Find("cursor")
	refused := errors.New("the name is taken")
	_, err := Setup(context.Background(), &fakeTokens{refuse: refused}, Request{Client: c, Token: auth.NewToken{Name: "x", Level: "readOnly"}}, time.Now())
	var te *TokenError
	if !errors.As(err, &te) || !errors.Is(err, refused) {
		t.Fatalf("err = %v, want the TokenError", err)
	}
	dir := filepath.Join(t.TempDir(), "missing", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(filepath.Dir(dir)), 0o700); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Dir(dir)
	if err := os.WriteFile(blocker, nil, 0o600); err != nil { // a file where the directory should be
		t.Fatal(err)
	}
	res, err := Setup(context.Background(), &fakeTokens{}, Request{Client: c, Token: auth.NewToken{Name: "x", Level: "readOnly"},
		Endpoint: pairing.Endpoint{URL: "http://127.0.0.1:5/mcp"}, File: dir}, time.Now())
	if err == nil || errors.As(err, &te) || !strings.Contains(err.Error(), `the token "x" was created, but`) || res.Snippet.Text == "" {
		t.Fatalf("%+v %v", res, err)
	}
}
