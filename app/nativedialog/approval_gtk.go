//go:build linux && cgo && (desktop || dev)

package nativedialog

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// appApprovalAnswered is approval_gtk_export.go's: it hands the answer to the asker.
extern void appApprovalAnswered(uintptr_t handle, int yes);

enum { RESPONSE_COPY = 1 };

// approval is one question. Every field is read and written on GTK's main thread only (the
// idle callbacks below), so it needs no lock.
typedef struct {
	uintptr_t handle;
	char *title, *lead, *statement, *prompt;
	GtkWidget *dialog;
	int yes;
} approval;

static approval *approval_new(uintptr_t handle, const char *title, const char *lead, const char *statement, const char *prompt) {
	approval *a = calloc(1, sizeof(approval));
	a->handle = handle;
	a->title = strdup(title);
	a->lead = strdup(lead);
	a->statement = strdup(statement);
	a->prompt = strdup(prompt);
	return a;
}

static void approval_on_response(GtkDialog *d, gint response, gpointer data) {
	approval *a = data;
	if (response == RESPONSE_COPY) {
		GtkClipboard *cb = gtk_clipboard_get(GDK_SELECTION_CLIPBOARD);
		gtk_clipboard_set_text(cb, a->statement, -1);
		GtkWidget *b = gtk_dialog_get_widget_for_response(d, RESPONSE_COPY);
		if (b) gtk_button_set_label(GTK_BUTTON(b), "Copied");
		return;
	}
	a->yes = response == GTK_RESPONSE_YES;
	gtk_widget_destroy(GTK_WIDGET(d));
}

// Whatever ends the dialog (an answer, Escape, the window closing, the asker giving up), its
// destruction is what answers the asker, exactly once.
static void approval_on_destroy(GtkWidget *w, gpointer data) {
	approval *a = data;
	a->dialog = NULL;
	appApprovalAnswered(a->handle, a->yes);
}

static GtkWindow *approval_parent(void) {
	GtkWindow *parent = NULL;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l; l = l->next) {
		GtkWindow *w = l->data;
		if (gtk_widget_get_visible(GTK_WIDGET(w)) && gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL && !GTK_IS_DIALOG(w)) {
			parent = w;
			break;
		}
	}
	g_list_free(tops);
	return parent;
}

static GtkWidget *approval_label(const char *text, gboolean bold) {
	GtkWidget *l = gtk_label_new(NULL);
	if (bold) {
		char *m = g_markup_printf_escaped("<b>%s</b>", text);
		gtk_label_set_markup(GTK_LABEL(l), m);
		g_free(m);
	} else {
		gtk_label_set_text(GTK_LABEL(l), text);
	}
	gtk_label_set_line_wrap(GTK_LABEL(l), TRUE);
	gtk_label_set_max_width_chars(GTK_LABEL(l), 72);
	gtk_label_set_xalign(GTK_LABEL(l), 0);
	return l;
}

