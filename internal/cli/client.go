package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"app/backend/auth"
	"app/backend/buildinfo"
	"app/backend/clientsetup"
	"app/backend/config"
	"app/backend/core"
	"app/backend/pairing"
)

// `app client config CLIENT`: "Connect a client" from the command line (issue 11). It mints a
// token for the client and prints the configuration that client's own config file takes (the
// HTTP endpoint with the Authorization header); --write merges it into that file after a
// backup, once the user agreed.
func newClientCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{Use: "client", Short: "Connect an AI client (Claude Code, Claude Desktop, Codex, Gemini CLI, Copilot CLI, VS Code, Cursor, ...)"}
	cmd.AddCommand(newClientListCmd(g), newClientConfigCmd(g), newClientRemoveCmd(g), newClientBundleCmd(g), newClientRepairCmd(g))
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
func newClientRepairCmd(g *Globals) *cobra.Command {
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
	Format string         `json:"format"`
	Text   string         `json:"text"`
	File   string         `json:"file,omitempty"`
	Note   string         `json:"note,omitempty"`
	Token  *struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Level string `json:"level"`
	} `json:"token,omitempty"`
	Written string `json:"written,omitempty"`
	Backup  string `json:"backup,omitempty"`
}

func newClientConfigCmd(g *Globals) *cobra.Command {
	var tf tokenFlags
	var write, stdio, socket bool
	var file, project string
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
  app client config codex --write              # ~/.codex/config.toml, comments kept
  app client config claude-code-project --project . --write   # .mcp.json, no token in it
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
			if !c.NeedsToken() {
				for _, name := range []string{"level", "connections", "expires", "name", "stdio"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("--%s: %s's file is shared with the project and holds no token (it starts app-mcp with your app's readOnly access); use claude-code for a token of your own", name, c.Title)
					}
				}
			} else if cmd.Flags().Changed("project") {
				return fmt.Errorf("--project: %s's file is not a project's (only claude-code-project's is)", c.Title)
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
				target = c.ConfigFileIn(project)
			}
			sock := ""
			if socket {
				if !c.Socket {
					return fmt.Errorf("--socket: %s takes no Unix socket (VS Code does)", c.Title)
				}
				h, err := config.ReadHandshake(cr.Dir())
				if err != nil || h.Socket == "" {
					return errors.New("--socket: the app is not running with its Unix socket: start it first")
				}
				sock = h.Socket
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
				Endpoint: pairing.Endpoint{URL: url, Stdio: stdio, Bridge: pairing.BridgePath(), ConfigDir: cr.Dir(), Project: project, Socket: sock}}
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
				Config: snip.Doc(), Format: snip.Format, Text: snip.Text, Written: setup.Written, Backup: setup.Backup}
			if t.ID != "" {
				res.Token = &struct {
					ID    string `json:"id"`
					Name  string `json:"name"`
					Level string `json:"level"`
				}{t.ID, t.Name, t.Level}
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), res)
			}
			out, errw := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if !running {
				fmt.Fprintf(errw, "The app is not running: the URL uses the configured port (%s); start the app before the client connects.\n", url)
			}
			if t.ID != "" {
				fmt.Fprintf(errw, "Created the %s token %q for %s. It is in the configuration below and shown nowhere else.\n", t.Level, t.Name, c.Title)
			}
			if res.Written != "" {
				fmt.Fprintf(out, "wrote the app's server into %s", res.Written)
				if res.Backup != "" {
					fmt.Fprintf(out, " (backup: %s)", res.Backup)
				}
				fmt.Fprintln(out)
			} else {
				fmt.Fprint(out, snip.Text)
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
	f.BoolVar(&stdio, "stdio", false, "configure the stdio bridge app-mcp (a local command) instead of the HTTP endpoint; Claude Desktop and Codex always get it")
	f.StringVar(&project, "project", "", "the project directory of a project's config file (claude-code-project; default: the working directory)")
	f.BoolVar(&socket, "socket", false, "point the client at the running app's Unix socket (mode 0600, this user only) instead of 127.0.0.1 (VS Code)")
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
	g     Globals
	cr    *core.Core
	flags tokenFlags
}

func (t cliTokens) List(ctx context.Context) ([]auth.Token, error) { return t.cr.Tokens().List(ctx) }

func (t cliTokens) Create(_ context.Context, req auth.NewToken) (auth.Token, string, error) {
	f := t.flags
	f.name = req.Name
	return createToken(t.cmd, t.g, t.cr, f)
}

// clientListEntry is one line of `app client list --json`.
type clientListEntry struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Format string `json:"format"`
	File   string `json:"file,omitempty"`
	// Configured: the file names the app's server now.
	Configured bool   `json:"configured"`
	Transport  string `json:"transport"`
	Proof      string `json:"proof"`
}

