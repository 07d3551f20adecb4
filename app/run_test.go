package app

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// The facades list is the one list Bind and startup take: one entry per UI area, each of its
// own type, and each area's bound methods are exactly those of its generated binding
// (frontend/wailsjs/go/app/<Type>.d.ts), so a method the window no longer calls is removed from
// both, and nothing of the shared wiring (base) is bound.
func TestFacadesAreTheBoundAreasWithTheirGeneratedMethods(t *testing.T) {
	fn := regexp.MustCompile(`export function (\w+)\(`)
	seen := map[reflect.Type]bool{}
	for _, f := range facades() {
		typ := reflect.TypeOf(f)
		if seen[typ] {
			t.Fatalf("%v is listed twice", typ)
		}
		seen[typ] = true
		var methods []string
		for i := range typ.NumMethod() {
			methods = append(methods, typ.Method(i).Name)
		}
		name := typ.Elem().Name()
		data, err := os.ReadFile(filepath.Join("..", "frontend", "wailsjs", "go", "app", name+".d.ts"))
		if err != nil {
			t.Fatalf("%s has no generated binding: %v", name, err)
		}
		var bound []string
		for _, m := range fn.FindAllSubmatch(data, -1) {
			bound = append(bound, string(m[1]))
		}
		slices.Sort(bound)
		if !slices.Equal(methods, bound) {
			t.Errorf("%s binds %v; its generated binding has %v (run wails generate module)", name, methods, bound)
		}
	}
	if got := len(bind(facades())); got != len(seen) {
		t.Fatalf("bind gives %d structs for %d areas", got, len(seen))
	}
}

// holdsOpen is an area whose unsaved work keeps the window open while open is true.
type holdsOpen struct {
	ExplorerAPI
	open bool
}

func (h *holdsOpen) beforeClose(context.Context) bool { return h.open }

// One SIGTERM reaches Wails' handler and quitOnSignals at once, and each quit that
// OnBeforeClose lets through calls gtk_main_quit: only the first of quits arriving together
// may pass, or the second races the window's destroy (the app crashed with SIGSEGV). A quit
// held back by unsaved work lets a later one through.
func TestOnlyOneQuitReachesTheWindowHoweverManyArriveTogether(t *testing.T) {
	var g quitGate
	area := &holdsOpen{open: true}
	before := g.stayOpen([]facade{area})
	if !before(context.Background()) {
		t.Fatal("a quit was let through while unsaved work held the window open")
	}
	area.open = false
	const quits = 16
	var wg sync.WaitGroup
	var passed atomic.Int32
	start := make(chan struct{})
	for range quits {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if !before(context.Background()) {
				passed.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if got := passed.Load(); got != 1 {
		t.Fatalf("%d of %d quits arriving together were let through, want 1", got, quits)
	}
	if !before(context.Background()) {
		t.Fatal("a quit after the window's quit was let through again")
	}
}
