package core

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 44: a path setting is inside the config dir however it is spelled: relative, through
// "..", through a link, in SQLite's URI form, or naming a file not made yet.
func TestAPathIsInsideTheConfigDirHoweverItIsSpelled(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "config")
	other := filepath.Join(root, "data")
	for _, d := range []string{dir, other, filepath.Join(dir, "keyring")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "connections.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(other, "link")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(other); err != nil {
		t.Fatal(err)
	}
	for path, inside := range map[string]bool{
		filepath.Join(dir, "connections.json"):  true,
		dir:                                     true,
		filepath.Join(dir, "keyring", "new.db"): true,
		filepath.Join(dir, "not", "made", "yet.db"):                true,
		filepath.Join(other, "..", "config", "settings.json"):      true,
		"../config/settings.json":                                  true,
		filepath.Join(other, "link", "connections.json"):           true,
		"link/activity/0001.log":                                   true,
		"file:" + filepath.Join(dir, "settings.json") + "?mode=rw": true,
		"file://" + filepath.Join(dir, "x.db"):                     true,
		filepath.Join(other, "lite.db"):                            false,
		"lite.db":                                                  false,
		filepath.Join(root, "config2", "x.db"):                     false,
		filepath.Join(root, "configx.db"):                          false,
	} {
		if got := under(path, dir); got != inside {
			t.Errorf("%s: inside %v, want %v", path, got, inside)
		}
	}
}
