package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/internal/pluginpub"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// A restore is confirmed naming what it creates and what it overwrites, said even when it
// overwrites nothing, with what the driver adds; the question comes last.
func TestARestoreIsConfirmedNamingWhatItCreatesAndOverwrites(t *testing.T) {
	for _, c := range []struct {
		name string
		plan driver.RestorePlan
		want []string
	}{
		{"creates only", driver.RestorePlan{ID: "b1", Creates: []string{"Alpha", "Beta"}, Note: "restores no collection over an existing one"},
			[]string{"Restore backup b1 from filesystem (disk: /b) into local:", "  creates Alpha, Beta", "  overwrites nothing", "  restores no collection over an existing one", "Restore it?"}},
		{"overwrites, shouted", driver.RestorePlan{ID: "b2", Creates: []string{"New"}, Overwrites: []string{"Old"}},
			[]string{"Restore backup b2 from filesystem (disk: /b) into local:", "  creates New", "  OVERWRITES Old: their present rows are replaced by the backup's", "Restore it?"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := restoreQuestion("local", "filesystem (disk: /b)", &c.plan); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// Issue 40, item 5: `app backup list|create|status|cancel|restore CONNECTION` with --json, on a
// saved connection through the real driver plugin (published, installed) and a real
// weaviate-server with backup-filesystem. Every result is read back from the node: its REST
// API, and the backup directory on its disk.
func TestBackupCommandsOnARealNode(t *testing.T) {
	weaviatetest.RequireBinary(t)
	t.Setenv("APP_KEYRING_BACKEND", "file")
	t.Setenv("APP_KEYRING_PASSWORD", "test")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	backups := t.TempDir()
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = []string{"ENABLE_MODULES=backup-filesystem", "BACKUP_FILESYSTEM_PATH=" + backups}
	node := weaviatetest.StartWith(t, opts)
	for class, n := range map[string]int{"Alpha": 3, "Beta": 2} {
		objs := make([]any, n)
		for i := range objs {
			objs[i] = map[string]any{"class": class, "id": fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1),
				"properties": map[string]any{"title": fmt.Sprintf("%s %d", class, i+1)}, "vector": []float64{float64(i), 1, 2}}
		}
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none"}, nil); err != nil {
			t.Fatal(err)
		}
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
			t.Fatal(err)
		}
	}
	dev, err := pluginpub.PublishDev(ctx, t.TempDir(), "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := t.TempDir()
	app := func(args ...string) (string, error) {
		return run(t, nil, append([]string{"--config-dir", cfg, "--registry", dev.URL, "--registry-key", dev.Key}, args...)...)
	}
	if _, err := app("plugin", "install", "weaviate"); err != nil {
		t.Fatalf("plugin install: %v", err)
	}
	if _, err := app("connection", "add", "--name", "local", "--host", node.Host, "--port", fmt.Sprint(node.Port), "--grpc-port", fmt.Sprint(node.GRPCPort)); err != nil {
		t.Fatalf("connection add: %v", err)
	}
	// objects are a collection's objects as the node lists them; none for a collection it lacks.
	objects := func(t *testing.T, class string) []string {
		t.Helper()
		var page struct {
			Objects []struct {
				ID         string         `json:"id"`
				Properties map[string]any `json:"properties"`
			} `json:"objects"`
		}
		err := node.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+class, nil, &page)
		if se, ok := err.(*weaviatenode.StatusError); ok && se.Code == http.StatusNotFound {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range page.Objects {
			out = append(out, fmt.Sprintf("%s %v", o.ID, o.Properties["title"]))
		}
		slices.Sort(out)
		return out
	}
	alpha := objects(t, "Alpha")
	noRestore := func(t *testing.T, id string) {
		t.Helper()
		err := node.DoJSON(ctx, http.MethodGet, "/v1/backups/filesystem/"+id+"/restore", nil, nil)
		if se, ok := err.(*weaviatenode.StatusError); !ok || se.Code != http.StatusNotFound {
			t.Fatalf("the node has a restore of %s: %v", id, err)
		}
	}

	t.Run("create --json waits for the backup and prints it ended, and the node lists it with its files on disk", func(t *testing.T) {
		out, err := app("--json", "backup", "create", "local", "--id", "cli-1", "--tables", "Alpha,Beta")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Connection, Backend string
			Backup              driver.Backup
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Connection != "local" || got.Backend != "filesystem" ||
			got.Backup.ID != "cli-1" || got.Backup.State != driver.BackupSucceeded || got.Backup.Where != filepath.Join(backups, "cli-1") {
			t.Fatalf("printed %s (%v)", out, err)
		}
		var list []struct {
			ID, Status string
			Classes    []string
		}
		if err := node.DoJSON(ctx, http.MethodGet, "/v1/backups/filesystem", nil, &list); err != nil || len(list) != 1 || list[0].ID != "cli-1" || list[0].Status != "SUCCESS" {
			t.Fatalf("the node lists %+v (%v)", list, err)
		}
		for _, class := range []string{"Alpha", "Beta"} {
			if _, err := os.Stat(filepath.Join(backups, "cli-1", "node1", class)); err != nil {
				t.Errorf("%s's files in the backup on the server's disk: %v", class, err)
			}
		}
	})

	t.Run("list --json names the backend and each backup", func(t *testing.T) {
		out, err := app("--json", "backup", "list", "local")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Backend driver.BackupBackend
			Backups []driver.Backup
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Backend.Name != "filesystem" || got.Backend.Where != backups ||
			len(got.Backups) != 1 || got.Backups[0].ID != "cli-1" || got.Backups[0].State != driver.BackupSucceeded {
			t.Fatalf("printed %s (%v)", out, err)
		}
		text, err := app("backup", "list", "local")
		if err != nil || !strings.Contains(text, "cli-1") || !strings.Contains(text, "succeeded (SUCCESS)") || !strings.Contains(text, "Alpha,Beta") && !strings.Contains(text, "Beta,Alpha") {
			t.Fatalf("printed %q (%v)", text, err)
		}
	})

	if err := node.DoJSON(ctx, http.MethodDelete, "/v1/schema/Alpha", nil, nil); err != nil {
		t.Fatal(err)
	}

	t.Run("restore without --yes where nobody can be asked is refused, and nothing is restored", func(t *testing.T) {
		_, err := app("backup", "restore", "local", "cli-1", "--tables", "Alpha")
		if err == nil || !strings.Contains(err.Error(), "needs confirmation") || !strings.Contains(err.Error(), "--yes") {
			t.Fatalf("%v", err)
		}
		noRestore(t, "cli-1")
		if got := objects(t, "Alpha"); len(got) != 0 {
			t.Fatalf("Alpha holds %v", got)
		}
	})

	t.Run("restore over a collection that exists is refused naming it, and nothing is sent", func(t *testing.T) {
		_, err := app("backup", "restore", "local", "cli-1", "--yes")
		if !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), "Beta exists") || !strings.Contains(err.Error(), "nothing was sent") {
			t.Fatalf("%v", err)
		}
		noRestore(t, "cli-1")
	})

	t.Run("restore --yes --json restores the deleted collection, and its objects read back from the node", func(t *testing.T) {
		out, err := app("--json", "backup", "restore", "local", "cli-1", "--tables", "Alpha", "--yes")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Plan    driver.RestorePlan
			Restore driver.Backup
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || !reflect.DeepEqual(got.Plan.Creates, []string{"Alpha"}) || len(got.Plan.Overwrites) != 0 ||
			got.Restore.State != driver.BackupSucceeded {
			t.Fatalf("printed %s (%v)", out, err)
		}
		if now := objects(t, "Alpha"); !reflect.DeepEqual(now, alpha) {
			t.Fatalf("Alpha holds %v, backed up %v", now, alpha)
		}
		if out, err := app("backup", "status", "local", "cli-1", "--restore"); err != nil || !strings.Contains(out, "succeeded (SUCCESS)") {
			t.Fatalf("status --restore: %q %v", out, err)
		}
	})

	t.Run("create --no-wait returns at once, and cancel stops the backup as the node says", func(t *testing.T) {
		bulk(t, ctx, node)
		out, err := app("--json", "backup", "create", "local", "--id", "cli-stopped", "--tables", "Bulk", "--no-wait")
		if err != nil {
			t.Fatal(err)
		}
		var started struct{ Backup driver.Backup }
		if err := json.Unmarshal([]byte(out), &started); err != nil || started.Backup.ID != "cli-stopped" || started.Backup.Done() {
			t.Fatalf("printed %s (%v)", out, err)
		}
		if _, err := app("backup", "cancel", "local", "cli-stopped"); err != nil {
			t.Fatal(err)
		}
		var st struct{ Status string }
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
			if err := node.DoJSON(ctx, http.MethodGet, "/v1/backups/filesystem/cli-stopped", nil, &st); err != nil {
				t.Fatal(err)
			}
			if st.Status == "CANCELED" || st.Status == "SUCCESS" || st.Status == "FAILED" || time.Now().After(deadline) {
				break
			}
		}
		if st.Status != "CANCELED" {
			t.Fatalf("the node ended the cancelled backup %s", st.Status)
		}
		if out, err := app("backup", "status", "local", "cli-stopped"); err != nil || !strings.Contains(out, "cancelled (CANCELED)") {
			t.Fatalf("status: %q %v", out, err)
		}
	})

	t.Run("a connection whose server keeps no backups is told what it needs", func(t *testing.T) {
		bare := weaviatetest.Start(t, weaviatenode.Anonymous)
		if _, err := app("connection", "add", "--name", "bare", "--host", bare.Host, "--port", fmt.Sprint(bare.Port), "--grpc-port", fmt.Sprint(bare.GRPCPort)); err != nil {
			t.Fatal(err)
		}
		_, err := app("backup", "list", "bare")
		if !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "ENABLE_MODULES=backup-filesystem") {
			t.Fatalf("%v", err)
		}
	})
}

