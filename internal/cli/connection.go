package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"app/backend/config"
	"app/backend/connections"
	"app/backend/core"
	"app/backend/driver"
)

// cliCore opens the backend for a CLI command: logs go to stderr, nothing listens.
func cliCore(ctx context.Context, g *Globals) (*core.Core, func(), error) {
	return OpenCore(ctx, *g, true, -1)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newConnectionCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{Use: "connection", Short: "Manage saved connections"}
	cmd.AddCommand(newConnectionAddCmd(g), newConnectionEditCmd(g), newConnectionListCmd(g), newConnectionRemoveCmd(g),
		newConnectionTypesCmd(g), newConnectionFieldsCmd(g))
	return cmd
}

func newConnectionAddCmd(g *Globals) *cobra.Command {
	var c connections.Connection
	var legacy connections.Connection
	var auth, ssl, keyEnv string
	var keyStdin bool
	var sf settingFlags
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Save a new connection (its secrets go to the keyring)",
		Long: "Save a new connection. Its settings are the fields its type's plugin describes (`app connection fields TYPE`):\n" +
			"give them with --set key=value, and secrets with --secret-env key=VAR or --secret-stdin key. The flags\n" +
			"--host, --port, --auth-method, --ssl-mode, --skip-tls-verify, --ca-file, --grpc-host, --grpc-port and\n" +
			"--api-key-env/--api-key-stdin stay as names for those keys. A field not given takes its default.",
		Example: `  app connection add --name local --host 127.0.0.1 --port 8080
  KEY=... app connection add --name cloud --host db.example.com --port 443 \
      --ssl-mode Required --auth-method "API Key" --api-key-env KEY
  app connection add --type TYPE --name NAME --set key=value --secret-env password=VAR`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := sf.exclusive(keyEnv, keyStdin); err != nil {
				return err
			}
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			d, err := cr.Describe(ctx, c.Type)
			if err != nil {
				return err
			}
			// A new connection starts from its type's defaults; then --url, then the named
			// flags and --set change what they name.
			c.Settings = d.Defaults()
			if err := sf.applyURL(d, &c.Settings); err != nil {
				return err
			}
			applyLegacyFlags(cmd.Flags().Changed, &c.Settings, legacy.Settings, auth, ssl)
			secrets, err := sf.apply(cmd.InOrStdin(), d, c.Type, &c.Settings)
			if err != nil {
				return err
			}
			key, err := readAPIKey(cmd.InOrStdin(), keyEnv, keyStdin)
			if err != nil {
				return err
			}
			if key == "" {
				key, c.Settings.Secrets = splitAPIKey(secrets)
			} else {
				_, c.Settings.Secrets = splitAPIKey(secrets)
			}
			if key != "" && c.Settings.AuthMethod == driver.AuthNone {
				return fmt.Errorf("an API key was given but --auth-method is %q: use --auth-method %q", driver.AuthNone, driver.AuthAPIKey)
			}
			saved, err := cr.Connections().Add(ctx, c, key)
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), saved)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "saved connection %q (%s)\n", saved.Name, saved.ID)
			return nil
		},
	}
	def := driver.DefaultSettings()
	f := cmd.Flags()
	f.StringVar(&c.Name, "name", "", "connection name (required)")
	// The default keeps the commands written before types were described (protocol 2's
	// named flags are the first driver's) working as they were.
	f.StringVar(&c.Type, "type", "weaviate", "connection type (`app connection types` lists them)")
	f.StringVar(&legacy.Settings.Host, "host", def.Host, "host name (--set host=...)")
	f.IntVar(&legacy.Settings.Port, "port", def.Port, "port (--set port=...)")
	f.StringVar(&auth, "auth-method", string(driver.AuthNone), `"None" or "API Key"`)
	f.StringVar(&ssl, "ssl-mode", string(driver.SSLDisabled), "Disabled, Preferred, Required, \"Required (skip verify)\", \"Verify CA\" or \"Verify Identity\"")
	f.BoolVar(&legacy.Settings.SkipTLSVerify, "skip-tls-verify", false, "trust any certificate, whatever the SSL mode")
	f.StringVar(&legacy.Settings.CAFile, "ca-file", "", "CA certificate file for Verify CA / Verify Identity")
	f.StringVar(&legacy.Settings.GRPCHost, "grpc-host", "", grpcHostUsage)
	f.IntVar(&legacy.Settings.GRPCPort, "grpc-port", 0, grpcPortUsage)
	sf.register(f)
	f.StringVar(&c.ExternalAccess, "external-access", connections.DefaultExternalAccess, externalAccessUsage)
	f.StringVar(&c.AIPolicy, "ai-policy", connections.DefaultAIPolicy, aiPolicyUsage)
	f.StringVar(&keyEnv, "api-key-env", "", "read the API key from this environment variable")
	f.BoolVar(&keyStdin, "api-key-stdin", false, "read the API key from the first line of standard input")
	_ = cmd.MarkFlagRequired("name")
	return cmd
}

