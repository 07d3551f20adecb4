package connections

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/secrets"
)

// Contract 3, item 1: a connection's settings are its type's description's fields; secrets
// of any key live in the keyring only, and a key the description does not name is refused.
func TestSettingsFollowTheTypesDescription(t *testing.T) {
	ctx := context.Background()
	conn := func() Connection {
		c := Connection{Name: "file", Type: "testdb"}
		for k, v := range map[string]string{"path": "/tmp/x.db", "mode": "rw", "timeout": "5", "wal": "true"} {
			if err := c.Settings.SetValue(k, v); err != nil {
				t.Fatal(err)
			}
		}
		c.Settings.SetSecret("password", "pw-secret-1")
		c.Settings.SetSecret("token", "tok-secret-2")
		return c
	}
	t.Run("every kind is saved, the secrets in the keyring and never in the file", func(t *testing.T) {
		s, dir := newStore(t)
		saved, err := s.Add(ctx, conn(), "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "connections.json"))
		if strings.Contains(string(b), "secret-1") || strings.Contains(string(b), "secret-2") {
			t.Fatalf("a secret is in the file: %s", b)
		}
		got, err := s.Resolve(ctx, saved.ID)
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range map[string]string{"path": "/tmp/x.db", "mode": "rw", "timeout": "5", "wal": "true"} {
			if got.Settings.Value(k) != want {
				t.Errorf("%s = %q, want %q", k, got.Settings.Value(k), want)
			}
		}
		if got.Settings.Secret("password") != "pw-secret-1" || got.Settings.Secret("token") != "tok-secret-2" {
			t.Fatalf("secrets resolved as %v", got.Settings.Secrets)
		}
		plain, _ := s.Get(ctx, saved.ID)
		if len(plain.Settings.Secrets) != 0 {
			t.Fatalf("Get carries secrets: %v", plain.Settings.Secrets)
		}
	})
	t.Run("a secret whose field no longer applies is deleted; Remove deletes the rest", func(t *testing.T) {
		s, _ := newStore(t)
		saved, err := s.Add(ctx, conn(), "")
		if err != nil {
			t.Fatal(err)
		}
		_, after, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { _ = c.Settings.SetValue("mode", "ro") }})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(after.Settings.SecretKeys, ",") != "password" {
			t.Fatalf("kept %v", after.Settings.SecretKeys)
		}
		if _, err := s.keys.Get(secretRef(saved.ID, "token")); !errors.Is(err, secrets.ErrNotFound) {
			t.Fatalf("the token is still in the keyring: %v", err)
		}
		if err := s.Remove(ctx, saved.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.keys.Get(secretRef(saved.ID, "password")); !errors.Is(err, secrets.ErrNotFound) {
			t.Fatalf("the password outlived its connection: %v", err)
		}
	})
	t.Run("an edit keeps a saved secret it does not retype, and replaces one it does", func(t *testing.T) {
		s, _ := newStore(t)
		saved, err := s.Add(ctx, conn(), "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Update(ctx, saved.ID, Change{Secrets: map[string]string{"token": "tok-new"}}); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Resolve(ctx, saved.ID)
		if got.Settings.Secret("password") != "pw-secret-1" || got.Settings.Secret("token") != "tok-new" {
			t.Fatalf("secrets are %v", got.Settings.Secrets)
		}
	})
	for _, tc := range []struct {
		name, field string
		edit        func(*Connection)
	}{
		{"a key the description does not name is refused, naming it", "colour", func(c *Connection) { _ = c.Settings.SetValue("colour", "red") }},
		{"a required secret missing is refused at its field", "password", func(c *Connection) { delete(c.Settings.Secrets, "password") }},
		{"an int out of its bounds is refused at its field", "timeout", func(c *Connection) { _ = c.Settings.SetValue("timeout", "99") }},
		{"an enum value not among its options is refused at its field", "mode", func(c *Connection) { _ = c.Settings.SetValue("mode", "append") }},
		{"a required path missing is refused at its field", "path", func(c *Connection) { _ = c.Settings.SetValue("path", "") }},
		{"a secret given for a text field is refused", "mode", func(c *Connection) { c.Settings.SetSecret("mode", "x") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := newStore(t)
			c := conn()
			tc.edit(&c)
			_, err := s.Add(ctx, c, "")
			var de *driver.Error
			if !errors.As(err, &de) || de.Field != tc.field {
				t.Fatalf("err = %v (%#v), want one at field %q", err, de, tc.field)
			}
			if _, err := os.Stat(filepath.Join(dir, "connections.json")); err == nil {
				list, _ := s.List(ctx)
				if len(list) != 0 {
					t.Fatalf("a refused add saved %v", list)
				}
			}
		})
	}
}

// What is saved is exactly what the type describes: each field that applies, trimmed; a field
// that does not apply, and protocol 2's fields a type does not describe, are not saved.
func TestOnlyWhatTheDescriptionAppliesIsSaved(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	c := Connection{Name: "file", Type: "testdb", Settings: driver.Settings{Host: "stray", Port: 9, AuthMethod: driver.AuthNone, SSLMode: driver.SSLRequired}}
	for k, v := range map[string]string{"path": " /tmp/x.db ", "mode": " ro", "timeout": "5"} {
		_ = c.Settings.SetValue(k, v)
	}
	c.Settings.SetSecret("password", "pw")
	saved, err := s.Add(ctx, c, "")
	if err != nil {
		t.Fatal(err)
	}
	got := saved.Settings
	if got.Host != "" || got.Port != 0 || got.AuthMethod != "" || got.SSLMode != "" {
		t.Errorf("fields the type does not describe were saved: %+v", got)
	}
	if got.Value("path") != "/tmp/x.db" || got.Value("mode") != "ro" {
		t.Errorf("the values were not trimmed: %v", got.Values)
	}
	if len(got.SecretKeys) != 1 || got.SecretKeys[0] != "password" {
		t.Errorf("secret keys %v", got.SecretKeys)
	}
	w := Connection{Name: "node", Type: "weaviate", Settings: driver.Settings{Host: "h", Port: 1, SSLMode: driver.SSLDisabled, CAFile: "/tmp/ca.pem",
		Values: map[string]string{}}}
	sw, err := s.Add(ctx, w, "")
	if err != nil {
		t.Fatal(err)
	}
	if sw.Settings.CAFile != "" {
		t.Errorf("the CA file was saved with SSL Mode Disabled, where it does not apply: %+v", sw.Settings)
	}
	if _, err := s.Add(ctx, Connection{Name: "bad", Type: "weaviate", Settings: driver.Settings{Host: "h", Port: 1, Values: map[string]string{"host": "x"}}}, ""); err == nil {
		t.Error("a protocol-2 key inside Values was accepted")
	}
}

// An edit that leaves the settings alone (lower AI rights, a new name) is never refused
// because the type cannot be described now (its plugin uninstalled, the registry away).
func TestAnEditThatKeepsTheSettingsNeedsNoDescription(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	c := Connection{Name: "file", Type: "testdb"}
	_ = c.Settings.SetValue("path", "/tmp/x.db")
	c.Settings.SetSecret("password", "pw")
	saved, err := s.Add(ctx, c, "")
	if err != nil {
		t.Fatal(err)
	}
	s.SetTypes(Described{}) // no type can be described any more
	_, after, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { c.ExternalAccess, c.Name = AccessBlocked, "renamed" }})
	if err != nil || after.ExternalAccess != AccessBlocked || after.Settings.Value("path") != "/tmp/x.db" {
		t.Fatalf("lowering access: %v, %+v", err, after)
	}
	if _, _, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { _ = c.Settings.SetValue("path", "/tmp/y.db") }}); err == nil {
		t.Fatal("a settings change was saved without its type's description")
	}
}
