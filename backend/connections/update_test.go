package connections

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/secrets"
)

func cloudConn() Connection {
	return Connection{Type: "weaviate", Name: "cloud", Settings: driver.Settings{Host: "h.example", Port: 443, SSLMode: driver.SSLRequired, AuthMethod: driver.AuthAPIKey}}
}

func keyOf(t *testing.T, s *Store, id string) string {
	t.Helper()
	c, err := s.Resolve(context.Background(), id)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	return c.Settings.APIKey
}

func ptr(s string) *string { return &s }

// Issue 11: the connection form and the CLI edit a connection; only what is changed changes,
// the API key stays in the keyring unless a new one replaces it, and the result is validated
// as a new connection is.
func TestStoreUpdate(t *testing.T) {
	ctx := context.Background()
	t.Run("only what Apply changes is changed, and the API key is kept", func(t *testing.T) {
		s, _ := newStore(t)
		saved, err := s.Add(ctx, cloudConn(), "key-one")
		if err != nil {
			t.Fatal(err)
		}
		before, after, err := s.Update(ctx, "cloud", Change{Apply: func(c *Connection) { c.Settings.Port = 444 }})
		if err != nil {
			t.Fatal(err)
		}
		want := saved
		want.Settings.Port = 444
		if !reflect.DeepEqual(before, saved) || !reflect.DeepEqual(after, want) {
			t.Fatalf("before %+v\nafter %+v\nwant %+v", before, after, want)
		}
		if got, _ := s.Get(ctx, saved.ID); !reflect.DeepEqual(got, want) {
			t.Fatalf("saved %+v", got)
		}
		if keyOf(t, s, saved.ID) != "key-one" {
			t.Fatal("the API key was not kept")
		}
	})
	t.Run("a new API key replaces the old one in the keyring and never reaches the file", func(t *testing.T) {
		s, dir := newStore(t)
		saved, _ := s.Add(ctx, cloudConn(), "key-one")
		if _, _, err := s.Update(ctx, saved.ID, Change{APIKey: ptr("key-two")}); err != nil {
			t.Fatal(err)
		}
		if keyOf(t, s, saved.ID) != "key-two" {
			t.Fatal("the API key was not replaced")
		}
		data, _ := os.ReadFile(filepath.Join(dir, "connections.json"))
		if strings.Contains(string(data), "key-") {
			t.Fatal("an API key reached connections.json")
		}
	})
	t.Run("switching Auth Method to None deletes the saved key", func(t *testing.T) {
		s, _ := newStore(t)
		saved, _ := s.Add(ctx, cloudConn(), "key-one")
		if _, _, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { c.Settings.AuthMethod = driver.AuthNone }}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.keys.Get(apiKeyRef(saved.ID)); !errors.Is(err, secrets.ErrNotFound) {
			t.Fatalf("the old key is still in the keyring: %v", err)
		}
	})
	t.Run("switching Auth Method to API Key with a key saves it", func(t *testing.T) {
		s, _ := newStore(t)
		saved, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
		if _, _, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { c.Settings.AuthMethod = driver.AuthAPIKey }, APIKey: ptr("key-new")}); err != nil {
			t.Fatal(err)
		}
		if keyOf(t, s, saved.ID) != "key-new" {
			t.Fatal("key not saved")
		}
	})
	t.Run("ID and CreatedAt cannot change", func(t *testing.T) {
		s, _ := newStore(t)
		saved, _ := s.Add(ctx, cloudConn(), "k")
		_, after, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { c.ID = "other"; c.CreatedAt = c.CreatedAt.AddDate(-1, 0, 0) }})
		if err != nil {
			t.Fatal(err)
		}
		if after.ID != saved.ID || !after.CreatedAt.Equal(saved.CreatedAt) {
			t.Fatalf("after %+v", after)
		}
	})
	t.Run("an unknown name or ID is ErrNotFound", func(t *testing.T) {
		s, _ := newStore(t)
		if _, _, err := s.Update(ctx, "nobody", Change{}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})

	refused := []struct {
		name string
		ch   Change
	}{
		{"an unknown AI policy is refused", Change{Apply: func(c *Connection) { c.AIPolicy = "whenever" }}},
		{"an unknown external access level is refused", Change{Apply: func(c *Connection) { c.ExternalAccess = "sometimes" }}},
		{"an empty name is refused", Change{Apply: func(c *Connection) { c.Name = " " }}},
		{"a name another connection has is refused", Change{Apply: func(c *Connection) { c.Name = "LOCAL" }}},
		{"an unknown SSL mode is refused", Change{Apply: func(c *Connection) { c.Settings.SSLMode = "Sometimes" }}},
		{"a port out of range is refused", Change{Apply: func(c *Connection) { c.Settings.Port = 70000 }}},
		{"an empty new key is refused", Change{APIKey: ptr("")}},
		{"a new key with Auth Method None is refused", Change{Apply: func(c *Connection) { c.Settings.AuthMethod = driver.AuthNone }, APIKey: ptr("key-two")}},
		{"a refusal by Check saves nothing, not even the new key", Change{Apply: func(c *Connection) { c.AIPolicy = PolicyAlwaysAsk }, APIKey: ptr("key-two"),
			Check: func(_, _ Connection) error { return errors.New("no") }}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t)
			if _, err := s.Add(ctx, Connection{Type: "weaviate", Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, ""); err != nil {
				t.Fatal(err)
			}
			saved, _ := s.Add(ctx, cloudConn(), "key-one")
			if _, _, err := s.Update(ctx, "cloud", tc.ch); err == nil {
				t.Fatal("accepted")
			}
			if got, _ := s.Get(ctx, saved.ID); !reflect.DeepEqual(got, saved) {
				t.Fatalf("a refused edit changed the connection: %+v", got)
			}
			if keyOf(t, s, saved.ID) != "key-one" {
				t.Fatal("a refused edit changed the API key")
			}
		})
	}
	t.Run("Auth Method API Key without any key is refused", func(t *testing.T) {
		s, _ := newStore(t)
		saved, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
		if _, _, err := s.Update(ctx, saved.ID, Change{Apply: func(c *Connection) { c.Settings.AuthMethod = driver.AuthAPIKey }}); err == nil {
			t.Fatal("accepted")
		}
	})
	t.Run("Check sees the saved connection as it is under the lock, not an older copy", func(t *testing.T) {
		s, _ := newStore(t)
		stale, _ := s.Add(ctx, cloudConn(), "k")
		if _, _, err := s.Update(ctx, stale.ID, Change{Apply: func(c *Connection) { c.ExternalAccess = AccessBlocked }}); err != nil {
			t.Fatal(err)
		}
		var seen Connection
		_, _, err := s.Update(ctx, stale.ID, Change{
			Apply: func(c *Connection) { c.AIPolicy = PolicyAlwaysAsk },
			Check: func(before, _ Connection) error { seen = before; return nil },
		})
		if err != nil || seen.ExternalAccess != AccessBlocked {
			t.Fatalf("Check saw %+v (err %v)", seen, err)
		}
	})
	t.Run("a connection saved before AI policies existed reads as askForWrites and can be edited", func(t *testing.T) {
		s, dir := newStore(t)
		old := `[{"id":"0b8c","name":"old","type":"weaviate","settings":{"host":"127.0.0.1","port":8080,"authMethod":"None","sslMode":"Disabled"},"externalAccess":"readOnly","createdAt":"2025-01-02T03:04:05Z"}]`
		if err := os.WriteFile(filepath.Join(dir, "connections.json"), []byte(old), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := s.Get(ctx, "old")
		if err != nil || c.AIPolicy != PolicyAskForWrites || c.ExternalAccess != AccessReadOnly {
			t.Fatalf("got %+v, %v", c, err)
		}
		before, after, err := s.Update(ctx, "old", Change{Apply: func(c *Connection) { c.AIPolicy = PolicyNeverForWrites }})
		if err != nil || before.AIPolicy != PolicyAskForWrites || after.AIPolicy != PolicyNeverForWrites {
			t.Fatalf("before %+v after %+v: %v", before, after, err)
		}
	})
}
