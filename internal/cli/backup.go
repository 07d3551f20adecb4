package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"app/backend/driver"
)

// The backup commands (issue 40, item 5): the database's own backups of a saved connection,
// through its driver's driver.Backups. What a backend is, where it writes, and what a restore
// creates or overwrites are the driver's words, never this package's: the host knows no
// database by name. No MCP tool does any of this (writes of this size are the person's).

// backupPoll is how often a waiting create or restore asks for its status.
const backupPoll = 500 * time.Millisecond

func newBackupCmd(g *Globals) *cobra.Command {
	var backend string
	cmd := &cobra.Command{
		Use:   "backup",
		Short: "List, make, cancel and restore a connection's backups, with the database's own backup machinery",
		Long: `The database keeps its backups where the connection's driver says: its backends ('app backup
list' names the one it uses and where that writes, a directory on the database server's own
disk for a filesystem backend). --backend names one; the default is the first the connection
offers. A backup or a restore runs inside the database: the commands wait for it and show its
phase, or with --no-wait return at once with its id, to ask later with 'app backup status'.

A restore is confirmed first, naming what it creates and what it overwrites, as the driver
says (some databases restore no table over one that exists: such a restore is refused, naming
each table, and nothing is sent). AI clients cannot start, restore or cancel backups.`,
	}
	cmd.PersistentFlags().StringVar(&backend, "backend", "", "where the backups are kept (default: the first the connection offers)")
	cmd.AddCommand(newBackupListCmd(g, &backend), newBackupCreateCmd(g, &backend), newBackupStatusCmd(g, &backend),
		newBackupCancelCmd(g, &backend), newBackupRestoreCmd(g, &backend))
	return cmd
}

// backupSession is one command's open connection as a driver.Backups, with its backend chosen.
type backupSession struct {
	ctx     context.Context
	b       driver.Backups
	conn    string
	backend driver.BackupBackend
	done    func()
}

// openBackups opens a saved connection for a backup command and picks the backend: the one
// named, else the first its driver offers. A driver without backups, or a database that keeps
// none, is refused in the driver's words.
func openBackups(cmd *cobra.Command, g *Globals, idOrName, backend string) (*backupSession, error) {
	ctx, drv, conn, done, err := openConnection(cmd, g, idOrName)
	if err != nil {
		return nil, err
	}
	b, ok := drv.(driver.Backups)
	if caps := driver.Offered(drv); !ok || !caps.Offers(caps.Backups) {
		done()
		return nil, driver.Errorf(driver.KindUnsupported, "the driver of %s cannot make or restore backups", conn.Name)
	}
	offered, err := b.BackupBackends(ctx)
	if err != nil {
		done()
		return nil, err
	}
	s := &backupSession{ctx: ctx, b: b, conn: conn.Name, done: done}
	for _, o := range offered {
		if backend == "" || o.Name == backend {
			s.backend = o
			return s, nil
		}
	}
	done()
	if len(offered) == 0 {
		return nil, driver.Errorf(driver.KindUnsupported, "%s offers no place to keep backups", conn.Name)
	}
	names := make([]string, len(offered))
	for i, o := range offered {
		names[i] = o.Name
	}
	return nil, driver.Errorf(driver.KindNotFound, "%s offers no backup backend %q; it offers %s", conn.Name, backend, strings.Join(names, ", "))
}

// where is "filesystem (the database server's disk: /var/backups)".
func (s *backupSession) where() string {
	w := s.backend.Name
	switch {
	case s.backend.Label != "" && s.backend.Where != "":
		w += " (" + s.backend.Label + ": " + s.backend.Where + ")"
	case s.backend.Label != "":
		w += " (" + s.backend.Label + ")"
	}
	return w
}

func newBackupListCmd(g *Globals, backend *string) *cobra.Command {
	return &cobra.Command{
		Use:     "list CONNECTION",
		Short:   "List the backups a connection's database keeps, newest first",
		Example: "  app backup list local\n  app backup list local --backend filesystem --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openBackups(cmd, g, args[0], *backend)
			if err != nil {
				return err
			}
			defer s.done()
			list, err := s.b.ListBackups(s.ctx, s.backend.Name)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if g.json {
				return printJSON(w, map[string]any{"connection": s.conn, "backend": s.backend, "backups": list})
			}
			if len(list) == 0 {
				fmt.Fprintf(w, "no backups of %s in %s\n", s.conn, s.where())
				return nil
			}
			fmt.Fprintf(w, "backups of %s in %s:\n", s.conn, s.where())
			tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATE\tTABLES\tSTARTED\tTOOK\tSIZE")
			for _, b := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.ID, stateText(b), tablesText(b.Tables), timeText(b.Started), tookText(b), sizeText(b.Bytes))
			}
			return tw.Flush()
		},
	}
}

