package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"app/backend/driver"
)

// Backups (issue 40, item 5) over Weaviate's REST API: a backend is a backup module the server
// has enabled (ENABLE_MODULES=backup-filesystem, with BACKUP_FILESYSTEM_PATH on the server's
// own disk; backup-s3, backup-gcs and backup-azure take the same calls), named without its
// "backup-" prefix. POST /v1/backups/{backend} starts a backup and GET
// /v1/backups/{backend}/{id} reports it, DELETE cancels it; POST
// /v1/backups/{backend}/{id}/restore starts a restore and GET on the same path reports it;
// GET /v1/backups/{backend} lists them. Both releases the harness runs (1.35.2 and 1.39.0)
// answer these alike (1.39.0 adds a backup's size to its status read, and a restore's
// TRANSFERRING and FINALIZING phases).

var _ driver.Backups = (*Driver)(nil)

// backupModules are the backup modules this driver knows, by backend name, in the order they
// are offered (the server's own disk first: nothing to set up beyond a directory), with what
// each one is in words and the field of its /v1/meta entry that says where it writes.
var backupModules = []struct{ name, label, where string }{
	{"filesystem", "the database server's disk", "backupsPath"},
	{"s3", "an S3 bucket", "bucketName"},
	{"gcs", "a Google Cloud Storage bucket", "bucketName"},
	{"azure", "an Azure Blob Storage container", "containerName"},
}

// BackupBackends are the backup modules the server has enabled (its /v1/meta's modules).
func (d *Driver) BackupBackends(ctx context.Context) ([]driver.BackupBackend, error) {
	st, body, err := d.call(ctx, http.MethodGet, "/v1/meta", nil, nil)
	if err != nil {
		return nil, err
	}
	if st != http.StatusOK {
		return nil, d.statusError(st, body, "/v1/meta")
	}
	var meta struct {
		Modules map[string]map[string]any `json:"modules"`
	}
	if err := json.Unmarshal(body, &meta); err != nil {
		return nil, driver.Wrap(driver.KindQueryFailed, err, "the answer of %s to /v1/meta cannot be read", d.hostTxt)
	}
	var out []driver.BackupBackend
	for _, m := range backupModules {
		info, ok := meta.Modules["backup-"+m.name]
		if !ok {
			continue
		}
		b := driver.BackupBackend{Name: m.name, Label: m.label}
		if w, ok := info[m.where].(string); ok {
			b.Where = w
			if root, ok := info["rootName"].(string); ok && root != "" {
				b.Where += "/" + root
			}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, errNoBackupModule(d.hostTxt)
	}
	return out, nil
}

// errNoBackupModule says what a server without a backup module needs.
func errNoBackupModule(host string) error {
	return driver.Errorf(driver.KindUnsupported, "the Weaviate server at %s has no backup module enabled, so it keeps no backups: start it with ENABLE_MODULES=backup-filesystem and BACKUP_FILESYSTEM_PATH set to a directory on its disk (or enable backup-s3, backup-gcs or backup-azure)", host)
}

// backupPath is /v1/backups/{backend}[/{id}[/restore]], each part escaped.
func backupPath(backend string, parts ...string) (string, error) {
	if backend == "" {
		return "", driver.Errorf(driver.KindInvalidArgument, "no backup backend named (Weaviate: filesystem, s3, gcs or azure)")
	}
	p := "/v1/backups/" + escapePath(backend)
	for _, s := range parts {
		if s == "" {
			return "", driver.Errorf(driver.KindInvalidArgument, "no backup id named")
		}
		p += "/" + escapePath(s)
	}
	return p, nil
}

// backupAnswer is a backup as Weaviate reports it: its list's items, a create's and a
// restore's answer, and their status reads share these fields.
type backupAnswer struct {
	ID          string   `json:"id"`
	Backend     string   `json:"backend"`
	Classes     []string `json:"classes"`
	Status      string   `json:"status"`
	StartedAt   string   `json:"startedAt"`
	CompletedAt string   `json:"completedAt"`
	// Size is in GiB (the data before compression): 1.39.0 reports it in a status read too.
	Size  float64 `json:"size"`
	Path  string  `json:"path"`
	Error string  `json:"error"`
}

// backupStates are Weaviate's phases in the host's words; any phase not here (a later
// release's) is taken as still running, so that a caller keeps asking rather than report an
// end that did not come.
var backupStates = map[string]driver.BackupState{
	"SUCCESS":  driver.BackupSucceeded,
	"FAILED":   driver.BackupFailed,
	"CANCELED": driver.BackupCancelled,
}

func (a backupAnswer) backup(backend string) *driver.Backup {
	b := &driver.Backup{ID: a.ID, Backend: backend, Tables: a.Classes, Phase: a.Status, Where: a.Path, Error: a.Error,
		Started: backupTime(a.StartedAt), Completed: backupTime(a.CompletedAt)}
	if len(b.Tables) == 0 {
		b.Tables = nil
	}
	b.State = driver.BackupRunning
	if s, ok := backupStates[a.Status]; ok {
		b.State = s
	}
	if a.Size > 0 {
		b.Bytes = int64(math.Round(a.Size * (1 << 30)))
	}
	return b
}

// backupTime reads a time of a backup answer; Weaviate writes year 1 for "not yet".
func backupTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || t.Year() <= 1 {
		return time.Time{}
	}
	return t.UTC()
}

