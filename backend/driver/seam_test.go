package driver_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 19, item 1: the Weaviate dialect lives behind the driver contract. No host package
// (everything but the driver and the programs and test rigs made for Weaviate itself) imports
// a GraphQL parser or Weaviate's own packages, names GraphQL in its code, or reads REST lines:
// the host routes on driver.Classification.Form and asks the driver for everything else. Prose
// (comments, the text an AI client reads) may name the database's language; code may not.
func TestNoHostPackageSpeaksTheWeaviateDialect(t *testing.T) {
	root := moduleRoot(t)
	// Not host: the driver, its plugin program, the demo loader, and the test rigs that
	// start and fill a real weaviate-server.
	notHost := []string{"backend/driver/weaviate/", "cmd/weaviate-driver/", "cmd/weaviate-demo/", "internal/", "tests/", "bench/", "interop/", "frontend/", "build/", ".git/"}
	banned := []struct {
		rule string
		re   *regexp.Regexp
	}{
		{"names GraphQL", regexp.MustCompile(`(?i)graphql|\bgql`)},
		// Capabilities.RESTLines (the contract's flag) is allowed; a reader of one line is not.
		{"reads REST lines", regexp.MustCompile(`(?i)(is|parse|read|split|classify)_?rest|rest_?line$`)},
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		for _, p := range notHost {
			if strings.HasPrefix(rel+"/", p) || strings.HasPrefix(rel, p) {
				if e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if e.IsDir() || !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "gqlparser") || strings.Contains(p, "graphql") || strings.HasPrefix(p, "github.com/weaviate/") {
				t.Errorf("%s imports %s: the Weaviate dialect belongs in backend/driver/weaviate", rel, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				for _, b := range banned {
					if b.re.MatchString(x.Name) {
						t.Errorf("%s %s: the identifier %s (ask the driver: Classify's Form, Execute, Search)", rel, b.rule, x.Name)
					}
				}
			case *ast.BasicLit:
				// A statement's path is the driver's to read: no host code matches API paths.
				if x.Kind == token.STRING && strings.HasPrefix(strings.Trim(x.Value, "\"`"), "/v1") {
					t.Errorf("%s reads REST lines: the literal %s", rel, x.Value)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d host files were read: the walk missed the tree", files)
	}
}

// The guard can fail: code that names GraphQL or reads a REST line is caught.
func TestTheDialectGuardCatchesWhatItLooksFor(t *testing.T) {
	src := `package x
func isRESTLine(s string) bool { return len(s) > 0 && s[:4] == "/v1/" }
type graphQLQuery string`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var idents, paths []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if regexp.MustCompile(`(?i)graphql|\bgql|(is|parse|read|split|classify)_?rest|rest_?line$`).MatchString(x.Name) {
				idents = append(idents, x.Name)
			}
		case *ast.BasicLit:
			if strings.HasPrefix(strings.Trim(x.Value, "\"`"), "/v1") {
				paths = append(paths, x.Value)
			}
		}
		return true
	})
	if strings.Join(idents, ",") != "isRESTLine,graphQLQuery" || len(paths) != 1 {
		t.Fatalf("caught %v and %v", idents, paths)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// dialectLine is a code line that names Weaviate's dialect: the database's name, its query
// language, its REST paths or its search modes. Comments are prose and are not read.
var dialectLine = regexp.MustCompile(`(?i)weaviate|graphql|_additional|/v1/|\bbm25\b|neartext|nearvector|nearobject|relativescore|rankedfusion`)

// dialectLines counts, per file, the code lines of host code that name the dialect: non-test
// Go outside the driver, the programs (cmd/), the registry publisher that packs each plugin
// (internal/pluginpub) and the test rigs (generated code left out), and the frontend's
// sources outside a driver's folder (src/drivers/<name>/) and its tests.
func dialectLines(t *testing.T, root string) map[string]int {
	t.Helper()
	notHost := []string{"backend/driver/weaviate/", "cmd/", "internal/testkit/", "internal/pluginpub/", "tests/", "bench/", "interop/", "tools/", "build/", ".git/", "node_modules/", "frontend/wailsjs/", "frontend/dist/", "frontend/src/test/", "frontend/src/drivers/"}
	out := map[string]int{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		for _, p := range notHost {
			if strings.HasPrefix(rel+"/", p) || strings.Contains(rel+"/", "/node_modules/") {
				if e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		goFile := strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") && !strings.HasPrefix(rel, "frontend/")
		tsFile := strings.HasPrefix(rel, "frontend/src/") && (strings.HasSuffix(rel, ".ts") || strings.HasSuffix(rel, ".tsx")) && !strings.Contains(rel, ".test.")
		if e.IsDir() || (!goFile && !tsFile) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if goFile && strings.Contains(string(b), "\n// Code generated ") || strings.HasPrefix(string(b), "// Code generated ") {
			return nil
		}
		for _, line := range strings.Split(string(b), "\n") {
			s := strings.TrimSpace(line)
			if strings.HasPrefix(s, "//") || strings.HasPrefix(s, "/*") || strings.HasPrefix(s, "*") {
				continue
			}
			if dialectLine.MatchString(s) {
				out[rel]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 37, item 8, done when: host code names none of Weaviate's dialect. The guard reads
// the Go and the frontend; the dialect lives in backend/driver/weaviate, the plugin's program
// and the frontend's driver folder (frontend/src/drivers/weaviate: the grammar a plugin cannot
// ship), and every other line that named it now takes the driver's words through the
// contract (search modes, the editor's language, the words for AI clients).
func TestHostCodeNamesNoneOfTheDialect(t *testing.T) {
	got := dialectLines(t, moduleRoot(t))
	for f, n := range got {
		if n == dialectKept[f] {
			continue
		}
		t.Errorf("%s names Weaviate's dialect on %d code lines: the dialect belongs to the driver (its words cross the contract)", f, n)
	}
}

// dialectKept is the one line kept on purpose: `app connection add` without --type is a
// Weaviate connection, as every command written before types were described meant (its
// named flags are protocol 2's fields). The store itself requires a type.
var dialectKept = map[string]int{"internal/cli/connection.go": 1}

// The guard can fail: a planted TypeScript line and Go line that name the dialect are counted,
// a comment is not, and a test file or the driver's folder is not host code.
func TestTheDialectCountCatchesAPlantedLine(t *testing.T) {
	root := t.TempDir()
	plant := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plant("frontend/src/components/x/Panel.tsx", "// Weaviate in a comment\nconst q = `{ Get { A { _additional { id } } } }`;\n")
	plant("frontend/src/components/x/Panel.test.tsx", "const q = 'bm25';\n")
	plant("backend/x/x.go", "package x\n\n// GraphQL in prose\nconst mode = \"nearText\"\n")
	plant("backend/driver/weaviate/y.go", "package weaviate\nconst p = \"/v1/schema\"\n")
	got := dialectLines(t, root)
	if len(got) != 2 || got["frontend/src/components/x/Panel.tsx"] != 1 || got["backend/x/x.go"] != 1 {
		t.Fatalf("counted %v", got)
	}
}
