package desktop

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// first is the uuid of the note that exists before the window opens: the smallest uuid, so
// the REST page (ordered by uuid) lists it first whatever uuid the added row gets.
const first = "00000000-0000-4000-8000-000000000000"

// notes reads the Note objects weaviate-server holds: uuid -> body.
func notes(ctx context.Context, t *testing.T, node *weaviatenode.Node) map[string]string {
	t.Helper()
	var page struct {
		Objects []struct {
			ID         string `json:"id"`
			Properties struct {
				Body string `json:"body"`
			} `json:"properties"`
		} `json:"objects"`
	}
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+fixtures.Notes+"&limit=100", nil, &page); err != nil {
		t.Fatalf("read the notes: %v", err)
	}
	out := map[string]string{}
	for _, o := range page.Objects {
		out[o.ID] = o.Properties.Body
	}
	return out
}

// Issue 14: add and delete a row in the real window, the deletion's native dialog answered
// No (nothing deleted) and Yes (deleted), each checked on weaviate-server itself.
func TestGridAddsAndDeletesRowsInTheRealWindow(t *testing.T) {
	requireWindow(t, weaviatetest.MissingBinary())
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{
		"class": fixtures.Notes, "id": first, "properties": map[string]any{"body": "to delete"},
	}, nil); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "Notes node", host: node.Host, port: strconv.Itoa(node.Port)})
	shot := filepath.Join(w.art, "grid-start.png")
	if _, err := waitPainted(ctx, w.d, w.id, shot); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	keys := func(t *testing.T, k ...string) {
		t.Helper()
		if err := w.d.Focus(ctx, w.id); err != nil {
			t.Fatal(err)
		}
		if err := w.d.Key(ctx, w.id, k...); err != nil {
			t.Fatal(err)
		}
	}
	// waitFor polls weaviate-server until cond holds on its notes.
	waitFor := func(t *testing.T, what string, cond func(map[string]string) bool) map[string]string {
		t.Helper()
		for {
			got := notes(ctx, t, node)
			if cond(got) {
				return got
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: the notes are %v\napp log:\n%s", what, got, w.logTail())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	// typeText types text into the window as a keyboard would.
	typeText := func(t *testing.T, text string) {
		t.Helper()
		typed := exec.CommandContext(ctx, "xdotool", "type", "--window", w.id, "--clearmodifiers", text)
		typed.Env = w.d.Env()
		if out, err := typed.CombinedOutput(); err != nil {
			t.Fatalf("xdotool type: %v: %s", err, out)
		}
	}
	// titled waits until the window's title matches re: the window names the open table once
	// its rows are on screen ("Note — App"), with a leading "●" while it has pending changes.
	titled := func(t *testing.T, re string) {
		t.Helper()
		tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
		defer tcancel()
		if _, err := w.d.FindWindow(tctx, re, w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
	}
	// The title as regular expressions over bytes (xdotool matches bytes; "—" and "●" are
	// several bytes of UTF-8).
	clean := "^" + fixtures.Notes + " .+ App$"
	pending := "^.+ " + fixtures.Notes + " .+ App$"

	// answer waits for the grid's deletion dialog and presses key in it.
	answer := func(t *testing.T, key string) {
		t.Helper()
		dialog := w.dialog(ctx, t, "^Delete 1 row from "+fixtures.Notes+"$")
		if key == "alt+y" {
			if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "grid-delete-dialog.png")); err != nil {
				t.Fatal(err)
			}
		}
		w.press(ctx, t, dialog, key)
		waitClosed(ctx, t, w.d, "^Delete 1 row from ", "")
	}

	t.Run("Enter opens the connection, ArrowDown and Enter the table, whose grid takes the keyboard", func(t *testing.T) {
		keys(t, "Return")
		// The window names the connection once it is open and its tables are in the tree.
		titled(t, "^Notes node .+ App$")
		keys(t, "Down", "Return")
		titled(t, clean)
		if err := w.d.Screenshot(ctx, w.id, filepath.Join(w.art, "grid-table.png")); err != nil {
			t.Fatal(err)
		}
	})

	var added string
	t.Run("Alt+Insert adds a row, typing fills it, and Ctrl+S writes it (POST) with no question", func(t *testing.T) {
		keys(t, "alt+Insert", "Return")
		typeText(t, "from the window")
		keys(t, "Return")
		titled(t, pending)
		keys(t, "ctrl+s")
		got := waitFor(t, "after Ctrl+S the added row is not on the server", func(n map[string]string) bool { return len(n) == 2 })
		// The commit's outcome is in the grid once the pending marker leaves the title.
		titled(t, clean)
		for id, body := range got {
			if id != first {
				added = id
				if body != "from the window" {
					t.Fatalf("the added row's body is %q, want what was typed", body)
				}
			}
		}
	})

	t.Run("Ctrl+Delete marks the first row; Ctrl+S asks natively how many, and No deletes nothing", func(t *testing.T) {
		// The first row is the note that was there before, on the page before the commit's
		// re-read as after it.
		keys(t, "ctrl+Home", "ctrl+Delete")
		titled(t, pending)
		keys(t, "ctrl+s")
		answer(t, "Escape")
		if got := notes(ctx, t, node); len(got) != 2 || got[first] != "to delete" {
			t.Fatalf("after No the notes are %v, want both", got)
		}
	})

	t.Run("Ctrl+S again and Yes deletes that row, and only it", func(t *testing.T) {
		keys(t, "ctrl+s")
		answer(t, "alt+y")
		got := waitFor(t, "after Yes the row is still on the server", func(n map[string]string) bool { _, ok := n[first]; return !ok })
		if len(got) != 1 || got[added] != "from the window" {
			t.Fatalf("after Yes the notes are %v, want only the added one", got)
		}
		// The commit has ended in the window once its pending marker leaves the title.
		titled(t, clean)
	})

	t.Run("quitting with a change not yet written asks natively: No keeps the window, Yes quits", func(t *testing.T) {
		// A new row, not an edit of a row on the page: the page is read again after the
		// delete, and an edit typed into a row that read drops would not stay pending.
		keys(t, "alt+Insert", "Return")
		typeText(t, "unwritten")
		keys(t, "Return")
		titled(t, pending)
		quit := func(key string) {
			t.Helper()
			// SIGTERM is how a session ends an app; Wails turns it into the window's quit.
			if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			w.press(ctx, t, w.dialog(ctx, t, "^Quit App$"), key)
		}
		quit("Escape")
		waitClosed(ctx, t, w.d, "^Quit App$", "")
		select {
		case <-w.exited:
			t.Fatal("the app quit although the dialog answered No")
		default:
		}
		titled(t, pending)
		quit("alt+y")
		select {
		case <-w.exited:
		case <-time.After(30 * time.Second):
			t.Fatal("the app did not quit after Yes")
		}
		if got := notes(ctx, t, node); len(got) != 1 || got[added] != "from the window" {
			t.Fatalf("after quitting the notes are %v: the unwritten change must not be written", got)
		}
	})
}
