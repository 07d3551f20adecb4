// Package sqlitecli is the SQLite driver's tests' own reader and writer: Debian's sqlite3
// program with sqlite-vec's loadable extension (the npm package pinned in vec/, the same
// sqlite-vec release as the driver's build), never the driver under test. make test's set-up
// installs both (apt's sqlite3, npm ci in vec/).
package sqlitecli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"app/internal/testkit/testenv"
)

// Dir is the npm project of sqlite-vec's extension.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "vec")
}

// Extension is sqlite-vec's loadable extension, without its suffix (as .load takes it).
func Extension() string {
	return filepath.Join(Dir(), "node_modules", "sqlite-vec-linux-x64", "vec0")
}

// Check says what is missing for Run, or nil.
func Check() error {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		return fmt.Errorf("the sqlite3 program (Debian's package) is not installed: run make test's set-up")
	}
	if _, err := os.Stat(Extension() + ".so"); err != nil {
		return fmt.Errorf("sqlite-vec's extension is not installed: run make test's set-up (npm ci in %s)", Dir())
	}
	return nil
}

// Run runs sql on the file at path (made when missing) with sqlite-vec loaded, stopping at the
// first error, and returns what it printed: rows one a line, columns separated by "|", NULL
// as "NULL".
func Run(ctx context.Context, path, sql string) (string, error) {
	if err := Check(); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "sqlite3", "-bail", "-batch", "-noheader", "-nullvalue", "NULL", "-cmd", ".load "+Extension(), path)
	cmd.Stdin = strings.NewReader(sql + ";\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("sqlite3 %q: %w: %s", firstLine(sql), err, strings.TrimSpace(errb.String()))
	}
	if s := strings.TrimSpace(errb.String()); s != "" {
		return "", fmt.Errorf("sqlite3 %q: %s", firstLine(sql), s)
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// Require makes a test that reads or writes files with sqlite3 wait for make test's set-up:
// skipped, saying what is missing, without it (a plain go test, make check); failed under
// make test, whose set-up installs both.
func Require(t testing.TB) {
	t.Helper()
	if err := Check(); err != nil {
		testenv.Require(t, err.Error())
	}
}
