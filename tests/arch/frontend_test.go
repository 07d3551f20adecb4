package arch

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// importRE finds a module's imports and re-exports, type-only ones too: a circle of types is
// still a circle a reader has to untie.
var importRE = regexp.MustCompile(`(?m)^\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"`)

// frontendGraph is each frontend source file (tests left out) with the files it imports.
func frontendGraph(t *testing.T, src string) map[string][]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || strings.Contains(p, ".test.") || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) {
			return nil
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(from, spec string) string {
		base := filepath.Join(filepath.Dir(from), spec)
		for _, c := range []string{base + ".ts", base + ".tsx", filepath.Join(base, "index.ts"), filepath.Join(base, "index.tsx")} {
			if _, ok := files[c]; ok {
				return c
			}
		}
		return ""
	}
	g := map[string][]string{}
	for p, text := range files {
		g[p] = nil
		for _, m := range importRE.FindAllStringSubmatch(text, -1) {
			if d := resolve(p, m[1]); d != "" {
				g[p] = append(g[p], d)
			}
		}
	}
	return g
}

// circles are the graph's strongly connected parts of more than one file (Tarjan).
func circles(g map[string][]string) [][]string {
	index, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
	var stack []string
	var out [][]string
	n := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range g[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var part []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				part = append(part, w)
				if w == v {
					break
				}
			}
			if len(part) > 1 {
				slices.Sort(part)
				out = append(out, part)
			}
		}
	}
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, seen := index[k]; !seen {
			visit(k)
		}
	}
	return out
}

// Issue 43, item 6: no circle of imports in the frontend (the keymaps' six-file circle is
// gone: the overlay's Shortcut type lives with the keymap rows, which import nothing back).
func TestTheFrontendHasNoImportCircle(t *testing.T) {
	g := frontendGraph(t, filepath.Join("..", "..", "frontend", "src"))
	if len(g) < 100 {
		t.Fatalf("read %d frontend files: the tree moved", len(g))
	}
	for _, c := range circles(g) {
		t.Errorf("an import circle of %d files: %s", len(c), strings.Join(c, " -> "))
	}
}

// The check can fail: a planted circle of three files is found, type-only imports too.
func TestACircleIsFound(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.ts": `import { b } from "./b";` + "\n", "b.ts": `import type { C } from "./c";` + "\n",
		"c.ts": `export { a } from "./a";` + "\n", "d.ts": `import { a } from "./a";` + "\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := circles(frontendGraph(t, dir))
	if len(got) != 1 || len(got[0]) != 3 {
		t.Fatalf("found %v", got)
	}
}
