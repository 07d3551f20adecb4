package desktop

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
)

// keys gives the window the keyboard and presses keys in it.
func (w *window) keys(ctx context.Context, t *testing.T, keys ...string) {
	t.Helper()
	if err := w.d.Focus(ctx, w.id); err != nil {
		t.Fatal(err)
	}
	if err := w.d.Key(ctx, w.id, keys...); err != nil {
		t.Fatal(err)
	}
}

// paste puts text on the display's clipboard (xclip serves it until the test ends or the
// next paste) and presses Ctrl+V in the window, as a person pastes copied text: what a
// keyboard cannot type (a byte-order mark) arrives as it was copied.
func (w *window) paste(ctx context.Context, t *testing.T, text string) {
	t.Helper()
	if w.clip != nil {
		_ = w.clip.Process.Kill()
		_ = w.clip.Wait()
	}
	w.clip = exec.Command("xclip", "-quiet", "-selection", "clipboard", "-i")
	w.clip.Env = w.d.Env()
	w.clip.Stdin = strings.NewReader(text)
	if err := w.clip.Start(); err != nil {
		t.Fatalf("xclip: %v", err)
	}
	clip := w.clip
	t.Cleanup(func() { _ = clip.Process.Kill(); _ = clip.Wait() })
	// The clipboard holds the text once xclip owns the selection: read it back until it does.
	for {
		cmd := exec.CommandContext(ctx, "xclip", "-selection", "clipboard", "-o")
		cmd.Env = w.d.Env()
		out, _ := cmd.Output()
		if bytes.Equal(out, []byte(text)) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the clipboard never held %q (it holds %q)", text, out)
		case <-time.After(50 * time.Millisecond):
		}
	}
	w.keys(ctx, t, "ctrl+a", "ctrl+v")
}

// Issue 25, item 1: a DELETE pasted into the editor behind an invisible prefix (a byte-order
// mark, a zero-width space, a no-break space, a carriage return), in the class-scoped and the
// ?class= form, asks in the native dialog like any other; No leaves the object on
// weaviate-server, and Yes deletes it. The facade once read the text itself, missed the line
// behind a byte-order mark and ran the delete unasked.
func TestTheEditorAsksNativelyBeforeADeleteBehindAnInvisiblePrefix(t *testing.T) {
	requireWindow(t, weaviatetest.MissingBinary(), harness.MissingTools("xclip"))
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{
		"class": fixtures.Notes, "id": first, "properties": map[string]any{"body": "kept"},
	}, nil); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "Notes node", host: node.Host, port: strconv.Itoa(node.Port)})
	start := filepath.Join(w.art, "editor-start.png")
	if _, err := waitPainted(ctx, w.d, w.id, start); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	w.keys(ctx, t, "Return")
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	if _, err := w.d.FindWindow(tctx, "^Notes node .+ App$", w.exited); err != nil {
		tcancel()
		t.Fatalf("the connection did not open: %v\napp log:\n%s", err, w.logTail())
	}
	tcancel()
	opened := filepath.Join(w.art, "editor-connection.png")
	if _, err := waitPainted(ctx, w.d, w.id, opened); err != nil {
		t.Fatal(err)
	}
	// Ctrl+E on the connection opens its editor, which takes the keyboard.
	w.keys(ctx, t, "ctrl+e")
	if _, err := waitChanged(ctx, w.d, w.id, opened, filepath.Join(w.art, "editor-open.png"), 0.02); err != nil {
		t.Fatalf("the editor did not open: %v\napp log:\n%s", err, w.logTail())
	}

	present := func() bool {
		_, ok := notes(ctx, t, node)[first]
		return ok
	}
	// run pastes line as the editor's only text, runs it with Ctrl+Enter and waits for the
	// native question about it.
	run := func(t *testing.T, line string) string {
		t.Helper()
		w.paste(ctx, t, line)
		w.keys(ctx, t, "ctrl+Return")
		return w.dialog(ctx, t, "^Run a write on ")
	}
	prefixes := []struct{ name, text string }{
		{"a byte-order mark", "\ufeff"}, {"a zero-width space", "\u200b"}, {"a no-break space", "\u00a0"}, {"a carriage return", "\r"},
	}
	forms := []struct{ name, line string }{
		{"class-scoped path", "DELETE /v1/objects/" + fixtures.Notes + "/" + first},
		{"?class= path", "DELETE /v1/objects/" + first + "?class=" + fixtures.Notes},
	}
	for _, p := range prefixes {
		for _, f := range forms {
			t.Run("behind "+p.name+", the "+f.name+" asks natively; No keeps the object", func(t *testing.T) {
				dialog := run(t, p.text+f.line)
				w.press(ctx, t, dialog, "Escape")
				waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
				if !present() {
					t.Fatalf("after No the note %s is gone from the server", first)
				}
			})
		}
	}
	t.Run("behind a byte-order mark, Yes in the native dialog deletes the object", func(t *testing.T) {
		dialog := run(t, "\ufeff"+forms[0].line)
		if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "editor-delete-dialog.png")); err != nil {
			t.Fatal(err)
		}
		w.press(ctx, t, dialog, "alt+y")
		waitClosed(ctx, t, w.d, "^Run a write on ", dialog)
		for present() {
			select {
			case <-ctx.Done():
				t.Fatalf("after Yes the note %s is still on the server\napp log:\n%s", first, w.logTail())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}
