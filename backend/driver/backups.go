package driver

import (
	"context"
	"time"
)

// Backups is what a driver offers beyond the contract to back up its database and restore it,
// with the database's own backup machinery (Weaviate: its backup modules, /v1/backups). The
// work runs inside the database, not in the app: CreateBackup and RestoreBackup return at once
// with the backup's id, and BackupStatus and RestoreStatus report its phase until it ends, so
// a window or a command line can show progress, and leave, and come back.
//
// Backends. Where the database keeps backups is its own business, named by the driver:
// BackupBackends lists the ones this connection offers now, the first the default (Weaviate:
// each backup module the server has enabled, "filesystem" for backup-filesystem, which writes
// under the server's BACKUP_FILESYSTEM_PATH on the server's own disk). A database that offers
// none answers a KindUnsupported error that says what it needs.
//
// Restores overwrite nothing unasked. PlanRestore says, before anything is sent, which tables
// a restore would create, which it would overwrite and which the database refuses, and the
// host puts that to the person before RestoreBackup (the CLI's confirmation names them);
// RestoreBackup refuses (KindConflict) a restore its plan refuses. Weaviate (1.35.2 and 1.39.0
// alike) restores a collection only where none of that name exists: it overwrites nothing.
// Asked to restore over an existing collection, the server accepts the request, restores the
// backup's other collections, and then fails the whole restore with "class name X already
// exists", so the Weaviate driver refuses such a restore up front, naming each collection
// that exists (delete it first, or leave it out), rather than half-restore it.
//
// Cancel is a request, not a guarantee: the database may have finished already. Weaviate
// (1.35.2 and 1.39.0 alike) stops a backup while the server still copies its data (CANCELED),
// but answers a cancel of one whose data is already written with success and lets it run on
// to SUCCESS (a small collection's is written within milliseconds of the start, so there the
// cancel races it). BackupStatus says which happened. A cancelled backup stays listed
// (CANCELED) and its id stays taken.
//
// Errors are in words, each with its kind: a backend the database has not enabled
// (KindUnsupported), an id already taken (KindConflict: a database may keep a cancelled or
// failed backup's id for good), an unknown backup (KindNotFound), a table the database does
// not have (KindNotFound), an id it does not accept (KindInvalidArgument).
type Backups interface {
	// BackupBackends are the places this connection can keep backups, the default first.
	BackupBackends(ctx context.Context) ([]BackupBackend, error)
	// ListBackups lists the backend's backups, newest first, finished or not.
	ListBackups(ctx context.Context, backend string) ([]Backup, error)
	// CreateBackup starts a backup of req.Tables (none: every table) under req.ID ("": the
	// driver makes one) and returns as soon as the database has taken it.
	CreateBackup(ctx context.Context, backend string, req BackupRequest) (*Backup, error)
	// BackupStatus is a backup's phase now (its progress).
	BackupStatus(ctx context.Context, backend, id string) (*Backup, error)
	// CancelBackup asks the database to stop a running backup. A backup already cancelled is
	// no error; one that has finished is a KindConflict error.
	CancelBackup(ctx context.Context, backend, id string) error
	// PlanRestore says what restoring req.Tables of backup req.ID (none: every table it
	// holds) would do, sending nothing.
	PlanRestore(ctx context.Context, backend string, req BackupRequest) (*RestorePlan, error)
	// RestoreBackup starts the restore PlanRestore describes and returns as soon as the
	// database has taken it; a plan with refusals is refused (KindConflict).
	RestoreBackup(ctx context.Context, backend string, req BackupRequest) (*Backup, error)
	// RestoreStatus is a restore's phase now.
	RestoreStatus(ctx context.Context, backend, id string) (*Backup, error)
}

// BackupBackend is one place a connection's database keeps backups.
type BackupBackend struct {
	// Name is the driver's name for it, the one each Backups call takes ("filesystem").
	Name string `json:"name"`
	// Label says what it is in words ("the server's disk").
	Label string `json:"label"`
	// Where is where it writes, as the database reports it (a directory on the database
	// server's machine, a bucket), when it says.
	Where string `json:"where,omitempty"`
}

// BackupRequest names a backup and the tables a create or a restore covers.
type BackupRequest struct {
	// ID is the backup's id: for a create, "" lets the driver make one.
	ID string `json:"id"`
	// Tables are the tables covered; none means all (a create: every table; a restore: every
	// table the backup holds).
	Tables []string `json:"tables,omitempty"`
}

// BackupState is where a backup or a restore is, in the host's words; Backup.Phase keeps the
// database's own.
type BackupState string

// A backup's or a restore's states.
const (
	BackupRunning   BackupState = "running"
	BackupSucceeded BackupState = "succeeded"
	BackupFailed    BackupState = "failed"
	BackupCancelled BackupState = "cancelled"
)

// Backup is one backup, or one restore of it, as the database reports it.
type Backup struct {
	ID      string `json:"id"`
	Backend string `json:"backend"`
	// Tables are the tables it holds (a restore: the ones it restores), where the answer
	// names them.
	Tables []string    `json:"tables,omitempty"`
	State  BackupState `json:"state"`
	// Phase is the database's own word for where it is (Weaviate: STARTED, TRANSFERRING,
	// TRANSFERRED, FINALIZING, SUCCESS, FAILED, CANCELLING, CANCELED).
	Phase string `json:"phase"`
	// Started and Completed are zero where not known (a restore's, on Weaviate) or not yet.
	Started   time.Time `json:"started,omitzero"`
	Completed time.Time `json:"completed,omitzero"`
	// Bytes is its size where the database reports one (Weaviate: the data it holds before
	// compression, once the backup's descriptor has it, a moment after it ends; 1.35.2 says it
	// in its list only), else 0.
	Bytes int64 `json:"bytes,omitempty"`
	// Where is where it is kept (a directory on the database server's machine), when said.
	Where string `json:"where,omitempty"`
	// Error is why it failed or stopped, in words.
	Error string `json:"error,omitempty"`
}

// Done reports whether the backup or restore has ended, however it ended.
func (b Backup) Done() bool { return b.State != BackupRunning && b.State != "" }

// RestorePlan is what a restore would do, before it is sent.
type RestorePlan struct {
	ID      string `json:"id"`
	Backend string `json:"backend"`
	// Tables are the tables it restores: those asked for, in their order, or (none asked for)
	// every table the backup holds, by name.
	Tables []string `json:"tables"`
	// Creates are those it makes anew (none of that name exists now); Overwrites those whose
	// present rows it replaces (Weaviate: never).
	Creates    []string `json:"creates"`
	Overwrites []string `json:"overwrites"`
	// Refused are those the database will not restore, each with why; a plan with any is
	// not sent.
	Refused []RestoreRefusal `json:"refused,omitempty"`
	// Note is what else the person should know before saying yes, in the driver's words.
	Note string `json:"note,omitempty"`
}

// RestoreRefusal is one table a restore cannot write, and why.
type RestoreRefusal struct {
	Table  string `json:"table"`
	Reason string `json:"reason"`
}
