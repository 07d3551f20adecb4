package config

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"
)

// capture is a logger whose output the test reads.
func capture() (*logrus.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	log := logrus.New()
	log.SetOutput(&buf)
	return log, &buf
}

func writeRaw(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// corruptions are the ways a settings or connections file is found broken: a crash or a full
// disk mid-write (truncated, empty), a hand edit or another program (wrong shape, garbage).
var corruptions = []struct {
	name   string
	data   []byte
	reason string // what the error must say about it
}{
	{"truncated JSON", []byte(`{"mcp": {"enabled": true, "port": 23`), "ends early"},
	{"a JSON array instead of an object", []byte(`[{"mcp": {}}]`), "a JSON array where an object is expected"},
	{"binary garbage", []byte{0x00, 0xff, 0x13, 0x37, 0x89, 'P', 'N', 'G', 0x0d, 0x0a}, "invalid JSON at byte 1"},
	{"an empty file", nil, "the file is empty"},
	{"only whitespace", []byte(" \n\t\n"), "the file is empty"},
}

func TestACorruptedSettingsFileIsKeptAndDefaultsAreUsed(t *testing.T) {
	ctx := context.Background()
	for _, tc := range corruptions {
		t.Run("a corrupted settings.json ("+tc.name+") is kept as settings.json.bak and defaults are used", func(t *testing.T) {
			dir := t.TempDir()
			log, logs := capture()
			f := SettingsFile(dir, LogTo(log))
			writeRaw(t, f.Path(), tc.data)

			s, err := f.Load(ctx)
			if err != nil || s != DefaultSettings() {
				t.Fatalf("Load = %+v, %v; want the defaults and no error", s, err)
			}
			bak := f.Path() + ".bak"
			if got := mustRead(t, bak); !bytes.Equal(got, tc.data) {
				t.Fatalf("settings.json.bak holds %q, want the original %q", got, tc.data)
			}
			if st, _ := os.Stat(bak); st.Mode().Perm() != 0o600 {
				t.Fatalf("settings.json.bak mode %v, want 0600", st.Mode().Perm())
			}
			if _, err := os.Stat(f.Path()); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the broken settings.json is still there: %v", err)
			}
			problem := f.Problem()
			var ce *CorruptFileError
			if !errors.As(problem, &ce) || ce.Path != f.Path() || ce.Backup != bak {
				t.Fatalf("Problem() = %v, want a *CorruptFileError naming %s and %s", problem, f.Path(), bak)
			}
			for _, want := range []string{f.Path(), bak, tc.reason} {
				if !strings.Contains(problem.Error(), want) {
					t.Errorf("Problem() %q does not say %q", problem, want)
				}
				if !strings.Contains(logs.String(), want) {
					t.Errorf("the log %q does not say %q", logs, want)
				}
			}
			if !strings.Contains(logs.String(), "level=warning") {
				t.Errorf("the log %q has no warning", logs)
			}
		})
	}
	t.Run("a settings change on a corrupted settings.json keeps the copy first, then saves", func(t *testing.T) {
		dir := t.TempDir()
		log, _ := capture()
		f := SettingsFile(dir, LogTo(log))
		broken := []byte(`{"mcp": {"port": `)
		writeRaw(t, f.Path(), broken)
		if err := SetSetting(ctx, f, "mcp.port", "24000"); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, f.Path()+".bak"); !bytes.Equal(got, broken) {
			t.Fatalf("settings.json.bak holds %q", got)
		}
		s, err := f.Load(ctx)
		want := DefaultSettings()
		want.MCP.Port = 24000
		if err != nil || s != want {
			t.Fatalf("Load = %+v, %v; want the defaults with the change", s, err)
		}
	})
	t.Run("the next read after a recovery is quiet: the log warns once", func(t *testing.T) {
		dir := t.TempDir()
		log, logs := capture()
		f := SettingsFile(dir, LogTo(log))
		writeRaw(t, f.Path(), []byte("{"))
		for i := 0; i < 3; i++ {
			if _, err := f.Load(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := strings.Count(logs.String(), "level=warning"); n != 1 {
			t.Fatalf("%d warnings, want 1:\n%s", n, logs)
		}
	})
}

func TestAnExistingBackupIsNeverOverwritten(t *testing.T) {
	ctx := context.Background()
	t.Run("an existing settings.json.bak is kept and the new copy goes to settings.json.bak.1, then .bak.2", func(t *testing.T) {
		dir := t.TempDir()
		log, logs := capture()
		f := SettingsFile(dir, LogTo(log))
		older := []byte("an older backup the person kept")
		writeRaw(t, f.Path()+".bak", older)
		first, second := []byte(`{"mcp":`), []byte(`[]`)

		writeRaw(t, f.Path(), first)
		if _, err := f.Load(ctx); err != nil {
			t.Fatal(err)
		}
		writeRaw(t, f.Path(), second)
		if _, err := f.Load(ctx); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string][]byte{".bak": older, ".bak.1": first, ".bak.2": second} {
			if got := mustRead(t, f.Path()+name); !bytes.Equal(got, want) {
				t.Errorf("settings.json%s holds %q, want %q", name, got, want)
			}
		}
		if !strings.Contains(logs.String(), f.Path()+".bak.2") {
			t.Errorf("the log does not name settings.json.bak.2:\n%s", logs)
		}
	})
	t.Run("readers racing over one corrupted file keep exactly one copy", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "settings.json")
		broken := []byte(`{"mcp": tru`)
		writeRaw(t, path, broken)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// A JSONFile each, as separate processes would have.
				log, _ := capture()
				if s, err := SettingsFile(dir, LogTo(log)).Load(ctx); err != nil || s != DefaultSettings() {
					errs <- errors.Join(err, errors.New("not the defaults"))
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := mustRead(t, path+".bak"); !bytes.Equal(got, broken) {
			t.Fatalf("settings.json.bak holds %q", got)
		}
		if _, err := os.Stat(path + ".bak.1"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatal("a second copy was made of the same broken file")
		}
	})
}

