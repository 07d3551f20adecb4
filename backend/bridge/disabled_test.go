package bridge

import (
	"bytes"
	"context"
	"os"
	"testing"

	"app/backend/config"
)

// The MCP setting is asked at every request, so it must cost a stat, not a read: the file is
// read again only when its version (inode, time, size) changed, and every write of the app or
// the CLI (a whole new file) is seen at the next request.
func TestTheMCPSettingIsReadAgainOnlyWhenTheFileChanged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	m := newMCPSetting(dir)
	if m.Off(ctx) {
		t.Fatal("no settings file: MCP is on by default")
	}
	setMCP(t, dir, false)
	if !m.Off(ctx) {
		t.Fatal("turned off: not seen")
	}
	path := config.SettingsFile(dir).Path()
	t.Run("a file whose version did not change is not read", func(t *testing.T) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Rewritten in place (same inode), same size, its time put back: the same version to
		// a stat. Were it read, it would say on.
		on := bytes.Replace(data, []byte(`"enabled": false`), []byte(`"enabled": true `), 1)
		if bytes.Equal(on, data) {
			t.Fatalf("no mcp.enabled in %s", data)
		}
		if err := os.WriteFile(path, on, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if !m.Off(ctx) {
			t.Fatal("the file was read again though its version did not change")
		}
	})
	t.Run("each write of the setting is seen at the next ask", func(t *testing.T) {
		for i, on := range []bool{true, false, true} {
			setMCP(t, dir, on)
			if m.Off(ctx) == on {
				t.Fatalf("write %d (on=%v) not seen", i, on)
			}
		}
	})
	t.Run("a file that is not JSON counts as on, and is left where it is", func(t *testing.T) {
		if err := config.WriteFileAtomic(path, []byte("{not json")); err != nil {
			t.Fatal(err)
		}
		if m.Off(ctx) {
			t.Fatal("an unreadable file turned MCP off")
		}
		if data, err := os.ReadFile(path); err != nil || string(data) != "{not json" {
			t.Fatalf("the bridge moved or changed the file: %q %v", data, err)
		}
	})
}