const (
	externalAccessUsage = "what AI clients may reach: blocked (invisible), readOnly or readWrite"
	aiPolicyUsage       = "when AI clients' statements wait for your approval: alwaysAsk (reads too), askForWrites, or neverForWrites (writes refused)"
)

// applyLegacyFlags copies the named flags that were given (protocol 2's fields) onto s.
func applyLegacyFlags(changed func(string) bool, s *driver.Settings, v driver.Settings, auth, ssl string) {
	if changed("host") {
		s.Host = v.Host
	}
	if changed("port") {
		s.Port = v.Port
	}
	if changed("ssl-mode") {
		s.SSLMode = driver.SSLMode(ssl)
	}
	if changed("auth-method") {
		s.AuthMethod = driver.AuthMethod(auth)
	}
	if changed("skip-tls-verify") {
		s.SkipTLSVerify = v.SkipTLSVerify
	}
	if changed("ca-file") {
		s.CAFile = v.CAFile
	}
	if changed("grpc-host") {
		s.GRPCHost = v.GRPCHost
	}
	if changed("grpc-port") {
		s.GRPCPort = v.GRPCPort
	}
}

// newConnectionEditCmd changes only the flags given. A change that raises what AI clients
// may do on the connection (connections.RaisedRights) is made only when confirmed, with
// --yes or at a terminal prompt; lowering never asks.
func newConnectionEditCmd(g *Globals) *cobra.Command {
	var v connections.Connection
	var auth, ssl, keyEnv string
	var keyStdin, yes bool
	var sf settingFlags
	cmd := &cobra.Command{
		Use:   "edit NAME|ID",
		Short: "Change a saved connection; only the flags given change, the API key is kept unless a new one is given",
		Example: `  app connection edit local --port 8081
  app connection edit cloud --ai-policy neverForWrites
  app connection edit cloud --external-access readWrite --yes
  KEY=... app connection edit cloud --api-key-env KEY`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			changed := cmd.Flags().Changed
			if !slices.ContainsFunc(editFlags, changed) && !sf.given() {
				return fmt.Errorf("nothing to change: give at least one of --%s, --url, --set, --secret-env, --secret-stdin", strings.Join(editFlags, ", --"))
			}
			if err := sf.exclusive(keyEnv, keyStdin); err != nil {
				return err
			}
			// The secrets are read once (stdin can be read only once); apply runs twice, once
			// to plan and once under the file's lock.
			var d *driver.Description
			stdin := cmd.InOrStdin()
			if sf.secretStdin != "" {
				line, err := bufio.NewReader(stdin).ReadString('\n')
				if err != nil && err != io.EOF {
					return err
				}
				stdin = strings.NewReader(line)
			}
			key, err := readAPIKey(cmd.InOrStdin(), keyEnv, keyStdin)
			if err != nil {
				return err
			}
			var setErr error
			var secrets map[string]string
			apply := func(c *connections.Connection) {
				if changed("name") {
					c.Name = v.Name
				}
				if d != nil {
					setErr = sf.applyURL(*d, &c.Settings)
				}
				applyLegacyFlags(changed, &c.Settings, v.Settings, auth, ssl)
				if d != nil && setErr == nil {
					secrets, setErr = sf.apply(stdin, *d, c.Type, &c.Settings)
				}
				if changed("external-access") {
					c.ExternalAccess = v.ExternalAccess
				}
				if changed("ai-policy") {
					c.AIPolicy = v.AIPolicy
				}
			}
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			store := cr.Connections()
			saved, err := store.Get(ctx, args[0])
			if err != nil {
				return err
			}
			if sf.given() {
				desc, err := cr.Describe(ctx, saved.Type)
				if err != nil {
					return err
				}
				d = &desc
			}
			planned := saved
			planned.Settings = saved.Settings.Clone()
			apply(&planned)
			if setErr != nil {
				return setErr
			}
			if sf.secretStdin != "" {
				// apply read the line; the second apply reads the same line again.
				stdin = strings.NewReader(secrets[sf.secretStdin] + "\n")
			}
			confirmed, by := false, ""
			if raised := connections.RaisedRights(saved, planned); len(raised) > 0 {
				if by, err = confirmConnectionRaise(cmd, *g, yes, saved.Name, raised); err != nil {
					return err
				}
				confirmed = true
			}
			change := connections.Change{
				Apply: apply,
				Check: func(before, after connections.Connection) error {
					if setErr != nil {
						return setErr
					}
					if raised := connections.RaisedRights(before, after); len(raised) > 0 && !confirmed {
						return errRaiseNotConfirmed(before.Name, raised)
					}
					return nil
				},
			}
			if k, _ := splitAPIKey(maps.Clone(secrets)); key == "" && k != "" {
				key = k
			}
			if key != "" {
				change.APIKey = &key
			}
			_, change.Secrets = splitAPIKey(maps.Clone(secrets))
			before, after, err := store.Update(ctx, saved.ID, change)
			if err != nil {
				return err
			}
			if raised := connections.RaisedRights(before, after); len(raised) > 0 {
				recordRaise(cmd, *g, cr, "connection edit", fmt.Sprintf("connection %q: %s", after.Name, strings.Join(raised, "; ")), by)
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), after)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "updated connection %q (%s)\n", after.Name, after.ID)
			if before.ExternalAccess != after.ExternalAccess {
				fmt.Fprintf(cmd.OutOrStdout(), "external access: %s -> %s\n", before.ExternalAccess, after.ExternalAccess)
			}
			if before.AIPolicy != after.AIPolicy {
				fmt.Fprintf(cmd.OutOrStdout(), "AI policy: %s -> %s\n", before.AIPolicy, after.AIPolicy)
			}
			if key != "" {
				fmt.Fprintln(cmd.OutOrStdout(), "API key replaced in the keyring")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&v.Name, "name", "", "new connection name")
	f.StringVar(&v.Settings.Host, "host", "", "node host name")
	f.IntVar(&v.Settings.Port, "port", 0, "node port")
	f.StringVar(&auth, "auth-method", "", `"None" or "API Key"`)
	f.StringVar(&ssl, "ssl-mode", "", "Disabled, Preferred, Required, \"Required (skip verify)\", \"Verify CA\" or \"Verify Identity\"")
	f.BoolVar(&v.Settings.SkipTLSVerify, "skip-tls-verify", false, "trust any certificate, whatever the SSL mode (--skip-tls-verify=false turns it off)")
	f.StringVar(&v.Settings.CAFile, "ca-file", "", "CA certificate file for Verify CA / Verify Identity (\"\" clears it)")
	f.StringVar(&v.Settings.GRPCHost, "grpc-host", "", grpcHostUsage+` ("" restores it)`)
	f.IntVar(&v.Settings.GRPCPort, "grpc-port", 0, grpcPortUsage)
	f.StringVar(&v.ExternalAccess, "external-access", "", externalAccessUsage)
	f.StringVar(&v.AIPolicy, "ai-policy", "", aiPolicyUsage)
	f.StringVar(&keyEnv, "api-key-env", "", "replace the API key with the one in this environment variable")
	f.BoolVar(&keyStdin, "api-key-stdin", false, "replace the API key with the first line of standard input")
	f.BoolVar(&yes, "yes", false, "confirm a change that raises what AI clients may do on this connection")
	sf.register(f)
	return cmd
}

