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

func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(dir, keys)
	s.SetTypes(Described{driver.ProtocolTwoDescription("weaviate"), testDescription()})
	return s, dir
}

// testDescription is a type with a setting of each kind beyond protocol 2's and two secrets.
func testDescription() driver.Description {
	return driver.Description{
		Types: []driver.ConnectionType{{Name: "testdb", Label: "Test DB"}},
		Settings: []driver.SettingField{
			{Key: "path", Label: "File", Kind: driver.FieldPath, Required: true},
			{Key: "mode", Label: "Mode", Kind: driver.FieldEnum, Options: []string{"ro", "rw"}, Default: "ro"},
			{Key: "timeout", Label: "Timeout", Kind: driver.FieldInt, Min: 1, Max: 60},
			{Key: "wal", Label: "WAL", Kind: driver.FieldBool},
			{Key: "password", Label: "Password", Kind: driver.FieldSecret, Required: true},
			{Key: "token", Label: "Token", Kind: driver.FieldSecret, ShowWhen: &driver.Condition{Key: "mode", In: []string{"rw"}}},
		},
		Address: []string{"path"},
	}
}

func TestStore(t *testing.T) {
	ctx := context.Background()
	t.Run("a new connection starts on port 8080, SSL Disabled, Auth None", func(t *testing.T) {
		s, _ := newStore(t)
		c, err := s.Add(ctx, Connection{Type: "weaviate", Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
		if err != nil {
			t.Fatal(err)
		}
		if c.Settings.SSLMode != driver.SSLDisabled || c.Settings.AuthMethod != driver.AuthNone || c.Type != "weaviate" || c.ID == "" {
			t.Fatalf("got %+v", c)
		}
	})
	t.Run("contract 3: a connection without a type is refused, naming where the types are listed", func(t *testing.T) {
		s, _ := newStore(t)
		if _, err := s.Add(ctx, Connection{Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, ""); err == nil || !strings.Contains(err.Error(), "app connection types") {
			t.Fatalf("%v", err)
		}
		if list, _ := s.List(ctx); len(list) != 0 {
			t.Fatalf("saved %v", list)
		}
	})
	t.Run("a new connection gets external access readWrite and AI policy askForWrites", func(t *testing.T) {
		s, _ := newStore(t)
		c, err := s.Add(ctx, Connection{Type: "weaviate", Name: "local", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
		if err != nil {
			t.Fatal(err)
		}
		if c.ExternalAccess != AccessReadWrite || c.AIPolicy != PolicyAskForWrites {
			t.Fatalf("got %q/%q", c.ExternalAccess, c.AIPolicy)
		}
	})
	t.Run("the API key is in the keyring, never in the connections file", func(t *testing.T) {
		s, dir := newStore(t)
		c, err := s.Add(ctx, Connection{Type: "weaviate", Name: "cloud", Settings: driver.Settings{Host: "x.example", Port: 443, AuthMethod: driver.AuthAPIKey, SSLMode: driver.SSLRequired}}, "super-secret-key")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "connections.json"))
		if strings.Contains(string(data), "super-secret-key") {
			t.Fatal("API key written to connections.json")
		}
		r, err := s.Resolve(ctx, c.ID)
		if err != nil || r.Settings.APIKey != "super-secret-key" {
			t.Fatalf("resolve: %v", err)
		}
		if err := s.Remove(ctx, "cloud"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, c.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("after remove: %v", err)
		}
	})
	for _, tc := range []struct {
		name string
		c    Connection
		key  string
	}{
		{"API Key auth without a key is refused", Connection{Type: "weaviate", Name: "a", Settings: driver.Settings{Host: "h", Port: 1, AuthMethod: driver.AuthAPIKey}}, ""},
		{"an unknown SSL mode is refused", Connection{Type: "weaviate", Name: "a", Settings: driver.Settings{Host: "h", Port: 1, SSLMode: "Sometimes"}}, ""},
		{"a missing host is refused", Connection{Type: "weaviate", Name: "a", Settings: driver.Settings{Port: 1}}, ""},
		{"a missing name is refused", Connection{Settings: driver.Settings{Host: "h", Port: 1}}, ""},
		{"an unknown type is refused", Connection{Name: "a", Type: "oracle", Settings: driver.Settings{Host: "h", Port: 1}}, ""},
		{"an unknown external access level is refused", Connection{Type: "weaviate", Name: "a", ExternalAccess: "sometimes", Settings: driver.Settings{Host: "h", Port: 1}}, ""},
		{"an unknown AI policy is refused", Connection{Type: "weaviate", Name: "a", AIPolicy: "whenever", Settings: driver.Settings{Host: "h", Port: 1}}, ""},
		{"an API key with Auth Method None is refused", Connection{Type: "weaviate", Name: "a", Settings: driver.Settings{Host: "h", Port: 1}}, "stray-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t)
			if _, err := s.Add(ctx, tc.c, tc.key); err == nil {
				t.Fatal("accepted")
			}
			list, _ := s.List(ctx)
			if len(list) != 0 {
				t.Fatalf("a refused add saved %d connections", len(list))
			}
		})
	}
	t.Run("two connections cannot share a name", func(t *testing.T) {
		s, _ := newStore(t)
		c := Connection{Type: "weaviate", Name: "dup", Settings: driver.Settings{Host: "h", Port: 1}}
		if _, err := s.Add(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Add(ctx, Connection{Type: "weaviate", Name: "DUP", Settings: c.Settings}, ""); err == nil {
			t.Fatal("duplicate name accepted")
		}
	})
}

// Design card: a connection whose external access is blocked is invisible to AI clients;
// ListVisibleToAI is the one list they get, without credentials.
func TestListVisibleToAI(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	for _, c := range []Connection{
		{Type: "weaviate", Name: "open", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}},
		{Type: "weaviate", Name: "read-only", ExternalAccess: AccessReadOnly, Settings: driver.Settings{Host: "127.0.0.1", Port: 8081}},
		{Type: "weaviate", Name: "blocked", ExternalAccess: AccessBlocked, Settings: driver.Settings{Host: "127.0.0.1", Port: 8082}},
	} {
		if _, err := s.Add(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListVisibleToAI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name)
		if c.ID == "" || c.Type != "weaviate" || c.Host != "127.0.0.1" {
			t.Fatalf("%+v", c)
		}
	}
	if strings.Join(names, ",") != "open,read-only" {
		t.Fatalf("visible: %v", names)
	}
}