func newBackupCreateCmd(g *Globals, backend *string) *cobra.Command {
	var id string
	var tables []string
	var noWait bool
	cmd := &cobra.Command{
		Use:   "create CONNECTION",
		Short: "Back up some or all of a connection's tables, and wait for it (Ctrl-C cancels it)",
		Long: `Start a backup of the tables named with --tables (all of them without), under --id (the
driver makes one without), and wait for it to end, showing its phase. Ctrl-C asks the database to
cancel it; a database may finish a backup it has nearly done all the same, and the command says
how it ended. With --no-wait the command returns at once with the id.`,
		Example: `  app backup create local
  app backup create local --id before-import --tables Article,Author
  app backup create local --no-wait --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openBackups(cmd, g, args[0], *backend)
			if err != nil {
				return err
			}
			defer s.done()
			b, err := s.b.CreateBackup(s.ctx, s.backend.Name, driver.BackupRequest{ID: id, Tables: tables})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if !g.json {
				fmt.Fprintf(w, "backup %s of %s started in %s\n", b.ID, tablesWord(b.Tables), s.where())
			}
			if noWait {
				return s.printBackup(w, g, b, "started")
			}
			end, err := s.wait(cmd, "backup", b.ID, func(ctx context.Context) (*driver.Backup, error) {
				return s.b.BackupStatus(ctx, s.backend.Name, b.ID)
			}, func(ctx context.Context) error { return s.b.CancelBackup(ctx, s.backend.Name, b.ID) })
			if err != nil {
				return err
			}
			return s.ended(w, g, end, "backup")
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&id, "id", "", "the backup's id (default: one the driver makes)")
	fl.StringSliceVar(&tables, "tables", nil, "the tables to back up, comma-separated (default: all)")
	fl.BoolVar(&noWait, "no-wait", false, "return once the database has taken the backup, with its id")
	return cmd
}

func newBackupStatusCmd(g *Globals, backend *string) *cobra.Command {
	var restore bool
	cmd := &cobra.Command{
		Use:     "status CONNECTION ID",
		Short:   "Say where a backup (or with --restore, its restore) is now",
		Example: "  app backup status local before-import\n  app backup status local before-import --restore --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openBackups(cmd, g, args[0], *backend)
			if err != nil {
				return err
			}
			defer s.done()
			status, what := s.b.BackupStatus, "backup"
			if restore {
				status, what = s.b.RestoreStatus, "restore"
			}
			b, err := status(s.ctx, s.backend.Name, args[1])
			if err != nil {
				return err
			}
			return s.printBackup(cmd.OutOrStdout(), g, b, what)
		},
	}
	cmd.Flags().BoolVar(&restore, "restore", false, "the backup's restore instead")
	return cmd
}

func newBackupCancelCmd(g *Globals, backend *string) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel CONNECTION ID",
		Short: "Ask the database to stop a running backup",
		Long: `Ask the database to stop a running backup, and say where it is then. A database may finish
a backup it has nearly done all the same: 'app backup status' says how it ended.`,
		Example: "  app backup cancel local before-import",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openBackups(cmd, g, args[0], *backend)
			if err != nil {
				return err
			}
			defer s.done()
			if err := s.b.CancelBackup(s.ctx, s.backend.Name, args[1]); err != nil {
				return err
			}
			b, err := s.b.BackupStatus(s.ctx, s.backend.Name, args[1])
			if err != nil {
				return err
			}
			return s.printBackup(cmd.OutOrStdout(), g, b, "cancel asked: backup")
		},
	}
}

func newBackupRestoreCmd(g *Globals, backend *string) *cobra.Command {
	var tables []string
	var yes, noWait bool
	cmd := &cobra.Command{
		Use:   "restore CONNECTION ID",
		Short: "Restore some or all of a backup's tables, once you confirm what it creates and overwrites",
		Long: `Restore the tables named with --tables (all the backup holds without). The driver says first
what the restore would create and what it would overwrite, and the command asks you to confirm
that at the terminal (--yes confirms it for a script); a restore the database would refuse
(one over a table that exists, where the database restores none over an existing one) is
refused here, naming each table, and nothing is sent. Then it waits for the restore to end,
showing its phase; Ctrl-C stops waiting, not the restore.`,
		Example: `  app backup restore local before-import --tables Article
  app backup restore local before-import --yes --json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openBackups(cmd, g, args[0], *backend)
			if err != nil {
				return err
			}
			defer s.done()
			req := driver.BackupRequest{ID: args[1], Tables: tables}
			plan, err := s.b.PlanRestore(s.ctx, s.backend.Name, req)
			if err != nil {
				return err
			}
			if len(plan.Refused) > 0 {
				return refusedRestore(s.conn, plan)
			}
			if !yes {
				if err := confirm(cmd, restoreQuestion(s.conn, s.where(), plan)...); err != nil {
					return err
				}
			}
			b, err := s.b.RestoreBackup(s.ctx, s.backend.Name, req)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if noWait {
				return s.printRestore(w, g, plan, b)
			}
			if !g.json {
				fmt.Fprintf(w, "restore of %s from backup %s started\n", tablesWord(plan.Tables), b.ID)
			}
			end, err := s.wait(cmd, "restore", b.ID, func(ctx context.Context) (*driver.Backup, error) {
				return s.b.RestoreStatus(ctx, s.backend.Name, b.ID)
			}, nil)
			if err != nil {
				return err
			}
			if g.json {
				if err := s.printRestore(w, g, plan, end); err != nil {
					return err
				}
				if end.State != driver.BackupSucceeded {
					return silentFailure{endError(end, "restore")}
				}
				return nil
			}
			return s.ended(w, g, end, "restore")
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&tables, "tables", nil, "the tables to restore, comma-separated (default: all the backup holds)")
	fl.BoolVar(&yes, "yes", false, "confirm the restore without asking (scripts)")
	fl.BoolVar(&noWait, "no-wait", false, "return once the database has taken the restore")
	return cmd
}

