package config

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ReadOnlyDir makes dir read-only until the test ends, as a config dir on a volume remounted
// read-only, or whose mode a person changed, would be while the app runs. It is exported for
// the tests of package config_test; test files are not part of the package's API.
func ReadOnlyDir(t *testing.T, dir string) {
	t.Helper()
	switch {
	case runtime.GOOS == "windows":
		t.Skip("on Windows a dir's read-only attribute does not stop creating files in it")
	case os.Geteuid() == 0:
		rootReadOnly(t, dir)
	default:
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
	}
	// Prove the fault is real, or the tests built on it would pass for the wrong reason.
	probe := filepath.Join(dir, ".probe")
	if f, err := os.Create(probe); err == nil {
		f.Close()
		_ = os.Remove(probe)
		t.Fatalf("%s is still writable after being made read-only", dir)
	}
}