static gboolean approval_show(gpointer data) {
	approval *a = data;
	GtkWidget *d = gtk_dialog_new_with_buttons(a->title, approval_parent(),
		GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
		"_Copy statement", RESPONSE_COPY, "_No", GTK_RESPONSE_NO, "_Yes", GTK_RESPONSE_YES, NULL);
	gtk_window_set_default_size(GTK_WINDOW(d), 600, -1);
	GtkWidget *box = gtk_dialog_get_content_area(GTK_DIALOG(d));
	gtk_box_set_spacing(GTK_BOX(box), 10);
	gtk_container_set_border_width(GTK_CONTAINER(box), 12);
	gtk_box_pack_start(GTK_BOX(box), approval_label(a->lead, FALSE), FALSE, FALSE, 0);

	// The statement: selectable, wrapped, in a box that scrolls past 260 px, so a 2,000
	// character statement never pushes Yes and No off the screen.
	GtkWidget *view = gtk_text_view_new();
	gtk_text_view_set_editable(GTK_TEXT_VIEW(view), FALSE);
	gtk_text_view_set_cursor_visible(GTK_TEXT_VIEW(view), FALSE);
	gtk_text_view_set_monospace(GTK_TEXT_VIEW(view), TRUE);
	gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
	gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 6);
	gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 6);
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)), a->statement, -1);
	GtkWidget *scroll = gtk_scrolled_window_new(NULL, NULL);
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_shadow_type(GTK_SCROLLED_WINDOW(scroll), GTK_SHADOW_IN);
	// A wrapped text view's natural height is not known before it has a width, so the box is
	// sized from the statement's lines (wrapped at about 76 characters): up to 14 of them show
	// at once, and the rest scroll.
	int lines = 0, col = 0;
	for (const char *c = a->statement; ; c++) {
		if (*c == '\n' || *c == 0 || col == 76) {
			lines++;
			col = 0;
			if (*c == 0) break;
		} else if ((*c & 0xC0) != 0x80) {
			col++;
		}
	}
	gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroll), 18 * (lines < 3 ? 3 : lines > 14 ? 14 : lines));
	gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroll), 18 * 14);
	gtk_container_add(GTK_CONTAINER(scroll), view);
	gtk_box_pack_start(GTK_BOX(box), scroll, TRUE, TRUE, 0);
	gtk_box_pack_start(GTK_BOX(box), approval_label(a->prompt, TRUE), FALSE, FALSE, 0);

	gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_NO);
	g_signal_connect(d, "response", G_CALLBACK(approval_on_response), a);
	g_signal_connect(d, "destroy", G_CALLBACK(approval_on_destroy), a);
	a->dialog = d;
	gtk_widget_show_all(d);
	gtk_widget_grab_focus(gtk_dialog_get_widget_for_response(GTK_DIALOG(d), GTK_RESPONSE_NO));
	gtk_window_present(GTK_WINDOW(d));
	return G_SOURCE_REMOVE;
}

static gboolean approval_close(gpointer data) {
	approval *a = data;
	if (a->dialog) {
		a->yes = 0;
		gtk_widget_destroy(a->dialog);
	}
	return G_SOURCE_REMOVE;
}

static gboolean approval_free(gpointer data) {
	approval *a = data;
	free(a->title);
	free(a->lead);
	free(a->statement);
	free(a->prompt);
	free(a);
	return G_SOURCE_REMOVE;
}

// The idle callbacks run on GTK's main thread in the order they were added.
static void approval_queue_show(approval *a) { g_idle_add(approval_show, a); }
static void approval_queue_close(approval *a) { g_idle_add(approval_close, a); }
static void approval_queue_free(approval *a) { g_idle_add(approval_free, a); }
*/
import "C"

import (
	"context"
	"runtime/cgo"
	"strings"
	"time"
	"unsafe"

	"app/backend/approval"
)

// approvalDialog is GTK's approval dialog (see Dialogs.Approve): the statement in a
// scrollable box with Copy, Yes and No always on screen, closed when ctx ends. The caller
// holds the dialog turn.
var approvalDialog = func(ctx context.Context, q approval.Question) (bool, error) {
	answer := make(chan bool, 1)
	h := cgo.NewHandle(answer)
	cstr := func(s string) *C.char { return C.CString(strings.ReplaceAll(s, "\x00", " ")) }
	title, lead, stmt, prompt := cstr(q.Title), cstr(q.Lead), cstr(q.Statement), cstr(q.Prompt)
	defer func() {
		for _, p := range []*C.char{title, lead, stmt, prompt} {
			C.free(unsafe.Pointer(p))
		}
	}()
	a := C.approval_new(C.uintptr_t(h), title, lead, stmt, prompt)
	// Freed on the main thread after every callback queued before it has run.
	defer C.approval_queue_free(a)
	C.approval_queue_show(a)
	select {
	case yes := <-answer:
		h.Delete()
		return yes, nil
	case <-ctx.Done():
		C.approval_queue_close(a)
		// The dialog is gone once its destroy answered; a main loop that no longer runs (the
		// app is quitting) answers nothing, so the wait is bounded (and the handle kept for
		// the answer that may yet come).
		select {
		case <-answer:
			h.Delete()
		case <-time.After(5 * time.Second):
		}
		return false, ctx.Err()
	}
}
