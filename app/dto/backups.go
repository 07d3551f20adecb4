package dto

import (
	"time"

	"app/backend/driver"
)

// BackupsDTO is what the connection page's Backups section shows: the places the database
// keeps backups (the default first) and the default place's backups, newest first. Never null.
type BackupsDTO struct {
	Backends []driver.BackupBackend `json:"backends"`
	Backups  []BackupDTO            `json:"backups"`
}

// BackupDTO is driver.Backup with its times as RFC 3339 text ("" not known or not yet).
type BackupDTO struct {
	ID        string             `json:"id"`
	Backend   string             `json:"backend"`
	Tables    []string           `json:"tables"`
	State     driver.BackupState `json:"state"`
	Phase     string             `json:"phase"`
	Started   string             `json:"started"`
	Completed string             `json:"completed"`
	Bytes     int64              `json:"bytes"`
	Where     string             `json:"where"`
	Error     string             `json:"error"`
}

// FromBackup is a backup or a restore as the window shows it.
func FromBackup(b driver.Backup) BackupDTO {
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	return BackupDTO{ID: b.ID, Backend: b.Backend, Tables: nonNil(b.Tables), State: b.State, Phase: b.Phase,
		Started: stamp(b.Started), Completed: stamp(b.Completed), Bytes: b.Bytes, Where: b.Where, Error: b.Error}
}

// FromBackups lists backups (never null).
func FromBackups(bs []driver.Backup) []BackupDTO {
	out := make([]BackupDTO, len(bs))
	for i, b := range bs {
		out[i] = FromBackup(b)
	}
	return out
}

// RestoreResultDTO is RestoreBackup's answer: the restore as started, or Declined when the
// person said No to the native question naming what it creates and overwrites (nothing was
// sent). Plan is what was put to the person.
type RestoreResultDTO struct {
	Restore  *BackupDTO         `json:"restore"`
	Plan     driver.RestorePlan `json:"plan"`
	Declined bool               `json:"declined"`
}
