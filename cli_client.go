package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"app/backend/auth"
	"app/backend/clientsetup"
	"app/backend/config"
	"app/backend/core"
	"app/backend/pairing"
)

// `app client config CLIENT`: "Connect a client" from the command line (issue 11). It mints a
// token for the client and prints the configuration that client's own config file takes (the
// HTTP endpoint with the Authorization header); --write merges it into that file after a
// backup, once the user agreed.
func newClientCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{Use: "client", Short: "Connect an AI client (Claude Code, Cursor, VS Code, Windsurf, other)"}
	cmd.AddCommand(newClientConfigCmd(g), newClientRepairCmd(g))
	return cmd
}

// clientRepairResult is `app client repair --json`.
type clientRepairResult struct {
	Port     int                `json:"port"`
	Repaired []pairing.Repaired `json:"repaired"`
}

// `app client repair`: point the AI clients whose config files name the app's server at
// another port (after the server fell back from a taken port, issue 25 item 10) at the port
// the running app listens on, as the window's "Re-pair" button does.
func newClientRepairCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "repair",
		Short: "Point the AI clients set up with another port at the running app's port",
		Long: "Finds the known clients (" + clientIDs() + ") whose config file points the app's server at " +
			"another port of this machine than the running app's, and changes that port (the file is backed up " +
			"first; the token and everything else stay). The stdio bridge app-mcp follows the app by itself.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := config.ResolveDir(g.configDir)
			if err != nil {
				return err
			}
			h, err := config.ReadHandshake(dir)
			if err != nil || h.Port == 0 {
				return errors.New("the app is not running (no handshake file): start it first, so there is a port to point the clients at")
			}
			res := clientRepairResult{Port: h.Port, Repaired: pairing.RepairAll(h.Port, time.Now())}
			if g.json {
				return printJSON(cmd.OutOrStdout(), res)
			}
			out := cmd.OutOrStdout()
			if len(res.Repaired) == 0 {
				fmt.Fprintf(out, "every client the app knows already points at port %d\n", h.Port)
			}
			failed := 0
			for _, r := range res.Repaired {
				if r.Error != "" {
					failed++
					fmt.Fprintf(out, "%s: not changed: %s\n", r.Title, r.Error)
					continue
				}
				fmt.Fprintf(out, "%s: %s now points at port %d (backup %s)\n", r.Title, r.File, h.Port, r.Backup)
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d clients could not be re-pointed", failed, len(res.Repaired))
			}
			return nil
		},
	}
}

func clientIDs() string {
	ids := make([]string, 0, len(pairing.Clients))
	for _, c := range pairing.Clients {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, ", ")
}

// clientConfigResult is `app client config --json`.
type clientConfigResult struct {
	Client string         `json:"client"`
	Title  string         `json:"title"`
	URL    string         `json:"url"`
	Config map[string]any `json:"config"`
	File   string         `json:"file,omitempty"`
	Note   string         `json:"note,omitempty"`
	Token  struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Level string `json:"level"`
	} `json:"token"`
	Written string `json:"written,omitempty"`
	Backup  string `json:"backup,omitempty"`
}