func TestCorruptFileErrorsNeverQuoteTheContent(t *testing.T) {
	ctx := context.Background()
	// Each is a decoder error whose own message would quote part of the file.
	for _, tc := range []struct {
		name   string
		data   string
		secret string
	}{
		{"an invalid character", `{"mcp": ~q9secret}`, "~"},
		{"an out-of-range number", `{"mcp": {"port": 987654321987654321987654321}}`, "987654321"},
		{"a string where a number belongs", `{"mcp": {"port": "s3cr3t-value"}}`, "s3cr3t"},
	} {
		t.Run("the error and the log for "+tc.name+" name the file but not its content", func(t *testing.T) {
			dir := t.TempDir()
			log, logs := capture()
			f := SettingsFile(dir, LogTo(log))
			writeRaw(t, f.Path(), []byte(tc.data))
			if _, err := f.Load(ctx); err != nil {
				t.Fatal(err)
			}
			msg := f.Problem().Error()
			if !strings.Contains(msg, f.Path()) || !strings.Contains(logs.String(), f.Path()) {
				t.Fatalf("the file is not named: %q\n%s", msg, logs)
			}
			for _, text := range []string{msg, logs.String()} {
				if strings.Contains(text, tc.secret) {
					t.Fatalf("the file's content %q leaked: %s", tc.secret, text)
				}
			}
		})
	}
}

func TestADocumentWithoutRecoveryStillRefusesToLoad(t *testing.T) {
	t.Run("without RecoverCorrupt a corrupted file is an error naming it, and it is left alone", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "mcp-tokens.json")
		broken := []byte(`{"tokens": [`)
		writeRaw(t, path, broken)
		f := NewJSONFile(path, func() map[string]any { return map[string]any{} })
		_, err := f.Load(context.Background())
		var ce *CorruptFileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "fix or remove the file") {
			t.Fatalf("Load err = %v, want one naming %s", err, path)
		}
		err = f.Update(context.Background(), func(*map[string]any) error { return nil })
		if !errors.As(err, &ce) {
			t.Fatalf("Update err = %v, want the same refusal", err)
		}
		if got := mustRead(t, path); !bytes.Equal(got, broken) {
			t.Fatalf("the file changed to %q", got)
		}
		if _, err := os.Stat(path + ".bak"); !errors.Is(err, fs.ErrNotExist) {
			t.Fatal("a backup was made although recovery was not asked for")
		}
	})
}

