package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"app/backend/connections"
	"app/backend/driver"
	"app/backend/transfer"
)

func newExportCmd(g *Globals) *cobra.Command {
	var format, out string
	var where, sortBy, vectorNames []string
	var vectors bool
	cmd := &cobra.Command{
		Use:   "export CONNECTION TABLE -o FILE",
		Short: "Export a table (all its rows, past the 10,000-row paging limit) to CSV, JSON Lines or Parquet",
		Long: `Export a table's rows to a file. Without --sort the rows come in key order through the
database's cursor, however many there are; with --sort the database orders them, within its
paging limit. The file appears only when complete: a cancelled or failed export leaves nothing.

Columns: the table's columns in its order (the key first), then with --vectors "vector" (or
"vector:NAME" for each named vector). In CSV a null is an empty field and an empty text "".`,
		Example: `  app export local Paper -o paper.parquet --vectors
  app export local Product --where "stock greater_than 50" --where "category equals tools" -o tools.csv
  app export local Product --sort price:desc -o by-price.jsonl`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("name the file to write with -o FILE (.csv, .jsonl or .parquet)")
			}
			f := transfer.Format(format)
			if f == "" {
				f = transfer.FormatOf(out)
			}
			if !slices.Contains(transfer.Formats(), f) {
				return fmt.Errorf("--format %q: use csv, jsonl or parquet (or end the file name in .csv, .jsonl or .parquet)", format)
			}
			filters, err := parseWhere(where)
			if err != nil {
				return err
			}
			sorts, err := parseSort(sortBy)
			if err != nil {
				return err
			}
			ctx, drv, conn, done, err := openConnection(cmd, g, args[0])
			if err != nil {
				return err
			}
			defer done()
			bar := newProgressBar(cmd.ErrOrStderr())
			sum, err := transfer.Export(ctx, drv, transfer.ExportRequest{
				Table: args[1], Filters: filters, Sort: sorts, Vectors: vectors || len(vectorNames) > 0,
				VectorNames: vectorNames, Format: f, Path: out,
			}, func(p transfer.Progress) { bar.draw(transferLine("exporting "+args[1], p), false) })
			bar.finish()
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), map[string]any{"connection": conn.Name, "table": args[1], "format": f,
					"rows": sum.Rows, "path": sum.Path, "bytes": sum.Bytes, "seconds": sum.Took.Seconds()})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported %d rows of %s to %s (%s, %s)\n", sum.Rows, args[1], sum.Path, sizeText(sum.Bytes), sum.Took.Round(time.Millisecond))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "output", "o", "", "the file to write")
	fl.StringVar(&format, "format", "", "csv, jsonl or parquet (default: from the file name)")
	fl.StringArrayVar(&where, "where", nil, `a filter "COLUMN OPERATOR [VALUE [VALUE2]]" (operators: `+operatorList()+`); repeat to AND them`)
	fl.StringArrayVar(&sortBy, "sort", nil, "COLUMN or COLUMN:desc; repeat for more keys")
	fl.BoolVar(&vectors, "vectors", false, "add each row's vectors")
	fl.StringSliceVar(&vectorNames, "vector", nil, "add only these named vectors (implies --vectors)")
	return cmd
}

// openConnection opens the backend and a saved connection for a command that works on the
// database (export, import, query). Its context ends on Ctrl-C or SIGTERM, which an export
// answers by removing its temporary file and an import by stopping between batches; done
// closes the connection and the backend.
func openConnection(cmd *cobra.Command, g *Globals, idOrName string) (context.Context, driver.Driver, connections.Connection, func(), error) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	cr, closeCore, err := cliCore(ctx, g)
	if err != nil {
		stop()
		return nil, nil, connections.Connection{}, nil, err
	}
	done := func() {
		cr.OpenConnections().Close()
		closeCore()
		stop()
	}
	drv, conn, err := cr.OpenConnections().Open(ctx, idOrName)
	if err != nil {
		done()
		return nil, nil, conn, nil, err
	}
	return ctx, drv, conn, done, nil
}

// transferLine is "exporting Paper [=====>    ]  45%  11,250 of 25,000 rows  9,800 rows/s  1s left".
func transferLine(what string, p transfer.Progress) string {
	frac := 0.0
	if p.Total > 0 {
		frac = float64(p.Rows) / float64(p.Total)
	}
	line := fmt.Sprintf("%s %s  %d of %d rows  %.0f rows/s", what, bar(frac), p.Rows, p.Total, p.Rate())
	if left := p.Left(); left > 0 {
		line += fmt.Sprintf("  %s left", left.Round(time.Second))
	}
	return line
}