// restoreQuestion is the confirmation of a restore: what it creates, what it overwrites (said
// even when nothing), and what else the driver says.
func restoreQuestion(conn, where string, p *driver.RestorePlan) []string {
	lines := []string{fmt.Sprintf("Restore backup %s from %s into %s:", p.ID, where, conn)}
	if len(p.Creates) > 0 {
		lines = append(lines, "  creates "+strings.Join(p.Creates, ", "))
	}
	if len(p.Overwrites) > 0 {
		lines = append(lines, "  OVERWRITES "+strings.Join(p.Overwrites, ", ")+": their present rows are replaced by the backup's")
	} else {
		lines = append(lines, "  overwrites nothing")
	}
	if p.Note != "" {
		lines = append(lines, "  "+p.Note)
	}
	return append(lines, "Restore it?")
}

// refusedRestore names each table the database will not restore, and why; nothing was sent.
func refusedRestore(conn string, p *driver.RestorePlan) error {
	parts := make([]string, len(p.Refused))
	for i, r := range p.Refused {
		parts[i] = r.Table + " " + r.Reason
	}
	return driver.Errorf(driver.KindConflict, "backup %s cannot be restored into %s as asked, and nothing was sent: %s", p.ID, conn, strings.Join(parts, "; "))
}

// wait asks status every backupPoll until the backup or restore (what) ends, drawing its
// phase on a terminal. Ctrl-C (the session's context ending) calls cancel where there is one
// (a backup) and waits on, a minute at most, for the end it brings; without one (a restore)
// it stops waiting and says the work goes on in the database.
func (s *backupSession) wait(cmd *cobra.Command, what, id string, status func(context.Context) (*driver.Backup, error), cancel func(context.Context) error) (*driver.Backup, error) {
	bar := newProgressBar(cmd.ErrOrStderr())
	defer bar.finish()
	start, line := time.Now(), what+" "+id
	ctx, cancelled := s.ctx, false
	for {
		b, err := status(ctx)
		if err == nil {
			bar.draw(fmt.Sprintf("%s: %s  %s", line, b.Phase, time.Since(start).Round(time.Second)), b.Done())
			if b.Done() {
				return b, nil
			}
		}
		if s.ctx.Err() != nil && !cancelled {
			if cancel == nil {
				return nil, fmt.Errorf("stopped waiting; the %s of %s goes on in the database: app backup status CONNECTION %s --restore says where it is", what, id, id)
			}
			var stop context.CancelFunc
			ctx, stop = context.WithTimeout(context.WithoutCancel(s.ctx), time.Minute)
			defer stop()
			if err := cancel(ctx); err != nil && !driver.IsKind(err, driver.KindConflict) {
				return nil, fmt.Errorf("interrupted, and the cancel of %s %s was not taken: %w", what, id, err)
			}
			cancelled, line = true, line+" (cancel asked)"
			continue
		}
		if err != nil {
			return nil, err
		}
		select {
		case <-ctx.Done():
			if cancelled {
				return nil, fmt.Errorf("interrupted: the cancel of %s %s was asked, but it had not ended a minute later; app backup status says where it is", what, id)
			}
		case <-time.After(backupPoll):
		}
	}
}

