package app

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
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