func operatorList() string {
	ops := make([]string, 0, len(driver.Operators()))
	for _, o := range driver.Operators() {
		ops = append(ops, string(o))
	}
	return strings.Join(ops, ", ")
}

// parseWhere reads --where "COLUMN OPERATOR [VALUE [VALUE2]]": between takes two values, in
// and not_in a comma-separated list, the null and emptiness operators none; any other
// operator takes the rest of the text as its value.
func parseWhere(in []string) ([]driver.Filter, error) {
	out := make([]driver.Filter, 0, len(in))
	for _, w := range in {
		parts := strings.SplitN(strings.TrimSpace(w), " ", 3)
		if len(parts) < 2 {
			return nil, fmt.Errorf("--where %q: give COLUMN OPERATOR [VALUE], e.g. \"stock greater_than 50\"", w)
		}
		f := driver.Filter{Column: parts[0], Operator: driver.Operator(parts[1])}
		if !slices.Contains(driver.Operators(), f.Operator) {
			return nil, fmt.Errorf("--where %q: %q is not an operator; use one of %s", w, parts[1], operatorList())
		}
		rest := ""
		if len(parts) == 3 {
			rest = strings.TrimSpace(parts[2])
		}
		switch f.Operator {
		case driver.OpIsNull, driver.OpIsNotNull, driver.OpIsEmpty, driver.OpIsNotEmpty:
			if rest != "" {
				return nil, fmt.Errorf("--where %q: %s takes no value", w, f.Operator)
			}
		case driver.OpBetween:
			lo, hi, ok := strings.Cut(rest, " ")
			if !ok {
				return nil, fmt.Errorf("--where %q: between takes two values, e.g. \"price between 10 20\"", w)
			}
			f.Value, f.Value2 = lo, strings.TrimSpace(hi)
		default:
			if rest == "" {
				return nil, fmt.Errorf("--where %q: %s takes a value", w, f.Operator)
			}
			f.Value = rest
		}
		out = append(out, f)
	}
	return out, nil
}

func parseSort(in []string) ([]driver.Sort, error) {
	out := make([]driver.Sort, 0, len(in))
	for _, s := range in {
		col, dir, _ := strings.Cut(s, ":")
		switch strings.ToLower(dir) {
		case "", "asc":
			out = append(out, driver.Sort{Column: col})
		case "desc":
			out = append(out, driver.Sort{Column: col, Descending: true})
		default:
			return nil, fmt.Errorf("--sort %q: give COLUMN, COLUMN:asc or COLUMN:desc", s)
		}
	}
	return out, nil
}