// ended prints how a backup or restore ended; anything but success is an error.
func (s *backupSession) ended(w io.Writer, g *Globals, b *driver.Backup, what string) error {
	if g.json {
		if err := printJSON(w, map[string]any{"connection": s.conn, "backend": s.backend.Name, what: b}); err != nil {
			return err
		}
		if b.State != driver.BackupSucceeded {
			return silentFailure{endError(b, what)}
		}
		return nil
	}
	if b.State != driver.BackupSucceeded {
		return endError(b, what)
	}
	fmt.Fprintf(w, "%s %s done: %s", what, b.ID, stateText(*b))
	if b.Bytes > 0 {
		fmt.Fprintf(w, ", %s", sizeText(b.Bytes))
	}
	if t := tookText(*b); t != "" {
		fmt.Fprintf(w, " in %s", t)
	}
	if b.Where != "" {
		fmt.Fprintf(w, ", kept at %s", b.Where)
	}
	fmt.Fprintln(w)
	return nil
}

// endError says how a backup or restore ended other than in success.
func endError(b *driver.Backup, what string) error {
	msg := fmt.Sprintf("%s %s ended %s", what, b.ID, stateText(*b))
	if b.Error != "" {
		msg += ": " + b.Error
	}
	return errors.New(msg)
}

// printBackup prints one backup's state, as JSON with --json.
func (s *backupSession) printBackup(w io.Writer, g *Globals, b *driver.Backup, what string) error {
	if g.json {
		return printJSON(w, map[string]any{"connection": s.conn, "backend": s.backend.Name, "backup": b})
	}
	fmt.Fprintf(w, "%s %s: %s", what, b.ID, stateText(*b))
	if b.Error != "" {
		fmt.Fprintf(w, " (%s)", b.Error)
	}
	fmt.Fprintln(w)
	return nil
}

// printRestore prints a restore with the plan it was confirmed on.
func (s *backupSession) printRestore(w io.Writer, g *Globals, p *driver.RestorePlan, b *driver.Backup) error {
	if g.json {
		return printJSON(w, map[string]any{"connection": s.conn, "backend": s.backend.Name, "plan": p, "restore": b})
	}
	fmt.Fprintf(w, "restore of %s from backup %s: %s\n", tablesWord(p.Tables), b.ID, stateText(*b))
	return nil
}

// stateText is "succeeded (SUCCESS)": the host's word and the database's own.
func stateText(b driver.Backup) string {
	if b.Phase == "" || strings.EqualFold(b.Phase, string(b.State)) {
		return string(b.State)
	}
	return fmt.Sprintf("%s (%s)", b.State, b.Phase)
}

func tablesText(ts []string) string {
	if len(ts) == 0 {
		return "-"
	}
	return strings.Join(ts, ",")
}

// tablesWord is "Alpha, Beta" or "every table".
func tablesWord(ts []string) string {
	if len(ts) == 0 {
		return "every table"
	}
	return strings.Join(ts, ", ")
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

func tookText(b driver.Backup) string {
	if b.Started.IsZero() || b.Completed.IsZero() {
		return ""
	}
	return b.Completed.Sub(b.Started).Round(100 * time.Millisecond).String()
}
