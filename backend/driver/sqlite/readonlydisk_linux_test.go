//go:build linux

package sqlite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/internal/testkit/sqlitecli"
	"app/internal/testkit/testenv"
)

// Issue 39, item 1: a file on a read-only disk opens read-write without complaint (SQLite
// reads it), and a write says the file cannot be written, nothing changed. The disk is a tmpfs
// mounted for the test and then made read-only (root can write any file, but no file on a
// read-only mount): make test runs as root.
func TestAFileOnAReadOnlyDiskIsReadAndNotWritten(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	if out, err := exec.CommandContext(ctx, "mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err != nil {
		testenv.Require(t, "a tmpfs mounted for the test (make test runs as root): "+strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "shop.db")
	if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'kept')"); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.CommandContext(ctx, "mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe"), nil, 0o600); err == nil {
		t.Fatal("the disk is not read-only")
	}
	for _, boundary := range []bool{false, true} {
		d := open(ctx, t, driver.Settings{Values: map[string]string{"path": path, "access": "read-write"}}, boundary)
		if n, err := d.Count(ctx, "t", nil); err != nil || n != 1 {
			t.Fatalf("boundary %v: the file counts %d, %v", boundary, n, err)
		}
		res, err := d.Update(ctx, "t", []driver.Row{{Key: driver.Key{"id": "1"}, Values: map[string]any{"v": "changed"}}})
		if err == nil && len(res) == 1 && res[0].Status == driver.RowOK {
			t.Fatalf("boundary %v: a write on a read-only disk was reported written", boundary)
		}
		said := ""
		if err != nil {
			said = err.Error()
		} else if len(res) == 1 {
			said = res[0].Message
		}
		if !strings.Contains(said, "cannot be written") {
			t.Fatalf("boundary %v: the write says %q", boundary, said)
		}
	}
	if got, err := sqlitecli.Run(ctx, path, "SELECT v FROM t"); err != nil || got != "kept" {
		t.Fatalf("sqlite3 reads %q, %v", got, err)
	}
}