// backupCall sends one backup request and reads its answer into out (nil: none expected),
// with Weaviate's refusals in words.
func (d *Driver) backupCall(ctx context.Context, method, path, backend, id string, body any, out any) error {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return driver.Wrap(driver.KindInvalidArgument, err, "the backup request cannot be written")
		}
	}
	st, answer, err := d.call(ctx, method, path, nil, data)
	if err != nil {
		return err
	}
	if st < 200 || st > 299 {
		return d.backupError(st, answer, path, backend, id)
	}
	if out == nil || len(answer) == 0 {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return driver.Wrap(driver.KindQueryFailed, err, "the answer of %s to %s cannot be read", d.hostTxt, path)
	}
	return nil
}

var (
	// noBackend: "no backup backend "s3": backup: s3 not found, did you enable the right
	// module?" (a create, a restore, 1.39.0's list) or "backup: s3 not found" (1.35.2's list).
	noBackend = regexp.MustCompile(`no backup (backend|provider)|backup: \S+ not found|did you enable the right module`)
	// noClass: "class Nope doesn't exist" (a create naming a collection the server lacks).
	noClass = regexp.MustCompile(`class (\S+) doesn't exist$`)
	// notInBackup: "class X doesn't exist in the backup, but does have [A B]: ".
	notInBackup = regexp.MustCompile(`class (\S+) doesn't exist in the backup, but does have \[([^\]]*)\]`)
)

// backupError says in words why Weaviate refused a backup call.
func (d *Driver) backupError(status int, body []byte, path, backend, id string) error {
	msg := d.redact(serverMessage([]byte(d.redact(string(body)))))
	switch {
	case status == http.StatusForbidden || status == http.StatusUnauthorized:
		return d.statusError(status, body, path)
	case noBackend.MatchString(msg):
		return driver.Errorf(driver.KindUnsupported, "the Weaviate server at %s has no %q backup backend: its module backup-%s is not enabled (ENABLE_MODULES)", d.hostTxt, backend, backend)
	// A cancelled backup's id is meant to be free again, but both releases then fail their
	// own check, answering "check if backup "x" exists at "...": %!w(<nil>)": taken all the same.
	case strings.Contains(msg, "already exists at"), strings.Contains(msg, "check if backup") && strings.Contains(msg, "%!w(<nil>)"):
		return driver.Errorf(driver.KindConflict, "a backup with the id %q already exists in %s; choose another id (Weaviate keeps a backup's id for good, a cancelled or failed one's too)", id, backend)
	case strings.Contains(msg, "invalid backup id"):
		return driver.Errorf(driver.KindInvalidArgument, "%q is not a backup id Weaviate accepts: use lowercase letters, digits, _ and -", id)
	case strings.Contains(msg, "already in progress"):
		return driver.Errorf(driver.KindConflict, "the server is already running a backup or a restore (%s); wait for it to end, or cancel it", msg)
	case strings.Contains(msg, "already succeeded"):
		return driver.Errorf(driver.KindConflict, "backup %q has already finished: there is nothing to cancel", id)
	}
	if m := notInBackup.FindStringSubmatch(msg); m != nil {
		return driver.Errorf(driver.KindNotFound, "backup %q holds no collection %s; it holds %s", id, m[1], strings.Join(strings.Fields(m[2]), ", "))
	}
	if m := noClass.FindStringSubmatch(msg); m != nil {
		return driver.Errorf(driver.KindNotFound, "collection %s does not exist, so it cannot be backed up", m[1])
	}
	if status == http.StatusNotFound {
		if strings.Contains(msg, "restore_config") {
			return driver.Errorf(driver.KindNotFound, "no restore of backup %q has been started in %s", id, backend)
		}
		return driver.Errorf(driver.KindNotFound, "there is no backup %q in %s", id, backend)
	}
	return d.statusError(status, body, path)
}