// The gRPC flags of connection add and edit (the read path where a server has GraphQL off).
const (
	grpcHostUsage = "gRPC host, where the driver reads when the server's query endpoint is off (default: the host; grpc-<host> for a hosted cluster)"
	grpcPortUsage = "gRPC port (0: 50051 for a self-hosted node, 443 for a hosted cluster)"
)

// editFlags are the flags of connection edit that change something.
var editFlags = []string{"name", "host", "port", "ssl-mode", "auth-method", "skip-tls-verify", "ca-file", "grpc-host", "grpc-port",
	"external-access", "ai-policy", "api-key-env", "api-key-stdin"}

// errRaiseNotConfirmed is the refusal of a raise nobody confirmed.
func errRaiseNotConfirmed(name string, raised []string) error {
	return fmt.Errorf("this change raises what AI clients may do on connection %q (%s) and was not confirmed: run it again with --yes, or at a terminal to answer the prompt; nothing was changed",
		name, strings.Join(raised, "; "))
}

// confirmConnectionRaise confirms a change that raises AI rights on a connection (raise.go).
func confirmConnectionRaise(cmd *cobra.Command, g Globals, yes bool, name string, raised []string) (string, error) {
	lines := []string{fmt.Sprintf("This change raises what AI clients may do on connection %q:", name)}
	for _, r := range raised {
		lines = append(lines, "  "+r)
	}
	by, err := confirmRaise(cmd, g, yes, "Raise AI access to "+name+"?", lines...)
	switch {
	case errors.Is(err, errNeedsConfirmation):
		return "", errRaiseNotConfirmed(name, raised)
	case errors.Is(err, errNotConfirmed):
		return "", fmt.Errorf("not confirmed: connection %q was not changed", name)
	}
	return by, err
}

