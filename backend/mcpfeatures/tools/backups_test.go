package tools

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"app/backend/auth"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 5: backups are the person's (writes of that size), so no MCP tool starts,
// restores or cancels one. No tool is about backups, and the statement tools refuse a
// backup's statement on the strongest token without asking anyone, however its path is
// spelled; the node is read back: it made no backup, and its backup directory stays empty.
// Reading the list stays a read.
func TestNoToolStartsRestoresOrCancelsABackup(t *testing.T) {
	for _, tool := range All(Deps{}) {
		for _, word := range []string{"backup", "restore"} {
			if strings.Contains(strings.ToLower(tool.Name+" "+tool.Title), word) {
				t.Errorf("tool %s (%s) is about a %s", tool.Name, tool.Title, word)
			}
		}
	}

	weaviatetest.RequireBinary(t)
	dir := t.TempDir()
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = []string{"ENABLE_MODULES=backup-filesystem", "BACKUP_FILESYSTEM_PATH=" + dir}
	r := newFlowRigWith(t, rigOptions{node: &opts})
	ctx := ctxFor(t)
	for _, c := range []struct{ tool, query string }{
		{NameExecuteQuery, `POST /v1/backups/filesystem {"id":"by-an-agent"}`},
		{NameExecuteQuery, `POST /backups/filesystem {"id":"by-an-agent"}`},
		{NameExecuteQuery, `POST /v1/%62ackups/filesystem {"id":"by-an-agent"}`},
		{NameExecuteQuery, `POST /v1/backups/filesystem/by-an-agent/restore {}`},
		{NameConfirmDestructive, `DELETE /v1/backups/filesystem/by-an-agent`},
		{NameConfirmDestructive, `PUT /v1/backups/filesystem {"id":"by-an-agent"}`},
	} {
		t.Run(c.tool+" "+c.query, func(t *testing.T) {
			r.person.will()
			rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, elicit: true, tool: c.tool, args: map[string]any{"connection": "notes", "query": c.query}})
			if rep.code != 0 || rep.result["isError"] != true || !strings.Contains(rep.text(), "only the user starts") {
				t.Fatalf("%d %q %v", rep.code, rep.message, rep.result)
			}
			if q := r.person.questions(); len(q) != 0 {
				t.Fatalf("the person was asked %+v", q)
			}
		})
	}
	var list []map[string]any
	if err := r.node.DoJSON(ctx, http.MethodGet, "/v1/backups/filesystem", nil, &list); err != nil || len(list) != 0 {
		t.Fatalf("the node lists %v (%v)", list, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("the backup directory holds %v", left)
	}
	t.Run("reading the backups stays a read", func(t *testing.T) {
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "GET /v1/backups/filesystem"}})
		if rep.code != 0 || rep.result["isError"] != false {
			t.Fatalf("%d %q %v", rep.code, rep.message, rep.result)
		}
	})
}
