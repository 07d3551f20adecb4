package weaviate_test

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
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 5: backups with the filesystem backend, against the real weaviate-server of
// each release (APP_WEAVIATE_VERSION). Every result is read back from the node itself: its
// REST API (node.DoJSON) and the backup directory it writes on its disk, never through the
// driver under test.

// backupNode starts a node with the backup-filesystem module writing under a directory of
// this test, and returns the node and that directory.
func backupNode(t *testing.T) (*weaviatenode.Node, string) {
	t.Helper()
	dir := t.TempDir()
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = []string{"ENABLE_MODULES=backup-filesystem", "BACKUP_FILESYSTEM_PATH=" + dir}
	return weaviatetest.StartWith(t, opts), dir
}

// makeCollection creates a collection of n objects with three-number vectors (their ids
// 00000000-0000-4000-8000-00000000000i, their titles "<name> i") through the node's REST API.
func makeCollection(t *testing.T, node *weaviatenode.Node, name string, n int) {
	t.Helper()
	ctx := ctxT(t)
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": name, "vectorizer": "none",
		"properties": []any{map[string]any{"name": "title", "dataType": []string{"text"}}}}, nil); err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	objs := make([]any, n)
	for i := range objs {
		objs[i] = map[string]any{"class": name, "id": fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1),
			"properties": map[string]any{"title": fmt.Sprintf("%s %d", name, i+1)}, "vector": []float64{float64(i + 1), 0.5, -1}}
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
		t.Fatalf("fill %s: %v", name, err)
	}
}

// makeBulkCollection creates a collection large enough that the server is still copying it
// when a cancel arrives (3,000 objects of 256 numbers: a few MB of shard files).
func makeBulkCollection(t *testing.T, node *weaviatenode.Node, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": name, "vectorizer": "none",
		"properties": []any{map[string]any{"name": "body", "dataType": []string{"text"}}}}, nil); err != nil {
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
			objs[i] = map[string]any{"class": name, "properties": map[string]any{"body": strings.Repeat("x", 200) + fmt.Sprint(start+i)}, "vector": v}
		}
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// nodeBackup is the node's own list entry of backup id ("" status when it lists none).
type nodeEntry struct {
	ID      string   `json:"id"`
	Classes []string `json:"classes"`
	Status  string   `json:"status"`
	Size    float64  `json:"size"`
}

func nodeBackup(t *testing.T, node *weaviatenode.Node, id string) nodeEntry {
	t.Helper()
	var list []nodeEntry
	if err := node.DoJSON(ctxT(t), http.MethodGet, "/v1/backups/filesystem", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.ID == id {
			return e
		}
	}
	return nodeEntry{}
}

// onDisk is the backup's own descriptor as the server wrote it under its backup directory.
type onDisk struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Nodes  map[string]struct {
		Classes []string `json:"classes"`
		Status  string   `json:"status"`
	} `json:"nodes"`
}

func readOnDisk(t *testing.T, dir, id string) onDisk {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, id, "backup_config.json"))
	if err != nil {
		t.Fatalf("the backup's descriptor on the server's disk: %v", err)
	}
	var d onDisk
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return d
}

