package auth

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"app/backend/mcp"
)

// Issue 11 "Tokens and principals": all levels have tools:read and resources:read; write
// tools need a write scope that readWrite and fullAccess hold; admin tools need fullAccess.
// REFERENCE.md (TablePro): readOnly = tools:read resources:read; readWrite adds tools:write;
// fullAccess adds admin.
func TestLevelScopesMatchTheIssue(t *testing.T) {
	want := []struct {
		level  string
		scopes []string
	}{
		{"readOnly", []string{"tools:read", "resources:read"}},
		{"readWrite", []string{"tools:read", "resources:read", "tools:write"}},
		{"fullAccess", []string{"tools:read", "resources:read", "tools:write", "admin"}},
	}
	t.Run("the levels are readOnly, readWrite and fullAccess, from the fewest rights", func(t *testing.T) {
		var names []string
		for _, w := range want {
			names = append(names, w.level)
		}
		if got := Levels(); !reflect.DeepEqual(got, names) {
			t.Fatalf("Levels() = %v, want %v", got, names)
		}
	})
	for _, w := range want {
		t.Run(w.level+" holds "+strings.Join(w.scopes, " "), func(t *testing.T) {
			if got := Scopes(w.level); !reflect.DeepEqual(got, w.scopes) {
				t.Fatalf("Scopes(%q) = %v", w.level, got)
			}
		})
	}
	t.Run("every level has tools:read and resources:read", func(t *testing.T) {
		for _, l := range Levels() {
			if !slices.Contains(Scopes(l), mcp.ScopeToolsRead) || !slices.Contains(Scopes(l), mcp.ScopeResourcesRead) {
				t.Errorf("%s: %v", l, Scopes(l))
			}
		}
	})
	t.Run("the write scope is tools:write, held by readWrite and fullAccess only", func(t *testing.T) {
		if ScopeToolsWrite != "tools:write" || slices.Contains(Scopes(LevelReadOnly), ScopeToolsWrite) ||
			!slices.Contains(Scopes(LevelReadWrite), ScopeToolsWrite) || !slices.Contains(Scopes(LevelFullAccess), ScopeToolsWrite) {
			t.Fatal("tools:write held by the wrong levels")
		}
	})
	t.Run("the admin scope is admin, held by fullAccess only", func(t *testing.T) {
		if ScopeAdmin != "admin" || slices.Contains(Scopes(LevelReadWrite), ScopeAdmin) || !slices.Contains(Scopes(LevelFullAccess), ScopeAdmin) {
			t.Fatal("admin held by the wrong levels")
		}
	})
	t.Run("the anonymous loopback principal has exactly the readOnly scopes", func(t *testing.T) {
		if !reflect.DeepEqual(mcp.AnonymousPrincipal().Scopes, Scopes(LevelReadOnly)) {
			t.Fatalf("anonymous %v", mcp.AnonymousPrincipal().Scopes)
		}
	})
	t.Run("a name that is not a level has no scopes", func(t *testing.T) {
		if Scopes("admin") != nil || ValidLevel("readonly") || ValidLevel("") {
			t.Fatal("unknown level accepted")
		}
	})
	t.Run("readWrite and fullAccess raise rights above the anonymous principal; readOnly does not", func(t *testing.T) {
		if RaisesRights(LevelReadOnly) || !RaisesRights(LevelReadWrite) || !RaisesRights(LevelFullAccess) || RaisesRights("bogus") {
			t.Fatal("RaisesRights")
		}
	})
	t.Run("Scopes returns a copy the caller may change", func(t *testing.T) {
		s := Scopes(LevelReadOnly)
		s[0] = "changed"
		if Scopes(LevelReadOnly)[0] != mcp.ScopeToolsRead {
			t.Fatal("the table was changed through Scopes")
		}
	})
}

// The table is documented in one place, docs/architecture.md "MCP access control", and the
// document says what the code does.
func TestScopeTableIsTheDocumentedOne(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := strings.SplitN(string(doc), "## MCP access control", 2)
	if len(section) != 2 {
		t.Fatal(`docs/architecture.md has no "## MCP access control" section`)
	}
	body := strings.SplitN(section[1], "\n## ", 2)[0]
	row := regexp.MustCompile("(?m)^\\| `(readOnly|readWrite|fullAccess)` \\| ([^|]+) \\|")
	rows := row.FindAllStringSubmatch(body, -1)
	if len(rows) != len(Levels()) {
		t.Fatalf("documented levels: %d rows, want %d", len(rows), len(Levels()))
	}
	for i, r := range rows {
		var scopes []string
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(r[2], -1) {
			scopes = append(scopes, m[1])
		}
		if r[1] != Levels()[i] || !reflect.DeepEqual(scopes, Scopes(r[1])) {
			t.Errorf("documented %s = %v, code says %s = %v", r[1], scopes, Levels()[i], Scopes(Levels()[i]))
		}
	}
}
