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