// bulk makes a collection the server is still copying when a cancel arrives (3,000 objects of
// 256 numbers).
func bulk(t *testing.T, ctx context.Context, node *weaviatenode.Node) {
	t.Helper()
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "Bulk", "vectorizer": "none"}, nil); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for start := 0; start < 3000; start += 500 {
		objs := make([]any, 500)
		for i := range objs {
			v := make([]float32, 256)
			for j := range v {
				v[j] = rng.Float32()
			}
			objs[i] = map[string]any{"class": "Bulk", "properties": map[string]any{"body": strings.Repeat("x", 200) + fmt.Sprint(start+i)}, "vector": v}
		}
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// Ctrl-C while a backup is awaited asks the database to cancel it, and waits for how it ends;
// while a restore is awaited (it has no cancel) it stops waiting and says the restore goes on.
// The database is a stand-in here: a real one cannot be made to hold a phase while the
// interrupt arrives.
func TestCtrlCWhileWaitingCancelsABackupAndLeavesARestore(t *testing.T) {
	for _, c := range []struct {
		name      string
		canCancel bool
		want      driver.BackupState
		says      string
	}{
		{"a backup is cancelled, and the wait ends with it", true, driver.BackupCancelled, ""},
		{"a restore goes on, and the wait says so", false, "", "goes on in the database"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, interrupt := context.WithCancel(context.Background())
			defer interrupt()
			s := &backupSession{ctx: ctx}
			asks, cancels := 0, 0
			status := func(ctx context.Context) (*driver.Backup, error) {
				if err := ctx.Err(); err != nil {
					return nil, driver.Errorf(driver.KindCancelled, "cancelled")
				}
				if asks++; asks == 2 {
					interrupt() // the person presses Ctrl-C during the second wait
				}
				if cancels > 0 {
					return &driver.Backup{ID: "b", State: driver.BackupCancelled, Phase: "CANCELED"}, nil
				}
				return &driver.Backup{ID: "b", State: driver.BackupRunning, Phase: "TRANSFERRING"}, nil
			}
			var cancel func(context.Context) error
			if c.canCancel {
				cancel = func(ctx context.Context) error {
					cancels++
					return ctx.Err()
				}
			}
			root := NewRoot(nil)
			b, err := s.wait(root, "backup", "b", status, cancel)
			if c.says != "" {
				if err == nil || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("%+v %v", b, err)
				}
				return
			}
			if err != nil || b.State != c.want || cancels != 1 {
				t.Fatalf("%+v %v, %d cancels", b, err, cancels)
			}
		})
	}
}
