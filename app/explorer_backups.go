package app

import (
	"context"
	"fmt"
	"strings"

	"app/app/dto"
	"app/backend/driver"
)

// The connection page's backups (issue 40, item 5): the database's own backup machinery,
// reached through the contract's optional driver.Backups. A backup runs inside the database:
// each call returns at once and the window asks for the status until it ends. A restore is put
// to the person first, in a native dialog that names what it creates and what it overwrites
// (the driver's plan); No sends nothing. No MCP tool reaches any of this: writes of this size
// are the person's.

// backups is the open connection's driver.Backups, or the unsupported error.
func (a *ExplorerAPI) backups(id string) (driver.Backups, error) {
	d, err := a.driver(id)
	if err != nil {
		return nil, err
	}
	b, ok := d.(driver.Backups)
	if !ok {
		return nil, apiError(driver.Errorf(driver.KindUnsupported, "this connection's driver cannot back up its database"))
	}
	return b, nil
}

// Backups lists where the connection's database keeps backups and the backups at backend
// ("": the first place). Never null.
func (a *ExplorerAPI) Backups(id, backend string) (dto.BackupsDTO, error) {
	b, err := a.backups(id)
	if err != nil {
		return dto.BackupsDTO{}, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	backends, err := b.BackupBackends(ctx)
	if err != nil {
		return dto.BackupsDTO{}, apiError(err)
	}
	if backends == nil {
		backends = []driver.BackupBackend{}
	}
	out := dto.BackupsDTO{Backends: backends, Backups: []dto.BackupDTO{}}
	if backend == "" && len(backends) > 0 {
		backend = backends[0].Name
	}
	if backend == "" {
		return out, nil
	}
	list, err := b.ListBackups(ctx, backend)
	if err != nil {
		return dto.BackupsDTO{}, apiError(err)
	}
	out.Backups = dto.FromBackups(list)
	return out, nil
}

// CreateBackup starts a backup of tables (none: every table) at backend and returns it as the
// database took it; BackupStatus follows it.
func (a *ExplorerAPI) CreateBackup(id, backend string, tables []string) (dto.BackupDTO, error) {
	return a.backupCall(id, func(ctx context.Context, b driver.Backups) (*driver.Backup, error) {
		return b.CreateBackup(ctx, backend, driver.BackupRequest{Tables: tables})
	})
}

// BackupStatus is a backup's phase now.
func (a *ExplorerAPI) BackupStatus(id, backend, backupID string) (dto.BackupDTO, error) {
	return a.backupCall(id, func(ctx context.Context, b driver.Backups) (*driver.Backup, error) {
		return b.BackupStatus(ctx, backend, backupID)
	})
}

// RestoreStatus is a restore's phase now.
func (a *ExplorerAPI) RestoreStatus(id, backend, backupID string) (dto.BackupDTO, error) {
	return a.backupCall(id, func(ctx context.Context, b driver.Backups) (*driver.Backup, error) {
		return b.RestoreStatus(ctx, backend, backupID)
	})
}

// CancelBackup asks the database to stop a running backup; BackupStatus then says whether it
// stopped or had already finished.
func (a *ExplorerAPI) CancelBackup(id, backend, backupID string) error {
	b, err := a.backups(id)
	if err != nil {
		return err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(b.CancelBackup(ctx, backend, backupID))
}

func (a *ExplorerAPI) backupCall(id string, call func(context.Context, driver.Backups) (*driver.Backup, error)) (dto.BackupDTO, error) {
	b, err := a.backups(id)
	if err != nil {
		return dto.BackupDTO{}, err
	}
	ctx, cancel := a.callContext()
	defer cancel()
	out, err := call(ctx, b)
	if err != nil {
		return dto.BackupDTO{}, apiError(err)
	}
	return dto.FromBackup(*out), nil
}

// RestoreBackup restores tables (none: every table the backup holds) of backup backupID, after
// the person says yes to a native question that names what the restore creates and what it
// overwrites, as the driver's plan says. A plan the database refuses is refused here, naming
// each table, without asking; No (or no dialog to ask in) sends nothing.
func (a *ExplorerAPI) RestoreBackup(id, backend, backupID string, tables []string) (dto.RestoreResultDTO, error) {
	b, err := a.backups(id)
	if err != nil {
		return dto.RestoreResultDTO{}, err
	}
	req := driver.BackupRequest{ID: backupID, Tables: tables}
	ctx, cancel := a.callContext()
	plan, err := b.PlanRestore(ctx, backend, req)
	cancel()
	if err != nil {
		return dto.RestoreResultDTO{}, apiError(err)
	}
	out := dto.RestoreResultDTO{Plan: *plan}
	if len(plan.Refused) > 0 {
		var why []string
		for _, r := range plan.Refused {
			why = append(why, r.Table+": "+r.Reason)
		}
		return out, apiError(driver.Errorf(driver.KindConflict, "the restore of %s cannot run: %s", backupID, strings.Join(why, "; ")))
	}
	// Asked before the call's time limit starts: a person who takes a while to answer must
	// not find the restore timed out.
	e := a.env()
	if e.confirm == nil {
		out.Declined = true
		return out, nil
	}
	yes, err := e.confirm.Confirm(e.ctx, "Restore a backup of "+a.quotedName(id), RestoreQuestion(*plan))
	if err != nil {
		return out, apiError(err)
	}
	if !yes {
		out.Declined = true
		return out, nil
	}
	ctx, cancel = a.callContext()
	defer cancel()
	started, err := b.RestoreBackup(ctx, backend, req)
	if err != nil {
		return out, apiError(err)
	}
	r := dto.FromBackup(*started)
	out.Restore = &r
	return out, nil
}

// RestoreQuestion is the native question of a restore: what it creates and what it
// overwrites, both said even when empty, and the driver's note.
func RestoreQuestion(p driver.RestorePlan) string {
	list := func(ts []string) string {
		if len(ts) == 0 {
			return "nothing"
		}
		return strings.Join(ts, ", ")
	}
	msg := fmt.Sprintf("Restore backup %s from %s?\n\nCreates: %s\nOverwrites: %s", p.ID, p.Backend, list(p.Creates), list(p.Overwrites))
	if p.Note != "" {
		msg += "\n\n" + p.Note
	}
	return msg
}