// ListBackups lists a backend's backups, newest first.
func (d *Driver) ListBackups(ctx context.Context, backend string) ([]driver.Backup, error) {
	path, err := backupPath(backend)
	if err != nil {
		return nil, err
	}
	var list []backupAnswer
	if err := d.backupCall(ctx, http.MethodGet, path, backend, "", nil, &list); err != nil {
		return nil, err
	}
	out := make([]driver.Backup, len(list))
	for i, a := range list {
		out[i] = *a.backup(backend)
	}
	// Newest first, whatever order the release lists them in; an id breaks a tie.
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.After(out[j].Started)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// newBackupID is the id a backup gets when none is asked for: the time it starts, in the
// characters Weaviate accepts (lowercase letters, digits, _ and -).
func newBackupID(now time.Time) string {
	return "app-" + now.UTC().Format("20060102-150405")
}

// CreateBackup starts a backup of req.Tables (none: every collection).
func (d *Driver) CreateBackup(ctx context.Context, backend string, req driver.BackupRequest) (*driver.Backup, error) {
	path, err := backupPath(backend)
	if err != nil {
		return nil, err
	}
	if req.ID == "" {
		req.ID = newBackupID(time.Now())
	}
	body := map[string]any{"id": req.ID}
	if len(req.Tables) > 0 {
		body["include"] = req.Tables
	}
	var a backupAnswer
	if err := d.backupCall(ctx, http.MethodPost, path, backend, req.ID, body, &a); err != nil {
		return nil, err
	}
	return a.backup(backend), nil
}

// BackupStatus reads a backup's phase.
func (d *Driver) BackupStatus(ctx context.Context, backend, id string) (*driver.Backup, error) {
	path, err := backupPath(backend, id)
	if err != nil {
		return nil, err
	}
	var a backupAnswer
	if err := d.backupCall(ctx, http.MethodGet, path, backend, id, nil, &a); err != nil {
		return nil, err
	}
	return a.backup(backend), nil
}

// CancelBackup asks the server to stop a backup. The status is read first: 1.35.2 answers a
// cancel of an id it never had with success, and a backup that has ended is said to have.
func (d *Driver) CancelBackup(ctx context.Context, backend, id string) error {
	b, err := d.BackupStatus(ctx, backend, id)
	if err != nil {
		return err
	}
	switch b.State {
	case driver.BackupCancelled:
		return nil
	case driver.BackupSucceeded, driver.BackupFailed:
		return driver.Errorf(driver.KindConflict, "backup %q has already ended (%s): there is nothing to cancel", id, b.Phase)
	}
	path, _ := backupPath(backend, id)
	return d.backupCall(ctx, http.MethodDelete, path, backend, id, nil, nil)
}

// restoreNote is what the person is told of every Weaviate restore.
const restoreNote = "Weaviate restores a collection only where none of its name exists: it overwrites nothing, and refuses a restore that meets an existing collection. Roles and users are not restored."

// PlanRestore says what restoring req.Tables of a backup would do: it reads the backup from
// the backend's list (a status read does not name its collections) and the collections the
// server has now. A collection that exists, by its name or by one that differs only in case
// (1.39.0 refuses those too, since their data would share a directory), is refused.
func (d *Driver) PlanRestore(ctx context.Context, backend string, req driver.BackupRequest) (*driver.RestorePlan, error) {
	if req.ID == "" {
		return nil, driver.Errorf(driver.KindInvalidArgument, "no backup id named")
	}
	list, err := d.ListBackups(ctx, backend)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(list, func(b driver.Backup) bool { return b.ID == req.ID })
	if i < 0 {
		return nil, driver.Errorf(driver.KindNotFound, "there is no backup %q in %s", req.ID, backend)
	}
	b := list[i]
	if b.State != driver.BackupSucceeded {
		return nil, driver.Errorf(driver.KindConflict, "backup %q is %s: only a finished backup (SUCCESS) can be restored", req.ID, b.Phase)
	}
	tables := slices.Sorted(slices.Values(b.Tables))
	if len(req.Tables) > 0 {
		for _, t := range req.Tables {
			if !slices.Contains(b.Tables, t) {
				return nil, driver.Errorf(driver.KindNotFound, "backup %q holds no collection %s; it holds %s", req.ID, t, strings.Join(b.Tables, ", "))
			}
		}
		tables = req.Tables
	}
	if err := d.loadSchema(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	existing := slices.Clone(d.order)
	d.mu.Unlock()
	plan := &driver.RestorePlan{ID: req.ID, Backend: backend, Tables: slices.Clone(tables), Creates: []string{}, Overwrites: []string{}, Note: restoreNote}
	for _, t := range tables {
		j := slices.IndexFunc(existing, func(e string) bool { return strings.EqualFold(e, t) })
		if j < 0 {
			plan.Creates = append(plan.Creates, t)
			continue
		}
		reason := "exists: delete it first, or leave it out of the restore"
		if existing[j] != t {
			reason = fmt.Sprintf("%s exists, a name that differs only in case: delete it first, or leave %s out of the restore", existing[j], t)
		}
		plan.Refused = append(plan.Refused, driver.RestoreRefusal{Table: t, Reason: reason})
	}
	return plan, nil
}

// RestoreBackup starts the restore its plan describes, naming its collections (so the server
// restores exactly those); a plan that meets an existing collection is refused, since the
// server would restore the others and then fail.
func (d *Driver) RestoreBackup(ctx context.Context, backend string, req driver.BackupRequest) (*driver.Backup, error) {
	plan, err := d.PlanRestore(ctx, backend, req)
	if err != nil {
		return nil, err
	}
	if len(plan.Refused) > 0 {
		names := make([]string, len(plan.Refused))
		for i, r := range plan.Refused {
			names[i] = r.Table
		}
		return nil, driver.Errorf(driver.KindConflict, "backup %q cannot be restored over collections that exist: %s. Weaviate restores no collection over an existing one (it would restore the others and fail): delete them first, or leave them out", req.ID, strings.Join(names, ", "))
	}
	path, _ := backupPath(backend, req.ID, "restore")
	var a backupAnswer
	if err := d.backupCall(ctx, http.MethodPost, path, backend, req.ID, map[string]any{"include": plan.Tables}, &a); err != nil {
		return nil, err
	}
	d.invalidateSchema()
	return a.backup(backend), nil
}

// classExists reads "class name X already exists" from a failed restore's error.
var classExists = regexp.MustCompile(`class name (\S+) already exists`)

// RestoreStatus reads a restore's phase; a restore that failed on a collection that exists
// says so in words.
func (d *Driver) RestoreStatus(ctx context.Context, backend, id string) (*driver.Backup, error) {
	path, err := backupPath(backend, id, "restore")
	if err != nil {
		return nil, err
	}
	var a backupAnswer
	if err := d.backupCall(ctx, http.MethodGet, path, backend, id, nil, &a); err != nil {
		return nil, err
	}
	b := a.backup(backend)
	if m := classExists.FindAllStringSubmatch(b.Error, -1); m != nil {
		names := make([]string, len(m))
		for i, x := range m {
			names[i] = x[1]
		}
		b.Error = fmt.Sprintf("collections that exist were not restored: %s (Weaviate restores no collection over an existing one); the backup's other collections were restored", strings.Join(names, ", "))
	}
	if b.Done() {
		d.invalidateSchema()
	}
	return b, nil
}
