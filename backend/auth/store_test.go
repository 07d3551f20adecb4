package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	return NewStore(dir, openKeys(t, dir)), dir
}

// Issue 11 "Tokens and principals": a token has a name, a level, an allowlist of connections
// (or all), an optional expiry and created / last-used times; it is shown once at creation and
// only a salted hash is stored, in the keyring.
func TestStore(t *testing.T) {
	ctx := context.Background()
	t.Run("create returns the token once; the file keeps metadata only", func(t *testing.T) {
		s, dir := newStore(t)
		tok, secret, err := s.Create(ctx, NewToken{Name: " claude ", Level: LevelReadOnly})
		if err != nil {
			t.Fatal(err)
		}
		if tok.Name != "claude" || tok.Level != LevelReadOnly || tok.ID == "" || tok.Connections != nil ||
			tok.ExpiresAt != nil || tok.CreatedAt.IsZero() || tok.LastUsedAt != nil || !wellFormed(secret) {
			t.Fatalf("%+v %q", tok, secret)
		}
		data, err := os.ReadFile(filepath.Join(dir, TokensFileName))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), secret) || strings.Contains(string(data), "sha256") {
			t.Fatalf("secret material in %s:\n%s", TokensFileName, data)
		}
		st, _ := os.Stat(filepath.Join(dir, TokensFileName))
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
		list, _ := s.List(ctx)
		if len(list) != 1 || !reflect.DeepEqual(list[0], tok) {
			t.Fatalf("list %+v", list)
		}
	})
	t.Run("the salted hash is in the keyring under mcp-token/<id>", func(t *testing.T) {
		s, _ := newStore(t)
		tok, secret, _ := s.Create(ctx, NewToken{Name: "a", Level: LevelReadOnly})
		raw, err := s.keys.Get("mcp-token/" + tok.ID)
		if err != nil || !strings.HasPrefix(raw, digestScheme+":") || strings.Contains(raw, secret) {
			t.Fatalf("%q %v", raw, err)
		}
		d, err := s.digest(tok.ID)
		if err != nil || !d.matches(secret) {
			t.Fatal("stored hash does not match the token")
		}
	})
	t.Run("names are unique, ignoring case", func(t *testing.T) {
		s, _ := newStore(t)
		if _, _, err := s.Create(ctx, NewToken{Name: "ci", Level: LevelReadOnly}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Create(ctx, NewToken{Name: "CI", Level: LevelReadWrite}); err == nil || !strings.Contains(err.Error(), "exists") {
			t.Fatalf("duplicate name: %v", err)
		}
		if list, _ := s.List(ctx); len(list) != 1 {
			t.Fatalf("%d tokens", len(list))
		}
	})
	for _, by := range []string{"name", "id"} {
		t.Run("revoke by "+by+" removes the metadata and the hash", func(t *testing.T) {
			s, _ := newStore(t)
			tok, _, _ := s.Create(ctx, NewToken{Name: "gone", Level: LevelFullAccess})
			keep, _, _ := s.Create(ctx, NewToken{Name: "kept", Level: LevelReadOnly})
			ref := map[string]string{"name": "GONE", "id": tok.ID}[by]
			got, err := s.Revoke(ctx, ref)
			if err != nil || got.ID != tok.ID {
				t.Fatalf("%+v %v", got, err)
			}
			if list, _ := s.List(ctx); len(list) != 1 || list[0].ID != keep.ID {
				t.Fatalf("left %+v", list)
			}
			if _, err := s.keys.Get(keyringKey(tok.ID)); err == nil {
				t.Fatal("hash left in the keyring")
			}
		})
	}
	t.Run("revoking a token that does not exist is ErrNotFound", func(t *testing.T) {
		s, _ := newStore(t)
		if _, err := s.Revoke(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	})
	t.Run("an allowlist is kept sorted without repeats; an empty one is refused", func(t *testing.T) {
		s, _ := newStore(t)
		tok, _, err := s.Create(ctx, NewToken{Name: "some", Level: LevelReadOnly, Connections: []string{"b", "a", "b"}})
		if err != nil || !reflect.DeepEqual(tok.Connections, []string{"a", "b"}) {
			t.Fatalf("%v %v", tok.Connections, err)
		}
		if _, _, err := s.Create(ctx, NewToken{Name: "none", Level: LevelReadOnly, Connections: []string{}}); err == nil {
			t.Fatal("empty allowlist accepted")
		}
		back, _ := s.Get(ctx, "some")
		if !reflect.DeepEqual(back.Connections, []string{"a", "b"}) {
			t.Fatalf("read back %v", back.Connections)
		}
	})
	t.Run("all connections (no allowlist) reads back as all, not as none", func(t *testing.T) {
		s, _ := newStore(t)
		_, _, _ = s.Create(ctx, NewToken{Name: "all", Level: LevelReadOnly})
		back, _ := s.Get(ctx, "all")
		if back.Connections != nil {
			t.Fatalf("%#v", back.Connections)
		}
	})
	for _, c := range []struct{ name, why string }{
		{"", "a name is required"},
		{strings.Repeat("x", 101), "longer than"},
		{"a\nb", "control characters"},
	} {
		t.Run("a bad name is refused: "+c.why, func(t *testing.T) {
			s, _ := newStore(t)
			if _, _, err := s.Create(ctx, NewToken{Name: c.name, Level: LevelReadOnly}); err == nil || !strings.Contains(err.Error(), c.why) {
				t.Fatal(err)
			}
		})
	}
	t.Run("a level that is not one of the three is refused", func(t *testing.T) {
		s, _ := newStore(t)
		if _, _, err := s.Create(ctx, NewToken{Name: "x", Level: "admin"}); err == nil || !strings.Contains(err.Error(), "readOnly, readWrite, fullAccess") {
			t.Fatal(err)
		}
	})
	t.Run("an expiry in the past is refused", func(t *testing.T) {
		s, _ := newStore(t)
		past := time.Now().Add(-time.Hour)
		if _, _, err := s.Create(ctx, NewToken{Name: "x", Level: LevelReadOnly, ExpiresAt: &past}); err == nil {
			t.Fatal("accepted")
		}
	})
}

func TestParseExpiry(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time // zero: no expiry
		bad  bool
	}{
		{in: "", want: time.Time{}},
		{in: "never", want: time.Time{}},
		{in: "30d", want: now.AddDate(0, 0, 30)},
		{in: "2w", want: now.AddDate(0, 0, 14)},
		{in: "12h", want: now.Add(12 * time.Hour)},
		{in: "90m", want: now.Add(90 * time.Minute)},
		{in: "2026-12-31", want: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)},
		{in: "2027-01-02T03:04:05Z", want: time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)},
		{in: "0d", bad: true},
		{in: "-3d", bad: true},
		{in: "xd", bad: true},
		{in: "2020-01-01", bad: true},
		{in: "-1h", bad: true},
		{in: "soon", bad: true},
		{in: "99999999d", bad: true},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseExpiry(c.in, now)
			switch {
			case c.bad:
				if err == nil {
					t.Fatalf("accepted: %v", got)
				}
			case err != nil:
				t.Fatal(err)
			case c.want.IsZero():
				if got != nil {
					t.Fatalf("got %v, want no expiry", got)
				}
			case got == nil || !got.Equal(c.want):
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

// Issue 11 "Done when": no secret appears in any file of the config dir. Tokens are created
// (by the app and by the CLI), used and their last use written; then every file under the
// config dir, the keyring's included, is searched for each token and each stored hash in every
// usual encoding.
func TestNoSecretInTheConfigDir(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{start: true})
	var secrets []string
	var secretTokens []Token
	for _, level := range Levels() {
		tok, secret := r.create("t"+level, level, nil, nil)
		secrets, secretTokens = append(secrets, secret), append(secretTokens, tok)
	}
	cli := NewStore(r.dir, openKeys(t, r.dir))
	tok, secret, err := cli.Create(ctx, NewToken{Name: "cli", Level: LevelReadWrite})
	if err != nil {
		t.Fatal(err)
	}
	secrets, secretTokens = append(secrets, secret), append(secretTokens, tok)
	for _, s := range secrets {
		r.whoami(s)
	}
	r.svc.flushUsage(ctx, true)

	var needles []string
	for i, s := range secrets {
		d, err := r.store.digest(secretTokens[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		needles = append(needles, s, s[len(TokenPrefix):],
			base64.RawURLEncoding.EncodeToString(d.sum[:]), base64.StdEncoding.EncodeToString(d.sum[:]),
			hex.EncodeToString(d.sum[:]), string(d.sum[:]))
	}
	files := 0
	err = filepath.WalkDir(r.dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if bytes.Contains(data, []byte(n)) {
				t.Errorf("%s holds a token or its hash", p)
			}
		}
		return nil
	})
	if err != nil || files < 3 {
		t.Fatalf("walked %d files: %v", files, err)
	}
	if list, _ := r.store.List(ctx); list[0].LastUsedAt == nil {
		t.Fatal("the last use was not written, so the file searched was not the whole story")
	}
}

func TestFreeNameSkipsTakenNamesIgnoringCase(t *testing.T) {
	list := []Token{{Name: "Cursor 2026-11-23 10:00"}, {Name: "cursor 2026-11-23 10:00 #2"}}
	for _, c := range []struct{ base, want string }{
		{"Cursor 2026-11-23 10:00", "Cursor 2026-11-23 10:00 #3"},
		{"VS Code 2026-11-23 10:00", "VS Code 2026-11-23 10:00"},
	} {
		if got := FreeName(list, c.base); got != c.want {
			t.Errorf("FreeName(%q) = %q, want %q", c.base, got, c.want)
		}
	}
}