func newClientConfigCmd(g *globalFlags) *cobra.Command {
	var tf tokenFlags
	var write, stdio bool
	var file string
	ids := make([]string, 0, len(pairing.Clients))
	for _, c := range pairing.Clients {
		ids = append(ids, c.ID)
	}
	cmd := &cobra.Command{
		Use:   "config CLIENT",
		Short: "Create a token for a client and print (or --write) its configuration",
		Long: "CLIENT is one of " + strings.Join(ids, ", ") + ". The token is created like `app token create` " +
			"(readOnly unless --level says otherwise) and appears only in the printed configuration.",
		Example: `  app client config cursor
  app client config claude-desktop --write     # the stdio bridge app-mcp
  app client config vscode --level readWrite --connections local --expires 30d --yes --write`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := pairing.Find(args[0])
			if err != nil {
				return err
			}
			if c.Unsupported != "" {
				return fmt.Errorf("%s cannot be connected yet: %s", c.Title, c.Unsupported)
			}
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			url, running, err := endpointURL(ctx, cr.Dir(), cr.Settings())
			if err != nil {
				return err
			}
			target := file
			if target == "" {
				target = c.ConfigFile()
			}
			// Everything that may be refused is asked before the token exists.
			if write {
				if target == "" {
					return fmt.Errorf("%s has no config file the app knows: give one with --file, or leave out --write and copy the configuration", c.Title)
				}
				if !tf.yes {
					if err := confirm(cmd, fmt.Sprintf("Write the app's MCP server into %s (the file is backed up first)?", target)); err != nil {
						return err
					}
				}
			}
			req := clientsetup.Request{Client: c, Token: auth.NewToken{Name: tf.name},
				Endpoint: pairing.Endpoint{URL: url, Stdio: stdio, Bridge: pairing.BridgePath(), ConfigDir: cr.Dir()}}
			if write {
				req.File = target
			}
			setup, err := clientsetup.Setup(ctx, cliTokens{cmd: cmd, g: *g, cr: cr, flags: tf}, req, time.Now())
			if err != nil {
				return err
			}
			snip, t := setup.Snippet, setup.Token
			snip.File = target
			res := clientConfigResult{Client: c.ID, Title: c.Title, URL: url, File: snip.File, Note: snip.Note,
				Written: setup.Written, Backup: setup.Backup}
			res.Token.ID, res.Token.Name, res.Token.Level = t.ID, t.Name, t.Level
			if err := json.Unmarshal([]byte(snip.JSON), &res.Config); err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), res)
			}
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if !running {
				fmt.Fprintf(errw, "The app is not running: the URL uses the configured port (%s); start the app before the client connects.\n", url)
			}
			fmt.Fprintf(errw, "Created the %s token %q for %s. It is in the configuration below and shown nowhere else.\n", t.Level, t.Name, c.Title)
			if res.Written != "" {
				fmt.Fprintf(out, "wrote the app's server into %s", res.Written)
				if res.Backup != "" {
					fmt.Fprintf(out, " (backup: %s)", res.Backup)
				}
				fmt.Fprintln(out)
			} else {
				fmt.Fprint(out, snip.JSON)
				if snip.File != "" {
					fmt.Fprintf(errw, "Add it to %s, or run again with --write.\n", snip.File)
				}
			}
			if snip.Note != "" {
				fmt.Fprintln(errw, snip.Note)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tf.name, "name", "", "token name (default: the client and the time)")
	f.StringVar(&tf.level, "level", "readOnly", "readOnly, readWrite or fullAccess")
	f.StringVar(&tf.conns, "connections", "", "comma-separated connection names or ids the token may use (default: all)")
	f.StringVar(&tf.expires, "expires", "90d", "expiry: a duration (30d, 2w, 12h), a date (2026-12-31) or never")
	f.BoolVar(&tf.yes, "yes", false, "confirm a readWrite or fullAccess token, and --write, without a prompt")
	f.BoolVar(&write, "write", false, "merge the configuration into the client's config file (backed up first)")
	f.StringVar(&file, "file", "", "the config file to write (default: the client's user config file)")
	f.BoolVar(&stdio, "stdio", false, "configure the stdio bridge app-mcp (a local command) instead of the HTTP endpoint; Claude Desktop always gets it")
	return cmd
}

// endpointURL is the MCP endpoint: the port of the running app's handshake file, else the
// configured port (running false). A port chosen at start (0) cannot be known before.
func endpointURL(ctx context.Context, dir string, settings *config.JSONFile[config.Settings]) (url string, running bool, err error) {
	if h, err := config.ReadHandshake(dir); err == nil && h.Port > 0 {
		return fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port), true, nil
	}
	s, err := settings.Load(ctx)
	if err != nil {
		return "", false, err
	}
	if s.MCP.Port == 0 {
		return "", false, errors.New("the app is not running and its MCP port is chosen when it starts (mcp.port 0): start the app first")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", s.MCP.Port), false, nil
}

// cliTokens is the token store as `app client config` creates through it: the name comes from
// the setup (a free one when --name is empty), everything else from the command's token flags,
// asked and recorded as `app token create` does (createToken).
type cliTokens struct {
	cmd   *cobra.Command
	g     globalFlags
	cr    *core.Core
	flags tokenFlags
}

func (t cliTokens) List(ctx context.Context) ([]auth.Token, error) { return t.cr.Tokens().List(ctx) }

func (t cliTokens) Create(_ context.Context, req auth.NewToken) (auth.Token, string, error) {
	f := t.flags
	f.name = req.Name
	return createToken(t.cmd, t.g, t.cr, f)
}
