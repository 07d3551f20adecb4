package app

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"app/app/dto"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 5, through the window's API on a real weaviate-server with the filesystem
// backend: a backup of one collection followed to its end; a restore the person declines in
// the native dialog sends nothing; one said yes to brings the deleted collection back, its
// objects read from the node; the question names what the restore creates and that it
// overwrites nothing.
func TestTheConnectionPageBacksUpAndRestoresAfterTheNativeQuestion(t *testing.T) {
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = []string{"ENABLE_MODULES=backup-filesystem", "BACKUP_FILESYSTEM_PATH=" + t.TempDir()}
	node := weaviatetest.StartWith(t, opts)
	ctx := t.Context()
	schema := `{"class":"Saved","vectorizer":"none","properties":[{"name":"title","dataType":["text"]}]}`
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", json.RawMessage(schema), nil); err != nil {
		t.Fatal(err)
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", json.RawMessage(`{"class":"Saved","id":"00000040-0000-4000-8000-000000000005","properties":{"title":"kept"},"vector":[0.1,0.2]}`), nil); err != nil {
		t.Fatal(err)
	}
	api, id := connected(t, node)
	dialog := &scriptedConfirmer{}
	api.start(env{emit: &eventRecorder{}, confirm: dialog, name: func(string) string { return "Node" }})

	list, err := api.Backups(id, "")
	if err != nil || len(list.Backends) == 0 || list.Backends[0].Name != "filesystem" {
		t.Fatalf("backups %+v %v", list, err)
	}
	b, err := api.CreateBackup(id, "filesystem", []string{"Saved"})
	if err != nil {
		t.Fatal(err)
	}
	follow := func(status func() (dto.BackupDTO, error)) dto.BackupDTO {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			got, err := status()
			if err != nil {
				t.Fatal(err)
			}
			if got.State != "running" || time.Now().After(deadline) {
				return got
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	done := follow(func() (dto.BackupDTO, error) { return api.BackupStatus(id, "filesystem", b.ID) })
	if done.State != "succeeded" {
		t.Fatalf("the backup ended %+v", done)
	}
	var onNode struct {
		Status  string   `json:"status"`
		Classes []string `json:"classes"`
	}
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/backups/filesystem/"+b.ID, nil, &onNode); err != nil || onNode.Status != "SUCCESS" {
		t.Fatalf("the node's own status of %s: %+v %v", b.ID, onNode, err)
	}
	if err := node.DoJSON(ctx, http.MethodDelete, "/v1/schema/Saved", nil, nil); err != nil {
		t.Fatal(err)
	}

	dialog.yes = false
	r, err := api.RestoreBackup(id, "filesystem", b.ID, nil)
	if err != nil || !r.Declined || r.Restore != nil {
		t.Fatalf("declined restore %+v %v", r, err)
	}
	if len(dialog.asked) != 1 || !strings.Contains(dialog.asked[0], "Creates: Saved") || !strings.Contains(dialog.asked[0], "Overwrites: nothing") || !strings.Contains(dialog.asked[0], "“Node”") {
		t.Fatalf("the question: %q", dialog.asked)
	}
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/schema/Saved", nil, nil); err == nil {
		t.Fatal("a declined restore brought the collection back")
	}

	dialog.yes = true
	r, err = api.RestoreBackup(id, "filesystem", b.ID, nil)
	if err != nil || r.Declined || r.Restore == nil {
		t.Fatalf("restore %+v %v", r, err)
	}
	restored := follow(func() (dto.BackupDTO, error) { return api.RestoreStatus(id, "filesystem", b.ID) })
	if restored.State != "succeeded" {
		t.Fatalf("the restore ended %+v", restored)
	}
	var obj struct {
		Properties struct {
			Title string `json:"title"`
		} `json:"properties"`
	}
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects/Saved/00000040-0000-4000-8000-000000000005", nil, &obj); err != nil || obj.Properties.Title != "kept" {
		t.Fatalf("the restored object on the node: %+v %v", obj, err)
	}

	// Over the collection now there again, the plan refuses: nothing is asked or sent.
	asked := len(dialog.asked)
	if _, err := api.RestoreBackup(id, "filesystem", b.ID, nil); err == nil || !strings.HasPrefix(err.Error(), "conflict: ") || !strings.Contains(err.Error(), "Saved") {
		t.Fatalf("a restore over an existing collection: %v", err)
	}
	if len(dialog.asked) != asked {
		t.Fatal("a refused restore was put to the person")
	}
}
