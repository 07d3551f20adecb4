package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileKeyring(t *testing.T) {
	t.Run("a secret set is read back and deleted", func(t *testing.T) {
		dir := t.TempDir()
		k, err := Open(Options{Backend: "file", Password: "pw", Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Set("connection/1/apiKey", "s3cret"); err != nil {
			t.Fatal(err)
		}
		got, err := k.Get("connection/1/apiKey")
		if err != nil || got != "s3cret" {
			t.Fatalf("got %q, %v", got, err)
		}
		if err := k.Delete("connection/1/apiKey"); err != nil {
			t.Fatal(err)
		}
		if _, err := k.Get("connection/1/apiKey"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := k.Delete("connection/1/apiKey"); err != nil {
			t.Fatalf("deleting a missing secret: %v", err)
		}
	})
	t.Run("the secret is not stored in clear text", func(t *testing.T) {
		dir := t.TempDir()
		k, _ := Open(Options{Backend: "file", Password: "pw", Dir: dir})
		_ = k.Set("k", "plain-secret-value")
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			if strings.Contains(string(data), "plain-secret-value") {
				t.Fatalf("%s holds the secret in clear text", e.Name())
			}
		}
	})
	t.Run("a wrong password is one clear sentence naming the fix", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Open(Options{Backend: "file", Password: "right", Dir: dir}); err != nil {
			t.Fatal(err)
		}
		_, err := Open(Options{Backend: "file", Password: "wrong", Dir: dir})
		if err == nil || !strings.Contains(err.Error(), "does not open") || !strings.Contains(err.Error(), EnvPassword) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the file backend without a password names the variable", func(t *testing.T) {
		_, err := Open(Options{Backend: "file", Dir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), EnvPassword) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("an unknown backend lists the known ones", func(t *testing.T) {
		_, err := Open(Options{Backend: "floppy"})
		if err == nil || !strings.Contains(err.Error(), "file, keyctl") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestLazyKeyring(t *testing.T) {
	t.Run("nothing is opened until a secret is used", func(t *testing.T) {
		opened := 0
		k := Lazy(func() (Keyring, error) {
			opened++
			return Open(Options{Backend: "file", Password: "p", Dir: t.TempDir()})
		})
		if opened != 0 {
			t.Fatal("opened eagerly")
		}
		_ = k.Set("a", "b")
		_, _ = k.Get("a")
		if opened != 1 {
			t.Fatalf("opened %d times", opened)
		}
	})
	t.Run("an open error reaches every call", func(t *testing.T) {
		k := Lazy(func() (Keyring, error) { return nil, errors.New("boom") })
		if _, err := k.Get("a"); err == nil {
			t.Fatal("no error")
		}
	})
}