// readAPIKey takes the key from an environment variable or stdin, never from a flag value,
// so it does not show in the process list or shell history.
func readAPIKey(stdin io.Reader, env string, fromStdin bool) (string, error) {
	switch {
	case env != "" && fromStdin:
		return "", fmt.Errorf("use either --api-key-env or --api-key-stdin, not both")
	case env != "":
		v, ok := os.LookupEnv(env)
		if !ok || v == "" {
			return "", fmt.Errorf("--api-key-env %s: that environment variable is empty or unset", env)
		}
		return v, nil
	case fromStdin:
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && err != io.EOF {
			return "", fmt.Errorf("read API key from stdin: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return "", fmt.Errorf("--api-key-stdin: standard input had no key")
		}
		return line, nil
	}
	return "", nil
}

func newConnectionListCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List saved connections",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			list, err := cr.Connections().List(ctx)
			if err != nil {
				return err
			}
			if g.json {
				if list == nil {
					list = []connections.Connection{}
				}
				return printJSON(cmd.OutOrStdout(), list)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tTYPE\tADDRESS\tSSL MODE\tAUTH\tEXTERNAL ACCESS\tAI POLICY\tID")
			described := map[string]driver.Description{}
			for _, c := range list {
				d, ok := described[c.Type]
				if !ok {
					if d, err = cr.Describe(ctx, c.Type); err != nil {
						d = driver.ProtocolTwoDescription(c.Type)
					}
					described[c.Type] = d
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Type, d.AddressOf(c.Settings), c.Settings.SSLMode, c.Settings.AuthMethod, c.ExternalAccess, c.AIPolicy, c.ID)
			}
			return w.Flush()
		},
	}
}

func newConnectionRemoveCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "remove ID|NAME",
		Short: "Remove a saved connection and its API key",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			if err := cr.Connections().Remove(ctx, args[0]); err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), map[string]string{"removed": args[0]})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed connection %q\n", args[0])
			return nil
		},
	}
}

