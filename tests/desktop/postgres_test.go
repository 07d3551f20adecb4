package desktop

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/pgnode"
	"app/tests/desktop/harness"
)

// Issue 38 in the real window (WebKitGTK under Xvfb), through the PostgreSQL plugin alone: a
// saved PostgreSQL connection opens from the keyboard and lists its tables, a table opens
// with its grid, and a write typed in the SQL editor asks in the native dialog first — No
// changes nothing, Yes writes it — each outcome read back with psql.
func TestAPostgresConnectionInTheRealWindow(t *testing.T) {
	requireWindow(t, harness.MissingTools("xclip"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if _, err := n.Psql(ctx, "", `CREATE TABLE public.items (id bigint PRIMARY KEY, title text NOT NULL, price numeric(10,2));
INSERT INTO public.items SELECT i, 'item ' || i, i * 1.5 FROM generate_series(1, 40) i;
CREATE VIEW public.cheap AS SELECT id, title FROM public.items WHERE price < 10`); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "Shop PG", plugin: pluginpub.Postgres, env: []string{"PGPW=" + n.Password},
		flags: []string{"--type", "postgres", "--url", fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", n.User, n.Host, n.Port, n.Database), "--secret-env", "password=PGPW"}})
	start := filepath.Join(w.art, "pg-window-start.png")
	if _, err := waitPainted(ctx, w.d, w.id, start); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	title := func(t *testing.T) string {
		t.Helper()
		out, err := n.Psql(ctx, "", "SELECT title FROM public.items WHERE id = 1")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	opened := filepath.Join(w.art, "pg-window-tables.png")
	t.Run("Enter opens the connection and lists its tables", func(t *testing.T) {
		w.keys(ctx, t, "Return")
		if _, err := w.d.FindWindow(ctx, "^Shop PG .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if _, err := waitChanged(ctx, w.d, w.id, start, opened, 0.01); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
	})
	grid := filepath.Join(w.art, "pg-window-items.png")
	t.Run("the second table (public.items, after the view) opens with its grid", func(t *testing.T) {
		w.keys(ctx, t, "Down", "Down", "Return")
		if _, err := w.d.FindWindow(ctx, "^public.items .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if _, err := waitChanged(ctx, w.d, w.id, opened, grid, 0.05); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
	})
	t.Run("a write in the SQL editor asks natively: No changes nothing, Yes writes it", func(t *testing.T) {
		w.keys(ctx, t, "ctrl+e")
		if _, err := waitChanged(ctx, w.d, w.id, grid, filepath.Join(w.art, "pg-window-editor.png"), 0.02); err != nil {
			t.Fatalf("the editor did not open: %v\napp log:\n%s", err, w.logTail())
		}
		w.paste(ctx, t, "UPDATE public.items SET title = 'from the window' WHERE id = 1")
		w.keys(ctx, t, "ctrl+Return")
		dialog := w.dialog(ctx, t, "^Run a write on ")
		w.press(ctx, t, dialog, "Escape")
		waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
		if got := title(t); got != "item 1" {
			t.Fatalf("after No psql reads %q", got)
		}
		w.keys(ctx, t, "ctrl+Return")
		dialog = w.dialog(ctx, t, "^Run a write on ")
		if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "pg-window-write-dialog.png")); err != nil {
			t.Fatal(err)
		}
		w.press(ctx, t, dialog, "alt+y")
		waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
		for title(t) != "from the window" {
			select {
			case <-ctx.Done():
				t.Fatalf("after Yes psql reads %q\napp log:\n%s", title(t), w.logTail())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}