// permissionCause checks that err is a permission error whose message names path and says
// the cause as the system does ("permission denied", or "operation not permitted" for root on
// an immutable dir).
func permissionCause(t *testing.T, err error, path string) {
	t.Helper()
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("err = %v, want a permission error", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, path) {
		t.Fatalf("err %q does not name %s", msg, path)
	}
	if !strings.Contains(msg, "permission denied") && !strings.Contains(msg, "operation not permitted") {
		t.Fatalf("err %q does not say the cause", msg)
	}
	if strings.Contains(msg, ".tmp") {
		t.Fatalf("err %q names the temp file rather than the file", msg)
	}
}

func TestAReadOnlyConfigDir(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// prepare writes the settings before the dir becomes read-only.
		prepare func(t *testing.T, f *JSONFile[Settings])
	}{
		{"after the app saved settings (the lock file exists)", func(t *testing.T, f *JSONFile[Settings]) {
			if err := SetSetting(ctx, f, "mcp.port", "24001"); err != nil {
				t.Fatal(err)
			}
		}},
		{"when settings.json was never saved by the app (no lock file)", func(t *testing.T, f *JSONFile[Settings]) {
			writeRaw(t, f.Path(), []byte(`{"mcp": {"port": 24001}}`))
		}},
	} {
		t.Run("a settings change fails naming settings.json and the cause and loses nothing, "+tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f := SettingsFile(dir)
			tc.prepare(t, f)
			before := mustRead(t, f.Path())
			ReadOnlyDir(t, dir)

			err := SetSetting(ctx, f, "mcp.port", "24002")
			t.Logf("the error: %v", err)
			permissionCause(t, err, f.Path())
			if got := mustRead(t, f.Path()); !bytes.Equal(got, before) {
				t.Fatalf("settings.json changed to %q", got)
			}
			// The app keeps serving: reads still see the old settings.
			s, err := f.Load(ctx)
			if err != nil || s.MCP.Port != 24001 {
				t.Fatalf("Load after the failed change = %d, %v", s.MCP.Port, err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Fatalf("a temp file was left behind: %s", e.Name())
				}
			}
		})
	}
	t.Run("once the dir is writable again the same file saves", func(t *testing.T) {
		dir := t.TempDir()
		f := SettingsFile(dir)
		if err := SetSetting(ctx, f, "mcp.port", "24001"); err != nil {
			t.Fatal(err)
		}
		t.Run("read-only", func(t *testing.T) {
			ReadOnlyDir(t, dir)
			if err := SetSetting(ctx, f, "mcp.port", "24002"); err == nil {
				t.Fatal("saved into a read-only dir")
			}
		})
		if err := SetSetting(ctx, f, "mcp.port", "24003"); err != nil {
			t.Fatalf("after the dir became writable again: %v", err)
		}
	})
	t.Run("a corrupted settings.json in a read-only dir: the app starts on defaults and never writes over the file", func(t *testing.T) {
		dir := t.TempDir()
		log, logs := capture()
		f := SettingsFile(dir, LogTo(log))
		broken := []byte(`{"mcp": {"port": 1`)
		writeRaw(t, f.Path(), broken)
		// The lock file of an earlier save, so that the change gets as far as the broken file.
		writeRaw(t, f.Path()+".lock", nil)
		ReadOnlyDir(t, dir)

		s, err := f.Load(ctx)
		if err != nil || s != DefaultSettings() {
			t.Fatalf("Load = %+v, %v; want the defaults", s, err)
		}
		if p := f.Problem(); p == nil || !strings.Contains(p.Error(), "no copy of it could be kept") || !strings.Contains(logs.String(), f.Path()) {
			t.Fatalf("Problem() = %v; log:\n%s", p, logs)
		}
		err = SetSetting(ctx, f, "mcp.port", "24004")
		var ce *CorruptFileError
		if !errors.As(err, &ce) || ce.Backup != "" || !strings.Contains(err.Error(), f.Path()) {
			t.Fatalf("SetSetting = %v, want a refusal naming the unreadable file", err)
		}
		if got := mustRead(t, f.Path()); !bytes.Equal(got, broken) {
			t.Fatalf("the broken settings.json was overwritten with %q", got)
		}
	})
}
