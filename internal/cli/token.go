package cli

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"app/backend/auth"
	"app/backend/core"
)

func newTokenCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{Use: "token", Short: "Manage the tokens AI clients use on the MCP endpoint"}
	cmd.AddCommand(newTokenCreateCmd(g), newTokenListCmd(g), newTokenRevokeCmd(g))
	return cmd
}

// tokenCreated is what `token create --json` prints: the token, once.
type tokenCreated struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	Level       string     `json:"level"`
	Token       string     `json:"token"`
	Connections []string   `json:"connections"`
	ExpiresAt   *time.Time `json:"expiresAt,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
}

func newTokenCreateCmd(g *Globals) *cobra.Command {
	var name, level, conns, expires string
	var yes bool
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a token for an MCP client (printed once; only its hash is kept)",
		Example: `  app token create --name claude --level readOnly
  app token create --name ci --level readWrite --connections local,staging --expires 30d --yes --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			t, secret, err := createToken(cmd, *g, cr, tokenFlags{name: name, level: level, conns: conns, expires: expires, yes: yes})
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), tokenCreated{ID: t.ID, Name: t.Name, Level: t.Level, Token: secret,
					Connections: t.Connections, ExpiresAt: t.ExpiresAt, CreatedAt: t.CreatedAt})
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "created token %q (%s), level %s, connections %s, expires %s\n\n  %s\n\n",
				t.Name, t.ID, t.Level, describeConnections(t.Connections), describeExpiry(t.ExpiresAt), secret)
			fmt.Fprintln(out, "This is the only time the token is shown. Give it to the MCP client as the header")
			fmt.Fprintln(out, "Authorization: Bearer <token>.")
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "token name, unique (required)")
	f.StringVar(&level, "level", "", "readOnly, readWrite or fullAccess (required)")
	f.StringVar(&conns, "connections", "", "comma-separated connection names or ids the token may use (default: all)")
	f.StringVar(&expires, "expires", "", "expiry: a duration (30d, 2w, 12h), a date (2026-12-31) or never (default)")
	f.BoolVar(&yes, "yes", false, "confirm a readWrite or fullAccess token without a prompt")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("level")
	return cmd
}

// resolveConnections turns --connections names (or ids) into connection ids; nil means all.
func resolveConnections(cmd *cobra.Command, cr *core.Core, list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var ids []string
	for _, ref := range strings.Split(list, ",") {
		ref = strings.TrimSpace(ref)
		if ref == "" {
			continue
		}
		c, err := cr.Connections().Get(cmd.Context(), ref)
		if err != nil {
			return nil, fmt.Errorf("--connections: %w (see `app connection list`)", err)
		}
		ids = append(ids, c.ID)
	}
	if len(ids) == 0 {
		return nil, errors.New("--connections names no connection")
	}
	return ids, nil
}

func describeConnections(ids []string) string {
	if ids == nil {
		return "all"
	}
	return strings.Join(ids, ",")
}

func describeExpiry(at *time.Time) string {
	if at == nil {
		return "never"
	}
	return at.Format(time.RFC3339)
}

func newTokenListCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the tokens (never the tokens themselves)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			list, err := cr.Tokens().List(ctx)
			if err != nil {
				return err
			}
			if g.json {
				if list == nil {
					list = []auth.Token{}
				}
				return printJSON(cmd.OutOrStdout(), list)
			}
			now := time.Now()
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tLEVEL\tCONNECTIONS\tEXPIRES\tLAST USED\tID")
			for _, t := range list {
				exp := describeExpiry(t.ExpiresAt)
				if t.Expired(now) {
					exp += " (expired)"
				}
				used := "never"
				if t.LastUsedAt != nil {
					used = t.LastUsedAt.Format(time.RFC3339)
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", t.Name, t.Level, describeConnections(t.Connections), exp, used, t.ID)
			}
			return w.Flush()
		},
	}
}

func newTokenRevokeCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke NAME|ID",
		Short: "Revoke a token; a running app cancels its requests within a second",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			t, err := cr.Tokens().Revoke(ctx, args[0])
			if err != nil && t.ID == "" {
				return err
			}
			if g.json {
				if perr := printJSON(cmd.OutOrStdout(), map[string]string{"revoked": t.ID, "name": t.Name}); perr != nil {
					return perr
				}
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "revoked token %q (%s)\n", t.Name, t.ID)
			}
			return err
		},
	}
}

// tokenFlags are what a new token is made of on the command line.
type tokenFlags struct {
	name, level, conns, expires string
	yes                         bool
}

// createToken is the one way the CLI makes a token (app token create, app client config): it
// checks the level and expiry, resolves the connections, and asks before a level that raises
// what AI clients may do (readWrite, fullAccess) unless --yes was given.
func createToken(cmd *cobra.Command, g Globals, cr *core.Core, f tokenFlags) (auth.Token, string, error) {
	if !auth.ValidLevel(f.level) {
		return auth.Token{}, "", fmt.Errorf("--level %q is not one of %s", f.level, strings.Join(auth.Levels(), ", "))
	}
	expiresAt, err := auth.ParseExpiry(f.expires, time.Now())
	if err != nil {
		return auth.Token{}, "", fmt.Errorf("--expires: %w", err)
	}
	ids, err := resolveConnections(cmd, cr, f.conns)
	if err != nil {
		return auth.Token{}, "", err
	}
	by := ""
	if auth.RaisesRights(f.level) {
		by, err = confirmRaise(cmd, g, f.yes, "Create a "+f.level+" token?",
			fmt.Sprintf("Create a %s token %q? AI clients holding it may ask to write to your databases.", f.level, f.name))
		switch {
		case errors.Is(err, errNeedsConfirmation):
			return auth.Token{}, "", errors.New("this raises what AI clients may do, so it needs confirmation: run it in a terminal, or pass --yes")
		case errors.Is(err, errNotConfirmed):
			return auth.Token{}, "", errors.New("not confirmed: nothing was created")
		case err != nil:
			return auth.Token{}, "", err
		}
	}
	t, secret, err := cr.Tokens().Create(cmd.Context(), auth.NewToken{Name: f.name, Level: f.level, Connections: ids, ExpiresAt: expiresAt})
	if err == nil && by != "" {
		recordRaise(cmd, g, cr, "token create", fmt.Sprintf("created the %s token %q", t.Level, t.Name), by)
	}
	return t, secret, err
}
