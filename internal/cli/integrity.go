package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"app/backend/config"
	"app/backend/core"
	"app/backend/integrity"
)

// newIntegrityCmd is `app integrity`: the policy files another program changed (issue 44), and
// the person's accept or revert of each. App acts on its own last version of a changed file
// until then.
func newIntegrityCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "integrity",
		Short: "Show the policy files another program changed; accept or revert each",
		Long: "App seals the files that say what AI clients may do (settings.json, connections.json, mcp-tokens.json).\n" +
			"A change made by another program has no effect: App keeps acting on its own last version until you\n" +
			"accept the change (`app integrity accept FILE`) or write App's version back (`app integrity revert FILE`).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			seal, err := sealOf(g)
			if err != nil {
				return err
			}
			findings, err := seal.Check(cmd.Context())
			if err != nil {
				return err
			}
			if g.json {
				if findings == nil {
					findings = []integrity.Finding{}
				}
				return printJSON(cmd.OutOrStdout(), findings)
			}
			if len(findings) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "no policy file was changed by another program")
				return nil
			}
			for _, f := range findings {
				revert := "app integrity revert " + f.Name
				if !f.CanRevert {
					revert = "no version of App's own to write back"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s by another program (App acts on its own last version); accept: app integrity accept %s; revert: %s\n",
					f.Name, f.What, f.Name, revert)
			}
			return nil
		},
	}
	for _, act := range []struct {
		use, short string
		do         func(s *integrity.Seal) func(cmd *cobra.Command, name string) error
	}{
		{"accept", "Make another program's change of FILE App's own", func(s *integrity.Seal) func(*cobra.Command, string) error {
			return func(cmd *cobra.Command, name string) error { return s.Accept(cmd.Context(), name) }
		}},
		{"revert", "Write App's own last version of FILE back over another program's change", func(s *integrity.Seal) func(*cobra.Command, string) error {
			return func(cmd *cobra.Command, name string) error { return s.Revert(cmd.Context(), name) }
		}},
	} {
		var all, yes bool
		sub := &cobra.Command{
			Use:   act.use + " FILE|--all",
			Short: act.short,
			RunE: func(cmd *cobra.Command, args []string) error {
				seal, err := sealOf(g)
				if err != nil {
					return err
				}
				accept := act.use == "accept"
				names := args
				if all {
					findings, err := seal.Check(cmd.Context())
					if err != nil {
						return err
					}
					names = nil
					for _, f := range findings {
						names = append(names, f.Name)
					}
				}
				if len(names) == 0 && !all {
					return fmt.Errorf("name a file (%v) or give --all", seal.Names())
				}
				for _, n := range names {
					if !slices.Contains(seal.Names(), n) {
						return fmt.Errorf("%s is not a policy file App seals (%v)", n, seal.Names())
					}
				}
				// Accepting another program's change may raise what AI clients may do, and an
				// agent with a shell could run this command itself: it is confirmed as every
				// raise is (App's window while it runs, whatever --yes says) and recorded.
				by := ""
				if accept && len(names) > 0 {
					by, err = confirmRaise(cmd, *g, yes, "Accept the change another program made?",
						"Another program changed "+strings.Join(names, ", ")+".",
						"Accepting makes App act on the files as they are now, which may let AI clients do more.")
					switch {
					case errors.Is(err, errNeedsConfirmation):
						return errors.New("accepting another program's change needs confirmation: run it in a terminal, or pass --yes; nothing was changed")
					case errors.Is(err, errNotConfirmed):
						return errors.New("not confirmed: nothing was changed")
					case err != nil:
						return err
					}
				}
				for _, n := range names {
					if err := act.do(seal)(cmd, n); err != nil {
						return fmt.Errorf("%s %s: %w", act.use, n, err)
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%sed %s\n", act.use, n)
				}
				if accept && len(names) > 0 {
					cr, done, err := cliCore(cmd.Context(), g)
					if err == nil {
						recordRaise(cmd, *g, cr, "integrity accept", "accepted another program's change of "+strings.Join(names, ", "), by)
						done()
					}
				}
				return nil
			},
		}
		sub.Flags().BoolVar(&all, "all", false, "every file another program changed")
		if act.use == "accept" {
			sub.Flags().BoolVar(&yes, "yes", false, "confirm without a prompt when no App window is open")
		}
		cmd.AddCommand(sub)
	}
	return cmd
}

func sealOf(g *Globals) (*integrity.Seal, error) {
	dir, err := config.ResolveDir(g.configDir)
	if err != nil {
		return nil, err
	}
	return core.SealOf(dir), nil
}
