package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

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
func (a *ActivityAPI) List(q ActivityQueryDTO) (ActivityPageDTO, error) {
	f, err := q.filter(time.Now())
	if err != nil {
		return ActivityPageDTO{}, err
	}
	f.Offset, f.Limit = max(q.Offset, 0), q.Limit
	if f.Limit <= 0 || f.Limit > maxActivityPage {
		f.Limit = maxActivityPage
	}
	ctx, cancel := a.callContext()
	defer cancel()
	l, err := a.open(ctx)
	if err != nil {
		return ActivityPageDTO{}, err
	}
	entries, err := l.List(ctx, f)
	if err != nil {
		return ActivityPageDTO{}, apiError(err)
	}
	count := f
	count.Offset, count.Limit = 0, 0
	total, err := l.Count(ctx, count)
	if err != nil {
		return ActivityPageDTO{}, apiError(err)
	}
	out := ActivityPageDTO{Entries: make([]ActivityEntryDTO, 0, len(entries)), Total: total, Offset: f.Offset}
	for _, e := range entries {
		out.Entries = append(out.Entries, ActivityEntryDTO{
			ID: e.ID, Time: e.Time.UTC().Format(time.RFC3339Nano), ClientName: e.ClientName, ClientVersion: e.ClientVersion,
			Principal: e.Principal, TokenName: e.TokenName, Level: e.Level, Method: e.Method, Name: e.Name,
			Connection: e.Connection, Statement: e.Statement, Outcome: e.Outcome, DurationMS: e.DurationMS,
			PrevHash: e.PrevHash, Hash: e.Hash, Trace: e.Trace,
		})
	}
	return out, nil
}

// Export writes the entries the query chooses, oldest first, as CSV to a file the user picks
// in a native save dialog. It returns the file's path, or "" when the user cancelled.
func (a *ActivityAPI) Export(q ActivityQueryDTO) (string, error) {
	f, err := q.filter(time.Now())
	if err != nil {
		return "", err
	}
	save := a.env().files.Save
	if save == nil {
		return "", unavailable("exporting needs the window")
	}
	path, err := save(a.parent(), "Export the activity log", "app-activity-"+time.Now().Format("2006-01-02")+".csv", []FileFilter{{"CSV (*.csv)", "*.csv"}})
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
func (a *ActivityAPI) Verify() (VerificationDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	l, err := a.open(ctx)
	if err != nil {
		return VerificationDTO{}, err
	}
	v, err := l.Verify(ctx)
	if err != nil {
		return VerificationDTO{}, apiError(err)
	}
	d := VerificationDTO{Entries: v.Entries, AnchorID: v.AnchorID, Intact: v.Intact()}
	if v.Broken != nil {
		d.BrokenID, d.Reason = v.Broken.ID, v.Broken.Reason
	}
	return d, nil
}

func (q ActivityQueryDTO) filter(now time.Time) (activity.Filter, error) {
	f := activity.Filter{
		Client: strings.TrimSpace(q.Client), Token: strings.TrimSpace(q.Token), Connection: strings.TrimSpace(q.Connection),
		Outcome: strings.TrimSpace(q.Outcome), Search: q.Search,
	}
	var err error
	if f.Since, err = activity.ParseWhen(q.Since, now); err != nil {
		return f, invalidArgument("since: %s", err.Error())
	}
	if f.Until, err = activity.ParseWhen(q.Until, now); err != nil {
		return f, invalidArgument("until: %s", err.Error())
	}
	return f, nil
}
