package config

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestResolveDir(t *testing.T) {
	t.Run("flag wins over APP_CONFIG_DIR", func(t *testing.T) {
		flagDir, envDir := t.TempDir(), t.TempDir()
		t.Setenv(EnvConfigDir, envDir)
		got, err := ResolveDir(filepath.Join(flagDir, "x"))
		if err != nil || got != filepath.Join(flagDir, "x") {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("APP_CONFIG_DIR is used without a flag", func(t *testing.T) {
		envDir := filepath.Join(t.TempDir(), "env")
		t.Setenv(EnvConfigDir, envDir)
		got, err := ResolveDir("")
		if err != nil || got != envDir {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("without either the user config dir/App is used", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv(EnvConfigDir, "")
		t.Setenv("XDG_CONFIG_HOME", home)
		got, err := ResolveDir("")
		if err != nil || got != filepath.Join(home, "App") {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("the dir is 0700", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "c")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := ResolveDir(dir); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(dir)
		if st.Mode().Perm() != 0o700 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
	})
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	t.Run("a new install has the defaults", func(t *testing.T) {
		f := SettingsFile(t.TempDir())
		s, err := f.Load(ctx)
		if err != nil || s != DefaultSettings() {
			t.Fatalf("got %+v, %v", s, err)
		}
	})
	t.Run("set then get a boolean key", func(t *testing.T) {
		f := SettingsFile(t.TempDir())
		if err := SetSetting(ctx, f, "mcp.requireAuth", "true"); err != nil {
			t.Fatal(err)
		}
		v, err := GetSetting(ctx, f, "mcp.requireAuth")
		if err != nil || v != true {
			t.Fatalf("got %v, %v", v, err)
		}
		st, _ := os.Stat(f.Path())
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("settings file mode %v, want 0600", st.Mode().Perm())
		}
	})
	for _, tc := range []struct{ name, key, value string }{
		{"an unknown key is refused", "mcp.nope", "1"},
		{"a section is not a value", "mcp", "1"},
		{"a boolean key refuses a word", "mcp.enabled", "yes please"},
		{"a number key refuses text", "mcp.port", "eighty"},
		{"a port above 65535 is refused", "mcp.port", "70000"},
		{"a row limit above 10000 is refused", "mcp.maxRowLimit", "10001"},
		{"a plugin registry that is no http, https or file URL is refused", "plugins.registry", "ftp://127.0.0.1/index.json"},
		{"a plugin registry key that is no ed25519 key is refused", "plugins.registryKey", "ed25519:bm90IGEga2V5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := SettingsFile(t.TempDir())
			if err := SetSetting(ctx, f, tc.key, tc.value); err == nil {
				t.Fatalf("SetSetting(%s, %s) succeeded", tc.key, tc.value)
			}
			s, _ := f.Load(ctx)
			if s != DefaultSettings() {
				t.Fatalf("a refused set changed the file: %+v", s)
			}
		})
	}
	t.Run("plugins.registry and plugins.registryKey take a URL and a public key", func(t *testing.T) {
		f := SettingsFile(t.TempDir())
		const key = "ed25519:8lKr3MHpf8wA6yTkxE4jsNQWDM3BmiA7ABYJHuO/sLE="
		if err := SetSetting(ctx, f, "plugins.registry", "http://127.0.0.1:9/index.json"); err != nil {
			t.Fatal(err)
		}
		if err := SetSetting(ctx, f, "plugins.registryKey", key); err != nil {
			t.Fatal(err)
		}
		s, err := f.Load(ctx)
		if err != nil || s.Plugins.Registry != "http://127.0.0.1:9/index.json" || s.Plugins.RegistryKey != key {
			t.Fatalf("got %+v, %v", s.Plugins, err)
		}
	})
	t.Run("a corrupt file is reported with its path", func(t *testing.T) {
		dir := t.TempDir()
		log, _ := capture()
		f := SettingsFile(dir, LogTo(log))
		_ = os.WriteFile(f.Path(), []byte("{nope"), 0o600)
		// Issue 25: the app starts on the defaults; the file is kept and named (faults_test.go).
		if _, err := f.Load(ctx); err != nil || f.Problem() == nil || !strings.Contains(f.Problem().Error(), f.Path()) {
			t.Fatalf("Load: %v; Problem: %v", err, f.Problem())
		}
	})
}

// TestJSONFileConcurrentWriters proves that read-modify-write cycles from several processes
// lose no update: each child process increments a counter many times.
func TestJSONFileConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	const procs, rounds = 3, 40
	var wg sync.WaitGroup
	errs := make(chan error, procs+1)
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "CONFIG_TEST_CHILD="+dir, "CONFIG_TEST_ROUNDS="+strconv.Itoa(rounds))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("child: %v: %s", err, out)
			}
		}()
	}
	// The parent writes too, from goroutines, to cover in-process contention.
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := increment(dir, rounds); err != nil {
			errs <- err
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	f := NewJSONFile(filepath.Join(dir, "counter.json"), func() map[string]int { return map[string]int{} })
	v, err := f.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v["n"] != (procs+1)*rounds {
		t.Fatalf("counter = %d, want %d: an update was lost", v["n"], (procs+1)*rounds)
	}
}

