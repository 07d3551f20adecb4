// Package arch checks which way the project's imports run (issue 43: no import runs back
// up), with `go list`, the same facts the Go toolchain builds from.
package arch

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list is every package of the module with its direct imports and all its dependencies
// (production code only: test files are not listed).
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "app/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var all []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.ImportPath, "/node_modules/") {
			all = append(all, p)
		}
	}
	if len(all) < 60 {
		t.Fatalf("only %d packages listed", len(all))
	}
	return all
}

func under(path, prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+"/") }

// Each rule: the packages it is about, and what none of them may depend on.
func TestImportsRunOneWay(t *testing.T) {
	all := list(t)
	rules := []struct {
		rule   string
		about  func(string) bool
		banned func(string) bool
	}{
		{"nothing in backend/ depends on the window's facade, the command line or a test rig",
			func(p string) bool { return under(p, "app/backend") },
			func(d string) bool {
				return under(d, "app/app") || under(d, "app/internal/cli") || under(d, "app/internal/testkit")
			}},
		{"the driver contract depends on no other package of the app",
			func(p string) bool { return p == "app/backend/driver" },
			func(d string) bool { return strings.HasPrefix(d, "app/") }},
		{"the MCP protocol core depends on no feature built on it",
			func(p string) bool { return under(p, "app/backend/mcp") },
			func(d string) bool { return under(d, "app/backend/mcpfeatures") || under(d, "app/backend/core") }},
		{"the window's DTOs depend on no facade",
			func(p string) bool { return under(p, "app/app/dto") },
			func(d string) bool { return d == "app/app" }},
		{"only tests, benches, the MCP peers' fixtures and the demo loader depend on a test rig",
			func(p string) bool {
				return !under(p, "app/internal/testkit") && !under(p, "app/tests") && !under(p, "app/bench") &&
					!under(p, "app/interop") && p != "app/cmd/weaviate-demo"
			},
			func(d string) bool { return under(d, "app/internal/testkit") }},
		{"the app never links the Weaviate driver (only its plugin does)",
			func(p string) bool { return p == "app" || under(p, "app/app") || under(p, "app/internal/cli") },
			func(d string) bool { return under(d, "app/backend/driver/weaviate") }},
	}
	for _, r := range rules {
		t.Run(r.rule, func(t *testing.T) {
			checked := 0
			for _, p := range all {
				if !r.about(p.ImportPath) {
					continue
				}
				checked++
				for _, d := range p.Deps {
					if r.banned(d) {
						t.Errorf("%s depends on %s", p.ImportPath, d)
					}
				}
			}
			if checked == 0 {
				t.Fatal("the rule is about no package: the tree moved")
			}
		})
	}
}
