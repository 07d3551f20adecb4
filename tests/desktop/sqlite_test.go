package desktop

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/sqlitecli"
	"app/tests/desktop/harness"
)

// Issue 39 in the real window (WebKitGTK under Xvfb), through the SQLite plugin alone: a saved
// SQLite connection opens from the keyboard and lists the file's tables, a table opens with
// its grid, and a write typed in the SQL editor asks in the native dialog first — No changes
// nothing, Yes writes the file — each outcome read back with sqlite3.
func TestASQLiteFileInTheRealWindow(t *testing.T) {
	requireWindow(t, harness.MissingTools("xclip", "sqlite3"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "shop.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 40) INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM r;
CREATE VIRTUAL TABLE embeddings USING vec0(e float[4])`); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "Shop file", plugin: pluginpub.SQLite,
		flags: []string{"--type", "sqlite", "--set", "path=" + path}})
	start := filepath.Join(w.art, "sqlite-window-start.png")
	if _, err := waitPainted(ctx, w.d, w.id, start); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	title := func(t *testing.T) string {
		t.Helper()
		out, err := sqlitecli.Run(ctx, path, "SELECT title FROM items WHERE id = 1")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	opened := filepath.Join(w.art, "sqlite-window-tables.png")
	t.Run("Enter opens the connection and lists the file's tables", func(t *testing.T) {
		w.keys(ctx, t, "Return")
		if _, err := w.d.FindWindow(ctx, "^Shop file .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if _, err := waitChanged(ctx, w.d, w.id, start, opened, 0.01); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
	})
	grid := filepath.Join(w.art, "sqlite-window-items.png")
	t.Run("the second table (items, after the vec0 table) opens with its grid", func(t *testing.T) {
		w.keys(ctx, t, "Down", "Down", "Return")
		if _, err := w.d.FindWindow(ctx, "^items .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if _, err := waitChanged(ctx, w.d, w.id, opened, grid, 0.05); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
	})
	t.Run("a write in the SQL editor asks natively: No changes nothing, Yes writes the file", func(t *testing.T) {
		w.keys(ctx, t, "ctrl+e")
		if _, err := waitChanged(ctx, w.d, w.id, grid, filepath.Join(w.art, "sqlite-window-editor.png"), 0.02); err != nil {
			t.Fatalf("the editor did not open: %v\napp log:\n%s", err, w.logTail())
		}
		w.paste(ctx, t, "UPDATE items SET title = 'from the window' WHERE id = 1")
		w.keys(ctx, t, "ctrl+Return")
		dialog := w.dialog(ctx, t, "^Run a write on ")
		w.press(ctx, t, dialog, "Escape")
		waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
		if got := title(t); got != "item 1" {
			t.Fatalf("after No sqlite3 reads %q", got)
		}
		w.keys(ctx, t, "ctrl+Return")
		dialog = w.dialog(ctx, t, "^Run a write on ")
		if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "sqlite-window-write-dialog.png")); err != nil {
			t.Fatal(err)
		}
		w.press(ctx, t, dialog, "alt+y")
		waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
		for title(t) != "from the window" {
			select {
			case <-ctx.Done():
				t.Fatalf("after Yes sqlite3 reads %q\napp log:\n%s", title(t), w.logTail())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}
