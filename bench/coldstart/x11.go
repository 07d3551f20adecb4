package main

// The probe talks to the X server itself (Xlib through cgo) rather than through xdotool and
// ImageMagick: a process per key press or screenshot costs tens of milliseconds on this machine,
// more than the resolution the bench needs, and CPU the measured app would miss. libX11 and its
// headers come with the GTK headers Wails builds against (scripts/ensure-desktop-deps.sh).

/*
#cgo pkg-config: x11
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <stdlib.h>
#include <string.h>

// A window that goes away between two calls is no reason to exit (Xlib's default handler).
static int cs_ignore(Display *d, XErrorEvent *e) { return 0; }

static Display *cs_open(const char *name) {
	XSetErrorHandler(cs_ignore);
	return XOpenDisplay(name);
}

// cs_find returns the topmost viewable top-level window titled title (WM_NAME), else 0. There
// is no window manager on the bench's Xvfb, so the app's window is a child of the root.
static Window cs_find(Display *d, const char *title, int *w, int *h) {
	Window root = DefaultRootWindow(d), r, p, *kids = NULL, found = 0;
	unsigned int n = 0;
	if (!XQueryTree(d, root, &r, &p, &kids, &n)) return 0;
	for (int i = (int)n - 1; i >= 0 && !found; i--) {
		XWindowAttributes a;
		if (!XGetWindowAttributes(d, kids[i], &a) || a.map_state != IsViewable) continue;
		char *name = NULL;
		if (XFetchName(d, kids[i], &name) && name) {
			if (strcmp(name, title) == 0) {
				found = kids[i];
				*w = a.width;
				*h = a.height;
			}
			XFree(name);
		}
	}
	if (kids) XFree(kids);
	return found;
}

static void cs_focus(Display *d, Window w) {
	XSetInputFocus(d, w, RevertToParent, CurrentTime);
	XFlush(d);
}

// cs_key presses and releases the key on the keyboard as XTEST does (`xdotool key`): the
// focused window gets it as from a real keyboard. GTK takes keys through XInput2, which events
// sent with XSendEvent do not reach. libXtst is opened at run time (it comes with xdotool) so
// that building the bench needs no more headers than Wails does.
typedef int (*fake_key_fn)(Display *, unsigned int, int, unsigned long);
static fake_key_fn cs_fake_key;

static int cs_xtest(void) {
	void *h = dlopen("libXtst.so.6", RTLD_NOW);
	if (!h) return 0;
	cs_fake_key = (fake_key_fn)dlsym(h, "XTestFakeKeyEvent");
	return cs_fake_key != NULL;
}

static void cs_key(Display *d, KeySym ks) {
	unsigned int code = XKeysymToKeycode(d, ks);
	cs_fake_key(d, code, True, 0);
	cs_fake_key(d, code, False, 0);
	XFlush(d);
}

// cs_grab copies the w x h pixels at (x, y) of the window into out as 0xRRGGBB; 0 on failure
// (the window not viewable, or smaller than asked).
static int cs_grab(Display *d, Window win, int x, int y, int w, int h, unsigned int *out) {
	XImage *img = XGetImage(d, win, x, y, w, h, AllPlanes, ZPixmap);
	if (!img) return 0;
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			out[j * w + i] = (unsigned int)(XGetPixel(img, i, j) & 0xffffff);
	XDestroyImage(img);
	return 1;
}

static void cs_close(Display *d) { XCloseDisplay(d); }
*/
import "C"

import (
	"errors"
	"image"
	"image/color"
	"unsafe"
)

// xconn is one connection to the bench's X display.
type xconn struct{ d *C.Display }

func openX(display string) (*xconn, error) {
	name := C.CString(display)
	defer C.free(unsafe.Pointer(name))
	d := C.cs_open(name)
	if d == nil {
		return nil, errors.New("cannot open X display " + display)
	}
	if C.cs_xtest() == 0 {
		C.cs_close(d)
		return nil, errors.New("cannot load libXtst.so.6 (it comes with xdotool: scripts/ensure-desktop-deps.sh)")
	}
	return &xconn{d}, nil
}

func (x *xconn) close() { C.cs_close(x.d) }

// find returns the viewable top-level window titled title and its size, or 0.
func (x *xconn) find(title string) (win uint64, w, h int) {
	t := C.CString(title)
	defer C.free(unsafe.Pointer(t))
	var cw, ch C.int
	id := C.cs_find(x.d, t, &cw, &ch)
	return uint64(id), int(cw), int(ch)
}

func (x *xconn) focus(win uint64) { C.cs_focus(x.d, C.Window(win)) }

// keyEnd presses and releases End on the keyboard (the focused window takes it).
func (x *xconn) keyEnd() { C.cs_key(x.d, C.XK_End) }

// grab returns the pixels of r in the window (0xRRGGBB, row by row), or nil.
func (x *xconn) grab(win uint64, r image.Rectangle) []uint32 {
	out := make([]uint32, r.Dx()*r.Dy())
	if len(out) == 0 {
		return nil
	}
	ok := C.cs_grab(x.d, C.Window(win), C.int(r.Min.X), C.int(r.Min.Y), C.int(r.Dx()), C.int(r.Dy()), (*C.uint)(unsafe.Pointer(&out[0])))
	if ok == 0 {
		return nil
	}
	return out
}

// toImage makes a picture of grabbed pixels, for the artifacts a person can look at.
func toImage(px []uint32, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i, p := range px {
		img.Set(i%w, i/w, color.RGBA{uint8(p >> 16), uint8(p >> 8), uint8(p), 255})
	}
	return img
}
