package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"app/backend/plugins"
)

// `app plugin list|install|update|uninstall`: the driver plugins of the config dir, from the
// registry that --registry/--registry-key, $APP_PLUGIN_REGISTRY/$APP_PLUGIN_REGISTRY_KEY or the
// settings plugins.registry/plugins.registryKey name (else the official one). docs/plugins.md.
func newPluginCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{Use: "plugin", Short: "List, install, update and uninstall driver plugins"}
	cmd.AddCommand(newPluginListCmd(g), newPluginInstallCmd(g, false), newPluginInstallCmd(g, true), newPluginUninstallCmd(g))
	return cmd
}

// pluginManager opens the backend and returns its plugin manager, or why the registry
// cannot be used.
func pluginManager(ctx context.Context, g *Globals) (*plugins.Manager, func(), error) {
	cr, done, err := cliCore(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	m, err := cr.Plugins()
	if err != nil {
		done()
		return nil, nil, err
	}
	return m, done, nil
}

func newPluginListCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "The registry's plugins, with the installed and available versions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cr, done, err := cliCore(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer done()
			m, regErr := cr.Plugins()
			var list []plugins.Listing
			if regErr == nil {
				list, regErr = m.List(cmd.Context())
			} else if installed, err := m.Installed(); err == nil {
				seen := map[string]bool{}
				for _, v := range installed {
					if !seen[v.Name] {
						seen[v.Name] = true
						list = append(list, plugins.Listing{Name: v.Name, DisplayName: v.DisplayName, Publisher: v.Publisher, Types: v.Types, Installed: v.Version, Status: plugins.StatusInstalled})
					}
				}
			}
			if g.json {
				if list == nil {
					list = []plugins.Listing{}
				}
				if err := printJSON(cmd.OutOrStdout(), list); err != nil {
					return err
				}
			} else {
				w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "NAME\tINSTALLED\tAVAILABLE\tSIZE\tSTATUS\tPUBLISHER")
				for _, l := range list {
					status := string(l.Status)
					if l.Reason != "" {
						status += " (" + l.Reason + ")"
					}
					fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Name, dash(l.Installed), dash(l.Available), sizeText(l.Size), status, dash(l.Publisher))
				}
				if err := w.Flush(); err != nil {
					return err
				}
			}
			if regErr != nil {
				return fmt.Errorf("the plugin registry could not be read, so only installed plugins are listed: %w", regErr)
			}
			return nil
		},
	}
}

func newPluginInstallCmd(g *Globals, update bool) *cobra.Command {
	use, short := "install NAME", "Download, verify and install a plugin (app plugin list names them)"
	if update {
		use, short = "update NAME", "Install a newer version of an installed plugin; the old one stays until the new one is verified"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, done, err := pluginManager(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer done()
			bar := newProgressBar(cmd.ErrOrStderr())
			fn := m.Install
			if update {
				fn = m.Update
			}
			res, err := fn(cmd.Context(), args[0], bar.report)
			bar.finish()
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), res)
			}
			out := cmd.OutOrStdout()
			switch {
			case res.Changed && res.Previous != "":
				fmt.Fprintf(out, "updated %s from %s to %s\n", res.Plugin, res.Previous, res.Version)
			case res.Changed:
				from := ""
				if res.FromMirror {
					from = " (from the bundled mirror: the registry could not be reached)"
				}
				fmt.Fprintf(out, "installed %s %s%s\n", res.Plugin, res.Version, from)
			case update:
				fmt.Fprintf(out, "%s %s is the newest version for this platform; nothing to update\n", res.Plugin, res.Version)
			default:
				fmt.Fprintf(out, "%s %s is already installed\n", res.Plugin, res.Version)
				if res.Available != "" {
					fmt.Fprintf(out, "version %s is available: app plugin update %s\n", res.Available, res.Plugin)
				}
			}
			return nil
		},
	}
}

func newPluginUninstallCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall NAME",
		Short: "Remove a plugin (refused while a connection of its type is open)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cr, done, err := cliCore(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer done()
			m, _ := cr.Plugins() // removing needs no registry
			removed, err := m.Uninstall(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), map[string]any{"plugin": args[0], "removed": removed})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "uninstalled %s (%s)\n", args[0], strings.Join(removed, ", "))
			return nil
		},
	}
}

// sizeText is a download size for people: "5.3 MB".
func sizeText(n int64) string {
	switch {
	case n <= 0:
		return "-"
	case n < 1<<20:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

// progressBar draws a download's progress on a terminal (one line, redrawn at most ten
// times a second); on anything else it stays silent, so scripts read clean output.
type progressBar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func newProgressBar(w io.Writer) *progressBar {
	f, ok := w.(*os.File)
	return &progressBar{w: w, tty: ok && term.IsTerminal(int(f.Fd()))}
}

func (b *progressBar) report(p plugins.Progress) { b.draw(progressLine(p), p.Done >= p.Total) }

// draw redraws the line: at most ten times a second, and always the last one.
func (b *progressBar) draw(line string, last bool) {
	if !b.tty || (time.Since(b.last) < 100*time.Millisecond && !last) {
		return
	}
	b.last, b.drawn = time.Now(), true
	fmt.Fprint(b.w, "\r\x1b[K"+line)
}

func (b *progressBar) finish() {
	if b.drawn {
		fmt.Fprintln(b.w)
	}
}

// bar is "[=========>          ]  45%" for frac 0.45.
func bar(frac float64) string {
	const width = 30
	frac = min(max(frac, 0), 1)
	full := int(frac * width)
	b := strings.Repeat("=", full)
	if full < width {
		b += ">" + strings.Repeat(" ", width-full-1)
	}
	return fmt.Sprintf("[%s] %3.0f%%", b, frac*100)
}

// progressLine is "downloading weaviate 1.0.0 [=========>          ]  45%  2.5 of 5.5 MB".
func progressLine(p plugins.Progress) string {
	frac := 0.0
	if p.Total > 0 {
		frac = float64(p.Done) / float64(p.Total)
	}
	return fmt.Sprintf("downloading %s %s %s  %s of %s", p.Plugin, p.Version, bar(frac),
		strings.TrimSuffix(sizeText(p.Done), " MB"), sizeText(p.Total))
}
