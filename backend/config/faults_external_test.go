package config_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/secrets"
)

// These tests drive the real connections store, so that the rules proved on JSONFile are
// proved where connections.json is used (package connections opts in to the recovery).

func connStore(t *testing.T, dir string, opts ...config.FileOption) *connections.Store {
	t.Helper()
	// The keyring lives outside dir, so that a read-only dir tests connections.json alone.
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return connections.NewStore(dir, keys, opts...)
}

func local(name string, port int) connections.Connection {
	return connections.Connection{Type: "weaviate", Name: name, Settings: driver.Settings{Host: "127.0.0.1", Port: port}}
}

func TestACorruptedConnectionsFileIsKeptAndTheListStartsEmpty(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, data string }{
		{"truncated JSON", `[{"id":"a1","name":"prod","type":"weaviate","settings":{"host":"db.internal","po`},
		{"a JSON object instead of an array", `{"connections": []}`},
		{"binary garbage", "\x00\x01\xfe\xffconnections\x7f"},
		{"an empty file", ""},
	} {
		t.Run("a corrupted connections.json ("+tc.name+") is kept as connections.json.bak and the list is empty", func(t *testing.T) {
			dir := t.TempDir()
			var logs bytes.Buffer
			log := logrus.New()
			log.SetOutput(&logs)
			s := connStore(t, dir, config.LogTo(log))
			path := filepath.Join(dir, "connections.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			list, err := s.List(ctx)
			if err != nil || len(list) != 0 {
				t.Fatalf("List = %v, %v; want an empty list", list, err)
			}
			if got, _ := os.ReadFile(path + ".bak"); string(got) != tc.data {
				t.Fatalf("connections.json.bak holds %q, want the original", got)
			}
			if p := s.Problem(); p == nil || !strings.Contains(p.Error(), path) || !strings.Contains(logs.String(), path) {
				t.Fatalf("Problem() = %v; log:\n%s", p, logs.String())
			}
			// The app goes on: a new connection saves next to the kept copy.
			if _, err := s.Add(ctx, local("fresh", 8080), ""); err != nil {
				t.Fatal(err)
			}
			if list, _ := s.List(ctx); len(list) != 1 || list[0].Name != "fresh" {
				t.Fatalf("List after Add = %+v", list)
			}
			if got, _ := os.ReadFile(path + ".bak"); string(got) != tc.data {
				t.Fatalf("the save changed connections.json.bak to %q", got)
			}
		})
	}
}

func TestAConnectionSaveInAReadOnlyConfigDir(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		save func(*connections.Store) error
	}{
		{"adding", func(s *connections.Store) error { _, err := s.Add(ctx, local("second", 8081), ""); return err }},
		{"editing", func(s *connections.Store) error {
			_, _, err := s.Update(ctx, "first", connections.Change{Apply: func(c *connections.Connection) { c.Settings.Port = 9090 }})
			return err
		}},
		{"removing", func(s *connections.Store) error { return s.Remove(ctx, "first") }},
	} {
		t.Run(tc.name+" a connection fails naming connections.json and the cause, and the saved list is intact", func(t *testing.T) {
			dir := t.TempDir()
			s := connStore(t, dir)
			if _, err := s.Add(ctx, local("first", 8080), ""); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "connections.json")
			before, _ := os.ReadFile(path)
			config.ReadOnlyDir(t, dir)

			err := tc.save(s)
			t.Logf("the error: %v", err)
			if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want a permission error naming %s", err, path)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatalf("connections.json changed to %q", after)
			}
			list, err := s.List(ctx)
			if err != nil || len(list) != 1 || list[0].Name != "first" || list[0].Settings.Port != 8080 {
				t.Fatalf("List after the failed save = %+v, %v", list, err)
			}
		})
	}
}
