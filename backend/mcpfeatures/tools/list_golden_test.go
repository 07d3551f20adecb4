package tools

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"app/backend/auth"
	"app/backend/mcp"
	"app/internal/testkit/mcptest"
)

var updateList = flag.Bool("update-tools", false, "rewrite testdata/tools-list.json from the tool table")

// issue 24, item 1: the tool table's definitions, as a fullAccess token lists them, are pinned
// byte for byte; a change to a name, a description, a schema or a hint shows here as a diff of
// testdata/tools-list.json (go test ./backend/mcpfeatures/tools -run TestToolsListIsPinned -update-tools).
func TestToolsListIsPinned(t *testing.T) {
	full := mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
		return mcp.Principal{ID: "token:full", Scopes: auth.Scopes(auth.LevelFullAccess)}, nil
	})
	srv := mcptest.Start(t, mcp.Options{Tools: All(Deps{}), Authenticator: full})
	raw := srv.Call(t, "tools/list", nil).Raw
	var listing struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &listing); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, tool := range listing.Result.Tools {
		got.Write(tool) // as listed, one definition a line
		got.WriteByte('\n')
	}
	path := filepath.Join("testdata", "tools-list.json")
	if *updateList {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gotLines, wantLines := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < max(len(gotLines), len(wantLines)); i++ {
		var g, w []byte
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if !bytes.Equal(g, w) {
			t.Errorf("definition %d differs from %s:\n got %s\nwant %s", i+1, path, g, w)
		}
	}
}
