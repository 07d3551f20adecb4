package auth

import (
	"slices"

	"app/backend/mcp"
)

// Token levels (SPEC.md B "Authentication" 2): what a token lets an AI client do.
const (
	LevelReadOnly   = "readOnly"
	LevelReadWrite  = "readWrite"
	LevelFullAccess = "fullAccess"
)

// The tools' own scopes (SPEC.md B "Authentication" 6 leaves their names to us). A tool names
// the one it needs in mcp.Tool.Scope; tools/list hides a tool whose scope the caller lacks and
// tools/call refuses it with 403 -33007 and the insufficient_scope challenge.
const (
	// ScopeToolsWrite is needed by every tool that writes (mcp.Tool.Write).
	ScopeToolsWrite = "tools:write"
	// ScopeAdmin is needed by admin tools such as confirm_destructive_operation.
	ScopeAdmin = "admin"
)

// levelScopes is the one table of levels and their scopes, in order of rights. tools/list
// filtering, tools/call, the docs (docs/architecture.md "MCP access control") and the tests
// all read it; TestLevelScopesMatchTheIssue pins it to issue 11.
var levelScopes = []struct {
	level  string
	scopes []string
}{
	{LevelReadOnly, []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead}},
	{LevelReadWrite, []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead, ScopeToolsWrite}},
	{LevelFullAccess, []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead, ScopeToolsWrite, ScopeAdmin}},
}

// Levels lists the token levels from the fewest rights to the most.
func Levels() []string {
	out := make([]string, len(levelScopes))
	for i, l := range levelScopes {
		out[i] = l.level
	}
	return out
}

// Scopes returns the scopes of a level (a fresh slice), or nil for a name that is not a level.
func Scopes(level string) []string {
	for _, l := range levelScopes {
		if l.level == level {
			return slices.Clone(l.scopes)
		}
	}
	return nil
}

// ValidLevel reports whether level is one of Levels.
func ValidLevel(level string) bool { return Scopes(level) != nil }

// RaisesRights reports whether a token of this level lets an AI client do more than the
// anonymous loopback principal (read only): creating one needs the user's confirmation.
func RaisesRights(level string) bool { return rank(level) > rank(LevelReadOnly) }

// rank orders levels by rights; -1 for an unknown level.
func rank(level string) int {
	for i, l := range levelScopes {
		if l.level == level {
			return i
		}
	}
	return -1
}
