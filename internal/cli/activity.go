package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"app/backend/activity"
	"app/backend/config"
)

// newActivityCmd reads the MCP activity log. It opens activity.db read-only, so it works
// while the app runs and never changes the log.
func newActivityCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "activity",
		Short: "Read, export and verify the MCP activity log (every request AI clients made)",
	}
	cmd.AddCommand(newActivityListCmd(g), newActivityExportCmd(g), newActivityVerifyCmd(g))
	return cmd
}

// activityFilterFlags are the filters list and export share.
type activityFilterFlags struct {
	f     activity.Filter
	since string
	until string
}

func (a *activityFilterFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&a.f.Client, "client", "", "only this client name")
	fs.StringVar(&a.f.Token, "token", "", "only this token (name or principal id)")
	fs.StringVar(&a.f.Connection, "connection", "", "only this connection id")
	fs.StringVar(&a.f.Outcome, "outcome", "", `only this outcome: "ok", a tool error code, a protocol error code, or "error" for every failure`)
	fs.StringVar(&a.since, "since", "", "only entries at or after this time (RFC 3339, or a duration ago such as 24h)")
	fs.StringVar(&a.until, "until", "", "only entries before this time (RFC 3339, or a duration ago)")
	fs.StringVar(&a.f.Search, "search", "", "only entries whose statement, tool, method or client contains this text")
}

func (a *activityFilterFlags) filter(now time.Time) (activity.Filter, error) {
	f := a.f
	var err error
	if f.Since, err = parseWhen("--since", a.since, now); err != nil {
		return f, err
	}
	if f.Until, err = parseWhen("--until", a.until, now); err != nil {
		return f, err
	}
	return f, nil
}

// parseWhen reads an RFC 3339 time or a duration before now.
func parseWhen(flag, s string, now time.Time) (time.Time, error) {
	t, err := activity.ParseWhen(s, now)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %w", flag, err)
	}
	return t, nil
}

// openActivityLog opens the config dir's activity log read-only; ok is false when nothing
// has been recorded yet.
func openActivityLog(g *Globals) (l *activity.Log, ok bool, err error) {
	dir, err := config.ResolveDir(g.configDir)
	if err != nil {
		return nil, false, err
	}
	l, err = activity.OpenReadOnly(activity.Path(dir))
	if activity.IsNotExist(err) {
		return nil, false, nil
	}
	return l, err == nil, err
}

func newActivityListCmd(g *Globals) *cobra.Command {
	var a activityFilterFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List recorded MCP requests, newest first",
		Example: `  app activity list --limit 20
  app activity list --client claude-code --outcome error --since 24h
  app activity list --token laptop --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := a.filter(time.Now())
			if err != nil {
				return err
			}
			entries := []activity.Entry{}
			l, ok, err := openActivityLog(g)
			if err != nil {
				return err
			}
			if ok {
				defer l.Close(context.Background())
				if entries, err = l.List(cmd.Context(), f); err != nil {
					return err
				}
			}
			if g.json {
				if entries == nil {
					entries = []activity.Entry{}
				}
				return printJSON(cmd.OutOrStdout(), entries)
			}
			return printActivityTable(cmd.OutOrStdout(), entries)
		},
	}
	a.register(cmd)
	cmd.Flags().IntVar(&a.f.Limit, "limit", 50, "at most this many entries (0: all)")
	cmd.Flags().IntVar(&a.f.Offset, "offset", 0, "skip this many of the newest entries first")
	return cmd
}

func printActivityTable(w io.Writer, entries []activity.Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTIME\tCLIENT\tTOKEN\tMETHOD\tNAME\tCONNECTION\tOUTCOME\tMS\tSTATEMENT")
	for _, e := range entries {
		token := e.TokenName
		if token == "" {
			token = e.Principal
		}
		client := strings.TrimSpace(e.ClientName + " " + e.ClientVersion)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", e.ID, e.Time.Local().Format("2006-01-02 15:04:05"),
			dash(client), dash(token), dash(e.Method), dash(e.Name), dash(e.Connection), e.Outcome, e.DurationMS, dash(oneLine(e.Statement, 60)))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine folds white space and cuts s to n characters for a table cell.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func newActivityExportCmd(g *Globals) *cobra.Command {
	var a activityFilterFlags
	var format, out string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export recorded MCP requests, oldest first, as CSV (or JSON)",
		Example: `  app activity export > activity.csv
  app activity export --out activity.csv --since 720h
  app activity export --format json --client cursor`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "csv" && format != "json" {
				return fmt.Errorf("--format %q: use csv or json", format)
			}
			f, err := a.filter(time.Now())
			if err != nil {
				return err
			}
			l, ok, err := openActivityLog(g)
			if err != nil {
				return err
			}
			if ok {
				defer l.Close(context.Background())
			}
			if out == "" {
				return exportActivity(cmd.Context(), cmd.OutOrStdout(), l, ok, f, format)
			}
			// The export holds statements: private like everything in the config dir.
			file, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			if err := exportActivity(cmd.Context(), file, l, ok, f, format); err != nil {
				file.Close()
				return err
			}
			return file.Close()
		},
	}
	a.register(cmd)
	cmd.Flags().StringVar(&format, "format", "csv", "csv or json")
	cmd.Flags().StringVar(&out, "out", "", "write to this file (mode 0600) instead of standard output")
	return cmd
}

func exportActivity(ctx context.Context, w io.Writer, l *activity.Log, ok bool, f activity.Filter, format string) error {
	if format == "csv" {
		if !ok {
			_, err := io.WriteString(w, strings.Join(activity.CSVHeader, ",")+"\n")
			return err
		}
		return l.WriteCSV(ctx, w, f)
	}
	entries := []activity.Entry{}
	if ok {
		list, err := l.List(ctx, f)
		if err != nil {
			return err
		}
		// Oldest first, like the CSV.
		for i := len(list) - 1; i >= 0; i-- {
			entries = append(entries, list[i])
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(entries)
}

func newActivityVerifyCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check the activity log's hash chain; exit 1 naming the first broken link",
		Long: `Every entry of the activity log carries the hash of the entry before it. verify walks the
chain from the start (or from the last pruned entry) and prints "chain intact: N entries",
or exits 1 naming the first entry that was changed, removed or inserted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var v activity.Verification
			l, ok, err := openActivityLog(g)
			if err != nil {
				return err
			}
			if ok {
				defer l.Close(context.Background())
				if v, err = l.Verify(cmd.Context()); err != nil {
					return err
				}
			}
			if g.json {
				if err := printJSON(cmd.OutOrStdout(), struct {
					Intact bool `json:"intact"`
					activity.Verification
				}{v.Intact(), v}); err != nil {
					return err
				}
			} else if v.Intact() {
				fmt.Fprintf(cmd.OutOrStdout(), "chain intact: %d entries\n", v.Entries)
			}
			if !v.Intact() {
				return v.Broken
			}
			return nil
		},
	}
}