// wait asks status until the backup or restore has ended, and returns it with every phase seen.
func wait(t *testing.T, status func(context.Context) (*driver.Backup, error)) (*driver.Backup, []string) {
	t.Helper()
	ctx := ctxT(t)
	var phases []string
	for {
		b, err := status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(phases) == 0 || phases[len(phases)-1] != b.Phase {
			phases = append(phases, b.Phase)
		}
		if b.Done() {
			return b, phases
		}
		select {
		case <-ctx.Done():
			t.Fatalf("still %s after a minute (phases %v)", b.Phase, phases)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// objectsOf reads a collection's objects from the node: id -> title and vector.
func objectsOf(t *testing.T, node *weaviatenode.Node, class string) map[string]string {
	t.Helper()
	var page struct {
		Objects []struct {
			ID         string         `json:"id"`
			Properties map[string]any `json:"properties"`
			Vector     []float64      `json:"vector"`
		} `json:"objects"`
	}
	if err := node.DoJSON(ctxT(t), http.MethodGet, "/v1/objects?class="+class+"&include=vector&limit=100", nil, &page); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, o := range page.Objects {
		out[o.ID] = fmt.Sprintf("%v %v", o.Properties["title"], o.Vector)
	}
	return out
}

// collections are the node's collections by name.
func collections(t *testing.T, node *weaviatenode.Node) []string {
	t.Helper()
	var s struct {
		Classes []struct {
			Class string `json:"class"`
		} `json:"classes"`
	}
	if err := node.DoJSON(ctxT(t), http.MethodGet, "/v1/schema", nil, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range s.Classes {
		out = append(out, c.Class)
	}
	slices.Sort(out)
	return out
}

func TestBackupsWithTheFilesystemBackend(t *testing.T) {
	node, dir := backupNode(t)
	version := nodeVersion(t, node)
	d := open(t, node, nil)
	makeCollection(t, node, "Alpha", 3)
	makeCollection(t, node, "Beta", 2)
	makeCollection(t, node, "Gamma", 1)
	alpha := objectsOf(t, node, "Alpha")

	t.Run("the connection offers the filesystem backend where the server writes", func(t *testing.T) {
		var meta struct {
			Modules map[string]struct {
				BackupsPath string `json:"backupsPath"`
			} `json:"modules"`
		}
		if err := node.DoJSON(ctxT(t), http.MethodGet, "/v1/meta", nil, &meta); err != nil {
			t.Fatal(err)
		}
		bs, err := d.BackupBackends(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 1 || bs[0].Name != "filesystem" || bs[0].Where != meta.Modules["backup-filesystem"].BackupsPath || bs[0].Where != dir {
			t.Fatalf("backends %+v; the node's backup-filesystem writes under %q (%s)", bs, meta.Modules["backup-filesystem"].BackupsPath, dir)
		}
		if !driver.Offered(d).Backups {
			t.Fatal("the driver does not declare backups")
		}
	})

	t.Run("a backup of some collections returns at once, reports its phases, and is listed with its files on the server's disk", func(t *testing.T) {
		started := time.Now()
		b, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Alpha", "Beta"}})
		if err != nil {
			t.Fatal(err)
		}
		if b.ID != "some" || b.State != driver.BackupRunning || !reflect.DeepEqual(sortedNames(b.Tables), []string{"Alpha", "Beta"}) {
			t.Fatalf("create answered %+v", b)
		}
		if took := time.Since(started); took > 2*time.Second {
			t.Fatalf("create waited %s for the backup", took)
		}
		done, phases := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.BackupStatus(ctx, "filesystem", "some") })
		if done.State != driver.BackupSucceeded || done.Phase != "SUCCESS" || done.Started.IsZero() || done.Completed.Before(done.Started) || phases[0] == "SUCCESS" {
			t.Fatalf("ended %+v after phases %v", done, phases)
		}
		if done.Where != filepath.Join(dir, "some") {
			t.Fatalf("kept at %q, not under %s", done.Where, dir)
		}
		t.Logf("weaviate-server %s: phases %v", version, phases)

		// The node's list says the size once its descriptor on disk has it, which 1.35.2 writes
		// a moment after its status says SUCCESS.
		e := nodeBackup(t, node, "some")
		for deadline := time.Now().Add(10 * time.Second); e.Size == 0 && time.Now().Before(deadline); e = nodeBackup(t, node, "some") {
			time.Sleep(100 * time.Millisecond)
		}
		if e.Status != "SUCCESS" || !reflect.DeepEqual(sortedNames(e.Classes), []string{"Alpha", "Beta"}) {
			t.Fatalf("the node lists %+v", e)
		}
		disk := readOnDisk(t, dir, "some")
		if disk.ID != "some" || disk.Status != "SUCCESS" || !reflect.DeepEqual(sortedNames(disk.Nodes["node1"].Classes), []string{"Alpha", "Beta"}) {
			t.Fatalf("on disk %+v", disk)
		}
		for class, want := range map[string]bool{"Alpha": true, "Beta": true, "Gamma": false} {
			if _, err := os.Stat(filepath.Join(dir, "some", "node1", class)); (err == nil) != want {
				t.Errorf("%s's files in the backup: %v, want present %v", class, err, want)
			}
		}

		list, err := d.ListBackups(ctxT(t), "filesystem")
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(list, func(b driver.Backup) bool { return b.ID == "some" })
		if i < 0 || list[i].State != driver.BackupSucceeded || !reflect.DeepEqual(sortedNames(list[i].Tables), []string{"Alpha", "Beta"}) ||
			list[i].Bytes <= 0 || list[i].Bytes != int64(e.Size*(1<<30)+0.5) || !list[i].Completed.Equal(done.Completed) {
			t.Fatalf("listed %+v; the node lists %+v", list, e)
		}
	})

	t.Run("a backup of every collection holds each one", func(t *testing.T) {
		b, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "all"})
		if err != nil {
			t.Fatal(err)
		}
		if done, _ := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.BackupStatus(ctx, "filesystem", b.ID) }); done.State != driver.BackupSucceeded {
			t.Fatalf("%+v", done)
		}
		if e := nodeBackup(t, node, "all"); !reflect.DeepEqual(sortedNames(e.Classes), []string{"Alpha", "Beta", "Gamma"}) {
			t.Fatalf("the node lists %+v", e)
		}
	})

	t.Run("a backup without an id gets one the server accepts", func(t *testing.T) {
		b, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{Tables: []string{"Gamma"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.ID, "app-") || nodeBackup(t, node, b.ID).ID != b.ID {
			t.Fatalf("made %q; the node lists it: %+v", b.ID, nodeBackup(t, node, b.ID))
		}
		wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.BackupStatus(ctx, "filesystem", b.ID) })
	})

	t.Run("a deleted collection is restored from the backup with its objects", func(t *testing.T) {
		if err := node.DoJSON(ctxT(t), http.MethodDelete, "/v1/schema/Alpha", nil, nil); err != nil {
			t.Fatal(err)
		}
		plan, err := d.PlanRestore(ctxT(t), "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Alpha"}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plan.Tables, []string{"Alpha"}) || !reflect.DeepEqual(plan.Creates, []string{"Alpha"}) || len(plan.Overwrites) != 0 || len(plan.Refused) != 0 || plan.Note == "" {
			t.Fatalf("plan %+v", plan)
		}
		r, err := d.RestoreBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Alpha"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.State != driver.BackupRunning || !reflect.DeepEqual(r.Tables, []string{"Alpha"}) {
			t.Fatalf("restore answered %+v", r)
		}
		done, phases := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.RestoreStatus(ctx, "filesystem", "some") })
		if done.State != driver.BackupSucceeded {
			t.Fatalf("restore ended %+v after %v", done, phases)
		}
		t.Logf("weaviate-server %s: restore phases %v", version, phases)
		if got := objectsOf(t, node, "Alpha"); !reflect.DeepEqual(got, alpha) {
			t.Fatalf("restored objects %v, backed up %v", got, alpha)
		}
	})

	t.Run("a restore over a collection that exists is refused up front, naming it, and nothing is sent", func(t *testing.T) {
		plan, err := d.PlanRestore(ctxT(t), "filesystem", driver.BackupRequest{ID: "all"})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Creates) != 0 || len(plan.Overwrites) != 0 || len(plan.Refused) != 3 || plan.Refused[0].Reason == "" {
			t.Fatalf("plan %+v", plan)
		}
		_, err = d.RestoreBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "all"})
		if !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), "Alpha, Beta, Gamma") || !strings.Contains(err.Error(), "delete them first") {
			t.Fatalf("restore over existing collections: %v", err)
		}
		var st struct{ Status string }
		err = node.DoJSON(ctxT(t), http.MethodGet, "/v1/backups/filesystem/all/restore", nil, &st)
		if se, ok := err.(*weaviatenode.StatusError); !ok || se.Code != http.StatusNotFound {
			t.Fatalf("the node has a restore of it: %+v %v", st, err)
		}
	})

	t.Run("the server itself restores the others and fails over a collection that exists (why the driver refuses first)", func(t *testing.T) {
		if err := node.DoJSON(ctxT(t), http.MethodDelete, "/v1/schema/Gamma", nil, nil); err != nil {
			t.Fatal(err)
		}
		var started struct{ Status string }
		if err := node.DoJSON(ctxT(t), http.MethodPost, "/v1/backups/filesystem/all/restore", map[string]any{"include": []string{"Beta", "Gamma"}}, &started); err != nil || started.Status != "STARTED" {
			t.Fatalf("the server did not take the restore: %+v %v", started, err)
		}
		done, _ := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.RestoreStatus(ctx, "filesystem", "all") })
		var raw struct{ Status, Error string }
		if err := node.DoJSON(ctxT(t), http.MethodGet, "/v1/backups/filesystem/all/restore", nil, &raw); err != nil {
			t.Fatal(err)
		}
		if raw.Status != "FAILED" || !strings.Contains(raw.Error, "class name Beta already exists") {
			t.Fatalf("weaviate-server %s ended the restore %+v", version, raw)
		}
		if got := collections(t, node); !reflect.DeepEqual(got, []string{"Alpha", "Beta", "Gamma"}) {
			t.Fatalf("after the failed restore the node holds %v", got)
		}
		if n, err := node.Count(ctxT(t), "Gamma", ""); err != nil || n != 1 {
			t.Fatalf("Gamma restored with %d objects (%v)", n, err)
		}
		if done.State != driver.BackupFailed || !strings.Contains(done.Error, "collections that exist were not restored: Beta") {
			t.Fatalf("the driver reports %+v", done)
		}
	})

	t.Run("a cancel while the server copies the data stops the backup, and its id stays taken", func(t *testing.T) {
		makeBulkCollection(t, node, "Bulk")
		if _, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "stopped", Tables: []string{"Bulk"}}); err != nil {
			t.Fatal(err)
		}
		if err := d.CancelBackup(ctxT(t), "filesystem", "stopped"); err != nil {
			t.Fatal(err)
		}
		done, phases := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.BackupStatus(ctx, "filesystem", "stopped") })
		if done.State != driver.BackupCancelled || done.Phase != "CANCELED" {
			t.Fatalf("weaviate-server %s ended a cancelled backup %+v after %v", version, done, phases)
		}
		if e := nodeBackup(t, node, "stopped"); e.Status != "CANCELED" {
			t.Fatalf("the node lists %+v", e)
		}
		if disk := readOnDisk(t, dir, "stopped"); disk.Status != "CANCELED" {
			t.Fatalf("on disk %+v", disk)
		}
		if err := d.CancelBackup(ctxT(t), "filesystem", "stopped"); err != nil {
			t.Fatalf("a second cancel: %v", err)
		}
		if _, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "stopped"}); !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), "already exists") {
			t.Fatalf("the cancelled backup's id again: %v", err)
		}
		if _, err := d.PlanRestore(ctxT(t), "filesystem", driver.BackupRequest{ID: "stopped"}); !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), "CANCELED") {
			t.Fatalf("a restore of the cancelled backup: %v", err)
		}
	})

	t.Run("a cancel of a small backup can come too late: it is answered, and the backup ends as the node says", func(t *testing.T) {
		if _, err := d.CreateBackup(ctxT(t), "filesystem", driver.BackupRequest{ID: "late", Tables: []string{"Gamma"}}); err != nil {
			t.Fatal(err)
		}
		// The server's part of a small collection is written within milliseconds, so the cancel
		// races it on both releases (1.35.2 mostly loses, 1.39.0 mostly wins): either way the
		// cancel is answered, and the backup ends CANCELED or SUCCESS, as the node lists it.
		if err := d.CancelBackup(ctxT(t), "filesystem", "late"); err != nil && !driver.IsKind(err, driver.KindConflict) {
			t.Fatal(err)
		}
		done, _ := wait(t, func(ctx context.Context) (*driver.Backup, error) { return d.BackupStatus(ctx, "filesystem", "late") })
		if e := nodeBackup(t, node, "late"); e.Status != done.Phase || done.State != driver.BackupSucceeded && done.State != driver.BackupCancelled {
			t.Fatalf("the driver says %+v, the node %+v", done, e)
		}
		t.Logf("weaviate-server %s: a cancel of a small backup ended %s", version, done.Phase)
	})

	t.Run("a cancel of a backup that has ended is refused in words", func(t *testing.T) {
		err := d.CancelBackup(ctxT(t), "filesystem", "some")
		if !driver.IsKind(err, driver.KindConflict) || !strings.Contains(err.Error(), "already ended (SUCCESS)") {
			t.Fatalf("%v", err)
		}
	})

	t.Run("refusals are in words with their kinds", func(t *testing.T) {
		for _, c := range []struct {
			name string
			call func(context.Context) error
			kind driver.Kind
			says string
		}{
			{"an id taken", func(ctx context.Context) error {
				_, err := d.CreateBackup(ctx, "filesystem", driver.BackupRequest{ID: "some"})
				return err
			}, driver.KindConflict, `a backup with the id "some" already exists in filesystem`},
			{"an id the server does not accept", func(ctx context.Context) error {
				_, err := d.CreateBackup(ctx, "filesystem", driver.BackupRequest{ID: "Not Allowed"})
				return err
			}, driver.KindInvalidArgument, "lowercase letters, digits, _ and -"},
			{"a collection the server lacks", func(ctx context.Context) error {
				_, err := d.CreateBackup(ctx, "filesystem", driver.BackupRequest{ID: "nope", Tables: []string{"Nope"}})
				return err
			}, driver.KindNotFound, "collection Nope does not exist"},
			{"a backend the server has not enabled", func(ctx context.Context) error {
				_, err := d.CreateBackup(ctx, "s3", driver.BackupRequest{ID: "s3"})
				return err
			}, driver.KindUnsupported, `no "s3" backup backend: its module backup-s3 is not enabled`},
			{"a list of a backend the server has not enabled", func(ctx context.Context) error {
				_, err := d.ListBackups(ctx, "gcs")
				return err
			}, driver.KindUnsupported, `no "gcs" backup backend`},
			{"the status of a backup that is not there", func(ctx context.Context) error {
				_, err := d.BackupStatus(ctx, "filesystem", "missing")
				return err
			}, driver.KindNotFound, `there is no backup "missing" in filesystem`},
			{"a cancel of a backup that is not there", func(ctx context.Context) error {
				return d.CancelBackup(ctx, "filesystem", "missing")
			}, driver.KindNotFound, `there is no backup "missing"`},
			{"a restore of a backup that is not there", func(ctx context.Context) error {
				_, err := d.RestoreBackup(ctx, "filesystem", driver.BackupRequest{ID: "missing"})
				return err
			}, driver.KindNotFound, `there is no backup "missing"`},
			{"a restore of a collection the backup does not hold", func(ctx context.Context) error {
				_, err := d.PlanRestore(ctx, "filesystem", driver.BackupRequest{ID: "some", Tables: []string{"Gamma"}})
				return err
			}, driver.KindNotFound, `backup "some" holds no collection Gamma; it holds`},
			{"the status of a restore never started", func(ctx context.Context) error {
				_, err := d.RestoreStatus(ctx, "filesystem", "late")
				return err
			}, driver.KindNotFound, `no restore of backup "late" has been started`},
		} {
			t.Run(c.name, func(t *testing.T) {
				err := c.call(ctxT(t))
				if !driver.IsKind(err, c.kind) || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("%v (%s), want %s saying %q", err, driver.KindOf(err), c.kind, c.says)
				}
			})
		}
		if e := nodeBackup(t, node, "nope"); e.ID != "" {
			t.Fatalf("a refused backup is listed by the node: %+v", e)
		}
	})
}

// A server without a backup module keeps no backups: the connection says what it needs,
// and a call for a backend says which module is missing.
func TestAServerWithoutABackupModuleSaysWhatItNeeds(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	d := open(t, n, nil)
	if _, err := d.BackupBackends(ctxT(t)); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "ENABLE_MODULES=backup-filesystem and BACKUP_FILESYSTEM_PATH") {
		t.Fatalf("backends: %v", err)
	}
	if _, err := d.ListBackups(ctxT(t), "filesystem"); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "backup-filesystem is not enabled") {
		t.Fatalf("list: %v", err)
	}
}

func sortedNames(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