func newSettingsCmd(g *Globals) *cobra.Command {
	cmd := &cobra.Command{Use: "settings", Short: "Read and change settings (for example mcp.requireAuth)"}
	get := &cobra.Command{
		Use:   "get [KEY]",
		Short: "Print one setting, or all of them",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := config.ResolveDir(g.configDir)
			if err != nil {
				return err
			}
			f := core.SettingsFile(dir)
			if len(args) == 0 {
				s, err := f.Load(cmd.Context())
				if err != nil {
					return err
				}
				return printJSON(cmd.OutOrStdout(), s)
			}
			v, err := config.GetSetting(cmd.Context(), f, args[0])
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), map[string]any{args[0]: v})
			}
			fmt.Fprintln(cmd.OutOrStdout(), v)
			return nil
		},
	}
	var yes bool
	set := &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Change one setting; a running app picks the change up",
		Long: "Change one setting; a running app picks the change up within a second.\n\n" +
			"Turning mcp.requireAuth off or mcp.externalAccess on raises what AI clients may do: while the desktop app runs " +
			"its window asks; otherwise it needs --yes or an answer at a terminal.",
		Example: "  app settings set mcp.port 23900\n  app settings set mcp.requireAuth false --yes",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := config.ResolveDir(g.configDir)
			if err != nil {
				return err
			}
			file := core.SettingsFile(dir)
			raise, err := settingRaises(cmd.Context(), file, args[0], args[1])
			if err != nil {
				return err
			}
			by := ""
			if raise != "" {
				by, err = confirmRaise(cmd, *g, yes, "Change "+args[0]+"?", raise)
				switch {
				case errors.Is(err, errNeedsConfirmation):
					return fmt.Errorf("%s: it needs confirmation: run it in a terminal, or pass --yes; nothing was changed", raise)
				case errors.Is(err, errNotConfirmed):
					return errors.New("not confirmed: nothing was changed")
				case err != nil:
					return err
				}
			}
			if err := config.SetSetting(cmd.Context(), file, args[0], args[1]); err != nil {
				return err
			}
			if by != "" {
				cr, done, err := cliCore(cmd.Context(), g)
				if err == nil {
					recordRaise(cmd, *g, cr, "settings set", fmt.Sprintf("%s = %s", args[0], args[1]), by)
					done()
				}
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), map[string]string{args[0]: args[1]})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s = %s\n", args[0], args[1])
			return nil
		},
	}
	set.Flags().BoolVar(&yes, "yes", false, "confirm a change that raises what AI clients may do (when no App window is open)")
	keys := &cobra.Command{
		Use:   "keys",
		Short: "List the setting keys",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			for _, k := range config.SettingKeys() {
				fmt.Fprintln(cmd.OutOrStdout(), k)
			}
		},
	}
	cmd.AddCommand(get, set, keys)
	return cmd
}

// settingRaises says how setting key to raw raises what AI clients may do ("" when it does
// not): turning authentication off lets every local process in as the anonymous principal,
// and turning external access on lets AI clients in at all.
func settingRaises(ctx context.Context, f *config.JSONFile[config.Settings], key, raw string) (string, error) {
	var from, to bool
	switch key {
	case "mcp.requireAuth":
		from, to = true, false
	case "mcp.externalAccess":
		from, to = false, true
	default:
		return "", nil
	}
	cur, err := config.GetSetting(ctx, f, key)
	if err != nil {
		return "", err
	}
	// The value is read as SetSetting reads it (strconv.ParseBool: 0, f, F, FALSE, ...), so no
	// spelling of the raise gets past this check.
	want, err := strconv.ParseBool(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%s: %q is not true or false", key, raw)
	}
	if cur != from || want != to {
		return "", nil
	}
	if key == "mcp.requireAuth" {
		return "Turning mcp.requireAuth off lets any local process call the MCP server without a token, as the read-only anonymous principal whose writes you approve", nil
	}
	return "Turning mcp.externalAccess on lets AI clients reach your connections again", nil
}