// TestMain doubles as the child process of TestJSONFileConcurrentWriters: re-running the test
// binary gives real separate processes contending for the lock.
func TestMain(m *testing.M) {
	if dir := os.Getenv("CONFIG_TEST_CHILD"); dir != "" {
		n, _ := strconv.Atoi(os.Getenv("CONFIG_TEST_ROUNDS"))
		if err := increment(dir, n); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func increment(dir string, n int) error {
	f := NewJSONFile(filepath.Join(dir, "counter.json"), func() map[string]int { return map[string]int{} })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := 0; i < n; i++ {
		if err := f.Update(ctx, func(m *map[string]int) error { (*m)["n"]++; return nil }); err != nil {
			return err
		}
	}
	return nil
}

func TestHandshake(t *testing.T) {
	t.Run("written 0600 and read back", func(t *testing.T) {
		dir := t.TempDir()
		h := Handshake{Version: "1", Port: 1234, PID: os.Getpid(), InstanceID: "i", ProtocolVersion: "2026-07-28", StartedAt: time.Now().UTC().Truncate(time.Second)}
		if err := WriteHandshake(dir, h); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(HandshakePath(dir))
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode().Perm())
		}
		got, err := ReadHandshake(dir)
		if err != nil || got.Port != 1234 || got.ProtocolVersion != "2026-07-28" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("an exiting instance leaves another instance's file alone", func(t *testing.T) {
		dir := t.TempDir()
		_ = WriteHandshake(dir, Handshake{Port: 1, PID: os.Getpid() + 1})
		if err := RemoveHandshake(dir, os.Getpid()); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(HandshakePath(dir)); err != nil {
			t.Fatal("another instance's handshake file was removed")
		}
		if err := RemoveHandshake(dir, os.Getpid()+1); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(HandshakePath(dir)); !os.IsNotExist(err) {
			t.Fatal("own handshake file was not removed")
		}
	})
}

// A running app notices every CLI write, also two within one step of the file system's clock:
// each write replaces the file, so its stamp (inode, time, size) changes even when the time
// does not.
func TestStampChangesOnEveryWrite(t *testing.T) {
	ctx := context.Background()
	f := SettingsFile(t.TempDir())
	missing := f.Stamp()
	if !missing.Same(f.Stamp()) {
		t.Fatal("two stamps of a missing file differ")
	}
	prev := missing
	for i := 0; i < 20; i++ {
		port := 20000 + i
		if err := f.Update(ctx, func(s *Settings) error { s.MCP.Port = port; return nil }); err != nil {
			t.Fatal(err)
		}
		cur := f.Stamp()
		if cur.Same(prev) {
			t.Fatalf("write %d left the stamp unchanged", i)
		}
		if !cur.Same(f.Stamp()) {
			t.Fatal("the same version gave two stamps")
		}
		prev = cur
	}
}
