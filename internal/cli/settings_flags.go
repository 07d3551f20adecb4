package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"app/backend/driver"
)

// settingFlags are the flags every connection type shares (contract 3): --set key=value for
// any field its plugin describes, and secrets read from the environment or stdin, never from
// a flag's value (the process list and shell history would show it).
type settingFlags struct {
	url         string
	set         []string
	secretEnv   []string
	secretStdin string
}

func (sf *settingFlags) register(f *pflag.FlagSet) {
	f.StringVar(&sf.url, "url", "", "a connection URL of the type's form (postgres://user@host:5432/db?sslmode=require) filling its fields; the named flags and --set override a part; no password in it")
	f.StringArrayVar(&sf.set, "set", nil, "a setting of the connection's type, key=value (repeatable; `app connection fields TYPE` lists the keys)")
	f.StringArrayVar(&sf.secretEnv, "secret-env", nil, "a secret setting read from an environment variable, key=VAR (repeatable)")
	f.StringVar(&sf.secretStdin, "secret-stdin", "", "a secret setting (its key) read from the first line of standard input")
}

// exclusive refuses two flags that would read standard input, or give the API key twice (the
// first read would swallow what the second expects, or one key would silently win).
func (sf *settingFlags) exclusive(keyEnv string, keyStdin bool) error {
	if sf.secretStdin != "" && keyStdin {
		return fmt.Errorf("--secret-stdin and --api-key-stdin both read standard input: give one of them")
	}
	apiKeyHere := sf.secretStdin == driver.KeyAPIKey
	for _, kv := range sf.secretEnv {
		if k, _, _ := strings.Cut(kv, "="); k == driver.KeyAPIKey {
			apiKeyHere = true
		}
	}
	if apiKeyHere && (keyEnv != "" || keyStdin) {
		return fmt.Errorf("the API key is given twice (--api-key-env/--api-key-stdin and a secret flag): give it once")
	}
	return nil
}

// given reports whether any of the flags was given.
func (sf *settingFlags) given() bool {
	return sf.url != "" || len(sf.set) > 0 || len(sf.secretEnv) > 0 || sf.secretStdin != ""
}

// applyURL sets what --url fills on s: each part as a value of the field it names (never a
// secret: a password in a flag's value is refused). The named flags and --set come after it.
func (sf *settingFlags) applyURL(d driver.Description, s *driver.Settings) error {
	if sf.url == "" {
		return nil
	}
	values, secrets, err := d.FromURL(sf.url)
	if err != nil {
		return fmt.Errorf("--url: %w", err)
	}
	if len(secrets) > 0 {
		// A flag's value shows in the process list and the shell's history.
		return fmt.Errorf("--url: the URL holds a password; leave it out and give it with --secret-env %s=VAR or --secret-stdin %s", d.URL.Password, d.URL.Password)
	}
	for k, v := range values {
		if f, ok := d.Field(k); !ok || f.Kind == driver.FieldSecret {
			return fmt.Errorf("--url: the URL fills %q, which is not a plain setting of these connections", k)
		}
		if err := s.SetValue(k, v); err != nil {
			return err
		}
	}
	return nil
}

