package driver_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"app/backend/driver"
)

// kindConstants parses errors.go and returns the name and value of every
// constant declared with type Kind, so the test does not depend on Kinds().
func kindConstants(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			typ, ok := vs.Type.(*ast.Ident)
			if !ok || typ.Name != "Kind" {
				continue
			}
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					t.Fatalf("Kind constant %s has no value of its own", name.Name)
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("Kind constant %s is not a string literal", name.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				consts[name.Name] = v
			}
		}
	}
	return consts
}

func TestKindsListsEveryKindConstant(t *testing.T) {
	consts := kindConstants(t)
	if len(consts) == 0 {
		t.Fatal("no Kind constants found in errors.go")
	}
	kinds := driver.Kinds()
	for name, v := range consts {
		t.Run("constant "+name+" is in Kinds()", func(t *testing.T) {
			if !slices.Contains(kinds, driver.Kind(v)) {
				t.Fatalf("%s (%q) is missing from driver.Kinds()", name, v)
			}
		})
	}
	t.Run("Kinds() holds only declared constants, each once", func(t *testing.T) {
		values := map[string]bool{}
		for _, v := range consts {
			values[v] = true
		}
		seen := map[driver.Kind]bool{}
		for _, k := range kinds {
			if !values[string(k)] {
				t.Errorf("Kinds() lists %q, which is no Kind constant in errors.go", k)
			}
			if seen[k] {
				t.Errorf("Kinds() lists %q twice", k)
			}
			seen[k] = true
		}
		if len(kinds) != len(consts) {
			t.Errorf("Kinds() has %d entries, errors.go declares %d Kind constants", len(kinds), len(consts))
		}
	})
	t.Run("every kind's errors keep that kind through KindOf", func(t *testing.T) {
		for _, k := range kinds {
			if got := driver.KindOf(driver.Errorf(k, "x")); got != k {
				t.Errorf("KindOf(Errorf(%q)) = %q", k, got)
			}
		}
	})
}

// Issue 25: a write cut after its requests went out says its rows may or may not be written;
// one that stopped before sending anything says they were not.
func TestMayHaveWritten(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"no error: nothing to say", nil, false},
		{"the plugin process died (connection)", driver.Errorf(driver.KindConnection, "the driver plugin stopped"), true},
		{"a time limit passed", driver.Errorf(driver.KindTimeout, "timed out"), true},
		{"cancelled while writing", context.Canceled, true},
		{"the server failed after the request went out", errors.New("EOF"), true},
		{"an unknown table stops before sending", driver.Errorf(driver.KindNotFound, "no table X"), false},
		{"a refused argument stops before sending", driver.Errorf(driver.KindInvalidArgument, "bad uuid"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := driver.MayHaveWritten(c.err); got != c.want {
				t.Fatalf("MayHaveWritten(%v) = %v, want %v", c.err, got, c.want)
			}
		})
	}
}

// Issue 37, item 4: a refused filter is built in one place for every driver, its column,
// operator and reason set beside the sentence; the kinds newer than protocol 2 name the
// older kind a protocol-2 peer reads.
func TestRefusedFilterCarriesWhatItConcerns(t *testing.T) {
	e := driver.RefusedFilter(driver.Filter{Column: "price", Operator: driver.OpGreater, Value: "x"}, "x is not a number")
	if e.Kind != driver.KindRefusedFilter || e.Column != "price" || e.Operator != driver.OpGreater || e.Reason != "x is not a number" ||
		e.Error() != "the filter price greater than cannot run: x is not a number" {
		t.Fatalf("%+v", e)
	}
	for _, k := range driver.Kinds() {
		p2 := driver.Protocol2Kind(k)
		if !driver.KnownKind(p2) || (p2 != k) != (k == driver.KindNotPermitted || k == driver.KindInactiveTenant || k == driver.KindConflict) {
			t.Errorf("%s: protocol 2 reads %s", k, p2)
		}
	}
	if driver.KnownKind("nonsense") {
		t.Fatal("an unknown kind is known")
	}
}
