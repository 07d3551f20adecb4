package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/activity"
	"app/backend/core"
)

// maxActivityPage bounds one page of Settings, Activity log: the table asks for the rows it
// shows as it scrolls.
const maxActivityPage = 500

// ActivityAPI is Settings, Activity log (issue 11): the MCP requests the app recorded, filtered
// and paged for a virtualized table, a CSV export to a file the user picks in a native save
// dialog, and the chain check. Its exported methods are bound to the frontend
// (frontend/wailsjs/go/app/ActivityAPI).
type ActivityAPI struct {
	base
	log func() *activity.Log
}

// NewActivityAPI returns the facade over the activity log (log returns nil once it closed).
func NewActivityAPI(log func() *activity.Log) *ActivityAPI {
	return &ActivityAPI{log: log}
}

func (a *ActivityAPI) wire(c *core.Core) { a.log = c.Activity().Log }

// open returns the log with what is queued written, so a request just answered is listed.
func (a *ActivityAPI) open(ctx context.Context) (*activity.Log, error) {
	l := a.log()
	if l == nil {
		return nil, unavailable("the activity log is closed")
	}
	if err := l.Flush(ctx); err != nil {
		return nil, apiError(err)
	}
	return l, nil
}

// List returns one page of the entries the query chooses, newest first, and how many there
// are in all.
func (a *ActivityAPI) List(q dto.ActivityQueryDTO) (dto.ActivityPageDTO, error) {
	f, err := q.Filter(time.Now())
	if err != nil {
		return dto.ActivityPageDTO{}, invalidArgument("%s", err.Error())
	}
	f.Offset, f.Limit = max(q.Offset, 0), q.Limit
	if f.Limit <= 0 || f.Limit > maxActivityPage {
		f.Limit = maxActivityPage
	}
	ctx, cancel := a.callContext()
	defer cancel()
	l, err := a.open(ctx)
	if err != nil {
		return dto.ActivityPageDTO{}, err
	}
	entries, err := l.List(ctx, f)
	if err != nil {
		return dto.ActivityPageDTO{}, apiError(err)
	}
	count := f
	count.Offset, count.Limit = 0, 0
	total, err := l.Count(ctx, count)
	if err != nil {
		return dto.ActivityPageDTO{}, apiError(err)
	}
	out := dto.ActivityPageDTO{Entries: make([]dto.ActivityEntryDTO, 0, len(entries)), Total: total, Offset: f.Offset}
	for _, e := range entries {
		out.Entries = append(out.Entries, dto.FromEntry(e))
	}
	return out, nil
}

// Export writes the entries the query chooses, oldest first, as CSV to a file the user picks
// in a native save dialog. It returns the file's path, or "" when the user cancelled.
func (a *ActivityAPI) Export(q dto.ActivityQueryDTO) (string, error) {
	f, err := q.Filter(time.Now())
	if err != nil {
		return "", invalidArgument("%s", err.Error())
	}
	save := a.env().files.Save
	if save == nil {
		return "", unavailable("exporting needs the window")
	}
	path, err := save(a.parent(), "Export the activity log", "app-activity-"+time.Now().Format("2006-01-02")+".csv", []nativedialog.FileFilter{{Name: "CSV (*.csv)", Pattern: "*.csv"}})
	if err != nil || path == "" {
		return "", apiError(err)
	}
	ctx, cancel := a.callContext()
	defer cancel()
	l, err := a.open(ctx)
	if err != nil {
		return "", err
	}
	if err := writeCSVFile(ctx, l, path, f); err != nil {
		return "", apiError(fmt.Errorf("export to %s: %w", path, err))
	}
	return path, nil
}

// writeCSVFile writes the CSV next to path and renames it into place (0600: the log names
// tokens and statements), so a failed export leaves no half file.
func writeCSVFile(ctx context.Context, l *activity.Log, path string, f activity.Filter) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".activity-export-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := l.WriteCSV(ctx, tmp, f); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Verify checks the hash chain and names the first broken link.
func (a *ActivityAPI) Verify() (dto.ChainCheckDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	l, err := a.open(ctx)
	if err != nil {
		return dto.ChainCheckDTO{}, err
	}
	v, err := l.Verify(ctx)
	if err != nil {
		return dto.ChainCheckDTO{}, apiError(err)
	}
	return dto.FromVerification(v), nil
}