// apply sets the --set values on s, checking each key against the type's description, and
// returns the secrets given (by key).
func (sf *settingFlags) apply(stdin io.Reader, d driver.Description, connType string, s *driver.Settings) (map[string]string, error) {
	field := func(key string, secret bool) error {
		f, ok := d.Field(key)
		switch {
		case !ok:
			return fmt.Errorf("%q is not a setting of %s connections: `app connection fields %s` lists them", key, connType, connType)
		case secret && f.Kind != driver.FieldSecret:
			return fmt.Errorf("%q is not a secret: give it with --set %s=VALUE", key, key)
		case !secret && f.Kind == driver.FieldSecret:
			return fmt.Errorf("%q is a secret: give it with --secret-env %s=VAR or --secret-stdin %s, never as a flag's value", key, key, key)
		}
		return nil
	}
	for _, kv := range sf.set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--set %q: write it as key=value", kv)
		}
		if err := field(k, false); err != nil {
			return nil, err
		}
		if err := s.SetValue(k, v); err != nil {
			return nil, err
		}
	}
	secrets := map[string]string{}
	for _, kv := range sf.secretEnv {
		k, env, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--secret-env %q: write it as key=ENVIRONMENT_VARIABLE", kv)
		}
		if err := field(k, true); err != nil {
			return nil, err
		}
		v := os.Getenv(env)
		if v == "" {
			return nil, fmt.Errorf("--secret-env %s=%s: that environment variable is empty or unset", k, env)
		}
		secrets[k] = v
	}
	if k := sf.secretStdin; k != "" {
		if err := field(k, true); err != nil {
			return nil, err
		}
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("read %s from stdin: %w", k, err)
		}
		if line = strings.TrimSpace(line); line == "" {
			return nil, fmt.Errorf("--secret-stdin %s: standard input had nothing", k)
		}
		secrets[k] = line
	}
	return secrets, nil
}

// splitAPIKey takes protocol 2's API key out of the secrets (the store keeps it apart).
func splitAPIKey(secrets map[string]string) (string, map[string]string) {
	key := secrets[driver.KeyAPIKey]
	delete(secrets, driver.KeyAPIKey)
	if len(secrets) == 0 {
		secrets = nil
	}
	return key, secrets
}

func newConnectionTypesCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "types",
		Short: "List the connection types the plugin registry offers and the installed plugins serve",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			types, err := cr.Types(ctx)
			if err != nil && len(types) == 0 {
				return err
			}
			if g.json {
				if types == nil {
					return printJSON(cmd.OutOrStdout(), []any{})
				}
				return printJSON(cmd.OutOrStdout(), types)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(w, "TYPE\tNAME\tPLUGIN\tINSTALLED\tABOUT")
			for _, t := range types {
				fmt.Fprintf(w, "%s\t%s\t%s\t%t\t%s\n", t.Name, t.Label, t.Plugin, t.Installed, t.Summary)
			}
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "the registry could not be read (%v): only installed types are listed\n", err)
			}
			return w.Flush()
		},
	}
}

func newConnectionFieldsCmd(g *Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "fields TYPE",
		Short: "List the settings of a connection type, as its plugin describes them (for --set and --secret-env)",
		Example: `  app connection fields TYPE
  app connection add --type TYPE --name NAME --set key=value --secret-env password=PGPASSWORD`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			cr, done, err := cliCore(ctx, g)
			if err != nil {
				return err
			}
			defer done()
			d, err := cr.Describe(ctx, args[0])
			if err != nil {
				return err
			}
			if g.json {
				return printJSON(cmd.OutOrStdout(), d)
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 4, 2, ' ', 0)
			fmt.Fprintln(w, "KEY\tLABEL\tKIND\tDEFAULT\tREQUIRED\tSECTION\tHELP")
			for _, f := range d.Settings {
				kind := string(f.Kind)
				if len(f.Options) > 0 {
					kind += " (" + strings.Join(f.Options, " | ") + ")"
				}
				if f.Kind == driver.FieldInt && (f.Min != 0 || f.Max != 0) {
					kind += fmt.Sprintf(" %d..%d", f.Min, f.Max)
				}
				req := "no"
				if f.Required {
					req = "yes"
					if f.ShowWhen != nil {
						req = fmt.Sprintf("when %s is %s", f.ShowWhen.Key, strings.Join(f.ShowWhen.In, " or "))
					}
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Key, f.Label, kind, f.Default, req, f.Section, f.Help)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if u := d.URL; u != nil && len(u.Schemes) > 0 {
				example := u.Example
				if example == "" {
					example = u.Schemes[0] + "://…"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "\n--url takes a %s:// URL, e.g. %s (a password goes in a secret flag, not in it)\n", strings.Join(u.Schemes, ":// or "), example)
			}
			return nil
		},
	}
}