func newImportCmd(g *Globals) *cobra.Command {
	var format, report string
	var maps []string
	var create bool
	var batch int
	cmd := &cobra.Command{
		Use:   "import CONNECTION TABLE FILE",
		Short: "Import a CSV, JSON Lines or Parquet file into a table, in batches, reporting each rejected row",
		Long: `Import a file's rows into a table. File columns go to the table columns of the same name
(the key columns among them, "vector" and "vector:NAME" vectors), or where --map sends them. Each row is
typed by the driver's own cell rules before it is written; a row that does not fit, or a line
the file breaks, is rejected with its line and reason (listed in FILE.rejected.csv) and the rest
is written. Rows are created, or replaced by their key where the driver's batch write does so. Ctrl-C stops between batches, and the
summary says exactly what was written.`,
		Example: `  app import local Paper paper.parquet
  app import local Product products.csv --map sku=code --map notes=-
  app import local Imported data.jsonl --create`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			to := map[string]string{}
			for _, m := range maps {
				from, target, ok := strings.Cut(m, "=")
				if !ok || from == "" || target == "" {
					return fmt.Errorf("--map %q: give FILE_COLUMN=TABLE_COLUMN, or FILE_COLUMN=- to skip it", m)
				}
				to[from] = target
			}
			ctx, drv, conn, done, err := openConnection(cmd, g, args[0])
			if err != nil {
				return err
			}
			defer done()
			bar := newProgressBar(cmd.ErrOrStderr())
			sum, err := transfer.Import(ctx, drv, transfer.ImportRequest{
				Table: args[1], Path: args[2], Format: transfer.Format(format), Map: to, Create: create,
				Report: report, BatchSize: batch,
			}, func(p transfer.Progress) {
				bar.draw(fmt.Sprintf("importing into %s  %d rows  %.0f rows/s", args[1], p.Rows, p.Rate()), false)
			})
			bar.finish()
			if g.json {
				out := map[string]any{"connection": conn.Name, "table": args[1], "summary": sum}
				if err != nil {
					printError(cmd.ErrOrStderr(), err)
					_ = printJSON(cmd.OutOrStdout(), out)
					return silentFailure{err}
				}
				return printJSON(cmd.OutOrStdout(), out)
			}
			w := cmd.OutOrStdout()
			if sum.Created {
				fmt.Fprintf(w, "created %s from the file's columns\n", args[1])
			}
			fmt.Fprintf(w, "%d written, %d skipped, %d failed", sum.Written, sum.Skipped, sum.Failed)
			if sum.Unknown > 0 {
				fmt.Fprintf(w, ", %d %s", sum.Unknown, driver.MaybeWritten)
			}
			fmt.Fprintf(w, " (%s)\n", sum.Took.Round(time.Millisecond))
			for i, r := range sum.Rejected {
				if i == 10 {
					fmt.Fprintf(w, "  ...\n")
					break
				}
				fmt.Fprintf(w, "  line %d: %s\n", r.Line, r.Reason)
			}
			if sum.Report != "" {
				fmt.Fprintf(w, "every rejected row is listed in %s\n", sum.Report)
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&format, "format", "", "csv, jsonl or parquet (default: from the file name)")
	fl.StringArrayVar(&maps, "map", nil, "FILE_COLUMN=TABLE_COLUMN, or FILE_COLUMN=- to skip it; repeat for more")
	fl.BoolVar(&create, "create", false, "create the table from the file's columns when it does not exist")
	fl.StringVar(&report, "report", "", "where to list rejected rows (default: FILE.rejected.csv)")
	fl.IntVar(&batch, "batch", 200, "rows per write")
	return cmd
}

// silentFailure is an error already printed (as JSON): the command exits non-zero without
// printing it again.
type silentFailure struct{ err error }

func (s silentFailure) Error() string { return s.err.Error() }

func newQueryCmd(g *Globals) *cobra.Command {
	var maxRows int
	cmd := &cobra.Command{
		Use:   "query CONNECTION TEXT",
		Short: "Run a read in the editor's language (the connection's driver says which) and print the result",
		Long: `Run a read as the window's editor does, with the same rules: the driver decides what the
text is, and anything that writes is refused here (run writes in the window, which asks you
first). A read is capped at --max-rows rows in the statement itself, and says when it was cut.`,
		Example: `  app query local "$(cat read.txt)"
  app query local "$(cat read.txt)" --json --max-rows 100`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, drv, _, done, err := openConnection(cmd, g, args[0])
			if err != nil {
				return err
			}
			defer done()
			cls, err := drv.Classify(args[1])
			if err != nil {
				return err
			}
			if cls.Write() {
				return driver.Errorf(driver.KindUnsupported, "app query runs reads only, and this text writes: run it in the window's editor, which asks you first")
			}
			res, err := drv.Execute(ctx, args[1], driver.ExecOptions{MaxRows: maxRows})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if g.json {
				return printJSON(w, res)
			}
			if res.Kind == driver.ResultGrid && res.Grid != nil {
				tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
				names := make([]string, len(res.Grid.Columns))
				for i, c := range res.Grid.Columns {
					names[i] = c.Name
				}
				fmt.Fprintln(tw, strings.Join(names, "\t"))
				for _, r := range res.Grid.Rows {
					cells := make([]string, len(r))
					for i, c := range r {
						cells[i] = cellText(c)
					}
					fmt.Fprintln(tw, strings.Join(cells, "\t"))
				}
				if err := tw.Flush(); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(w, strings.TrimSpace(string(res.JSON)))
			}
			if res.Notice != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), res.Notice)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&maxRows, "max-rows", 1000, "the most rows a read returns")
	return cmd
}

// cellText is a grid cell on one line of a terminal table: null as NULL, long text cut.
func cellText(c any) string {
	if c == nil {
		return "NULL"
	}
	s := strings.ReplaceAll(fmt.Sprint(c), "\n", " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}