// `app client list`: every client the app configures, the file it writes for each, whether
// the app's server is in it, and the check that proves that file.
func newClientListCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the AI clients the app configures, their files and what proves each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var list []clientListEntry
			for _, c := range pairing.Clients {
				e := clientListEntry{ID: c.ID, Title: c.Title, Format: c.FormatName(), File: c.ConfigFile(), Proof: c.Proof, Transport: "HTTP"}
				if c.StdioOnly() {
					e.Transport = "stdio (app-mcp)"
				}
				e.Configured = pairing.Configured(c, e.File)
				list = append(list, e)
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), list)
			}
			out := cmd.OutOrStdout()
			for _, e := range list {
				state := ""
				if e.Configured {
					state = " (configured)"
				}
				file := e.File
				if file == "" {
					file = "(a file you choose)"
				}
				fmt.Fprintf(out, "%-20s %s, %s: %s%s\n%-20s proven: %s\n", e.ID, e.Title, e.Format, file, state, "", e.Proof)
			}
			return nil
		},
	}
}

// clientRemoveResult is `app client remove --json`.
type clientRemoveResult struct {
	Client  string `json:"client"`
	File    string `json:"file"`
	Backup  string `json:"backup,omitempty"`
	Revoked string `json:"revoked,omitempty"`
}

// `app client remove CLIENT`: undo `app client config --write`: the app's server leaves the
// client's file (backed up first, everything else kept) and the token it held is revoked.
func newClientRemoveCmd(g *Globals) *cobra.Command {
	var file, project string
	var yes bool
	cmd := &cobra.Command{
		Use:   "remove CLIENT",
		Short: "Take the app's server out of a client's config file and revoke the token it held",
		Long: "CLIENT is one of " + clientIDs() + ". The file is backed up first; its other servers and comments stay. " +
			"The token in the removed entry, given to no other client, is revoked.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := pairing.Find(args[0])
			if err != nil {
				return err
			}
			target := file
			if target == "" {
				target = c.ConfigFileIn(project)
			}
			if target == "" {
				return fmt.Errorf("%s has no config file the app knows: give it with --file", c.Title)
			}
			if !yes {
				if err := confirm(cmd, fmt.Sprintf("Remove the app's MCP server from %s (the file is backed up first) and revoke its token?", target)); err != nil {
					return err
				}
			}
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			r, err := clientsetup.Remove(ctx, cr.Tokens(), c, target, time.Now())
			if r.File == "" && err != nil {
				return err
			}
			res := clientRemoveResult{Client: c.ID, File: r.File, Backup: r.Backup, Revoked: r.Revoked.Name}
			if g.json {
				if perr := printJSON(cmd.OutOrStdout(), res); perr != nil {
					return perr
				}
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "removed the app's server from %s (backup: %s)\n", r.File, r.Backup)
			if res.Revoked != "" {
				fmt.Fprintf(out, "revoked the token %q it held\n", res.Revoked)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "file", "", "the config file (default: the client's own)")
	f.StringVar(&project, "project", "", "the project directory (claude-code-project; default: the working directory)")
	f.BoolVar(&yes, "yes", false, "remove without a prompt")
	return cmd
}

// `app client bundle`: the MCP Bundle (.mcpb) for Claude Desktop, with the stdio bridge beside
// this program inside; make dist ships it beside the packages.
func newClientBundleCmd(_ *Globals) *cobra.Command {
	var out, bridge string
	cmd := &cobra.Command{
		Use:   "bundle",
		Short: "Write the Claude Desktop extension (.mcpb) with the stdio bridge inside",
		Long: "Claude Desktop installs the bundle with a double-click and asks for the token (a sensitive setting " +
			"it keeps in the OS keychain); the bundle holds no secret.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if bridge == "" {
				bridge = pairing.BridgePath()
			}
			if !filepath.IsAbs(bridge) {
				p, err := exec.LookPath(bridge)
				if err != nil {
					return fmt.Errorf("the stdio bridge %s was not found beside the app or on PATH: give it with --bridge", bridge)
				}
				bridge = p
			}
			tmp, err := os.CreateTemp(filepath.Dir(out), ".app-bundle-*")
			if err != nil {
				return err
			}
			defer os.Remove(tmp.Name())
			if err := pairing.WriteBundle(tmp, bridge, buildinfo.Version(), time.Now()); err != nil {
				tmp.Close()
				return err
			}
			if err := tmp.Close(); err != nil {
				return err
			}
			if err := os.Chmod(tmp.Name(), 0o644); err != nil {
				return err
			}
			if err := os.Rename(tmp.Name(), out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "app.mcpb", "the bundle file to write")
	cmd.Flags().StringVar(&bridge, "bridge", "", "the app-mcp program to put inside (default: the one beside the app)")
	return cmd
}
