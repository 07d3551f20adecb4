package connections

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"app/backend/config"
	"app/backend/driver"
	"app/backend/integrity"
	"app/backend/secrets"
)

// The saved connections are kept decoded in memory (config.JSONFile.Cached): these tests
// prove that no change of connections.json is missed for it.

func addLocal(t *testing.T, s *Store, name string) Connection {
	t.Helper()
	c, err := s.Add(context.Background(), Connection{Type: "weaviate", Name: name, Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAChangeByAnotherProgramToConnectionsJSONIsSeenByTheNextGet(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		write func(path string, data []byte) error
	}{
		{"the file replaced whole", config.WriteFileAtomic},
		{"written in place with the same size and modification time", func(path string, data []byte) error {
			st, err := os.Stat(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				return err
			}
			return os.Chtimes(path, st.ModTime(), st.ModTime())
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, dir := newStore(t)
			c := addLocal(t, s, "alpha")
			if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "alpha" {
				t.Fatalf("%+v %v", got, err)
			}
			path := filepath.Join(dir, FileName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Another program renames it, keeping the file's size.
			if err := tc.write(path, []byte(strings.Replace(string(data), `"alpha"`, `"bravo"`, 1))); err != nil {
				t.Fatal(err)
			}
			if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "bravo" {
				t.Fatalf("the next Get gave %+v, %v; want the name bravo", got, err)
			}
			if _, err := s.Get(ctx, "bravo"); err != nil {
				t.Fatalf("by the new name: %v", err)
			}
		})
	}
}

func TestTheAppsOwnWritesToConnectionsAreSeenAtOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	a := addLocal(t, s, "alpha")
	if _, err := s.Get(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	b := addLocal(t, s, "beta")
	if got, err := s.Get(ctx, b.ID); err != nil || got.Name != "beta" {
		t.Fatalf("added: %+v %v", got, err)
	}
	if _, _, err := s.Update(ctx, a.ID, Change{Apply: func(c *Connection) { c.Name = "gamma"; c.ExternalAccess = AccessReadOnly }}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, a.ID); err != nil || got.Name != "gamma" || got.ExternalAccess != AccessReadOnly {
		t.Fatalf("edited: %+v %v", got, err)
	}
	if err := s.Remove(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, b.ID); err == nil {
		t.Fatal("a removed connection is still read")
	}
	if list, err := s.List(ctx); err != nil || len(list) != 1 {
		t.Fatalf("%v %v", list, err)
	}
}

func TestAConnectionReadIsTheCallersOwnCopy(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	c := addLocal(t, s, "alpha")
	got, err := s.Get(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	got.Name = "changed"
	got.Settings.Values = map[string]string{"x": "y"}
	got.Settings.SecretKeys = append(got.Settings.SecretKeys, "x")
	list, _ := s.List(ctx)
	list[0].Settings.Host = "changed"
	again, err := s.Get(ctx, c.ID)
	if err != nil || again.Name != "alpha" || again.Settings.Host != "127.0.0.1" || len(again.Settings.Values) != 0 || len(again.Settings.SecretKeys) != 0 {
		t.Fatalf("a caller's change reached the store: %+v %v", again, err)
	}
}

func TestConcurrentGetsOfSavedConnections(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	c := addLocal(t, s, "alpha")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				got, err := s.Get(ctx, c.ID)
				if err != nil {
					t.Error(err)
					return
				}
				got.Settings.SetSecret("k", "v") // each caller's copy is its own
				if _, err := s.ListVisibleToAI(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 10 {
			name := []string{"alpha", "beta"}[i%2]
			if _, _, err := s.Update(ctx, c.ID, Change{Apply: func(c *Connection) { c.Name = name }}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "beta" {
		t.Fatalf("after the edits: %+v %v", got, err)
	}
}

// Issue 44 with the cache: another program's change to a sealed connections.json takes no
// effect until the person accepts it, and then at once (the file itself unchanged since).
func TestAForeignChangeToSealedConnectionsTakesNoEffectUntilAccepted(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	seal := integrity.New(dir, keys, FileName)
	if err := seal.Start(ctx); err != nil {
		t.Fatal(err)
	}
	s := NewStore(dir, keys, config.Sealed(seal))
	c := addLocal(t, s, "alpha")
	if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "alpha" {
		t.Fatalf("%+v %v", got, err)
	}
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"alpha"`, `"bravo"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "alpha" {
		t.Fatalf("App acts on the foreign change: %+v %v", got, err)
	}
	if _, err := s.Get(ctx, "bravo"); err == nil {
		t.Fatal("the foreign name is read")
	}
	var fe *config.ForeignChangeError
	if _, _, err := s.Update(ctx, c.ID, Change{Apply: func(c *Connection) { c.Name = "gamma" }}); !errors.As(err, &fe) {
		t.Fatalf("a write over the foreign change: %v", err)
	}
	if err := seal.Accept(ctx, FileName); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, c.ID); err != nil || got.Name != "bravo" {
		t.Fatalf("accepted, and the next Get gives %+v %v", got, err)
	}
}
