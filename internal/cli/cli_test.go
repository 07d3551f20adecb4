package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/pairing"
)

// run runs the root command in this process with args, the window replaced by desktop.
func run(t *testing.T, desktop Desktop, args ...string) (stdout string, err error) {
	t.Helper()
	root := NewRoot(desktop)
	var out, errw bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errw)
	root.SetIn(strings.NewReader(""))
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return out.String(), err
}

// The root command with no subcommand opens the window with the shared flags it was given;
// --headless does not (it runs the backend here, which this test does not start).
func TestTheRootOpensTheWindowWithItsFlags(t *testing.T) {
	dir := t.TempDir()
	var got Globals
	port := -2
	_, err := run(t, func(_ context.Context, g Globals, p int) error { got, port = g, p; return nil },
		"--config-dir", dir, "--registry", "file:///r/index.json", "--mcp-port", "0")
	if err != nil || got.configDir != dir || got.registry != "file:///r/index.json" || port != 0 {
		t.Fatalf("%v %+v %d", err, got, port)
	}
	if _, err := run(t, nil, "stray"); err == nil {
		t.Fatal("an argument the root takes none of was accepted")
	}
}

// --where takes COLUMN OPERATOR [VALUE] with the contract's operators; each wrong form is
// refused naming what to give instead.
func TestWhereAndSortParse(t *testing.T) {
	got, err := parseWhere([]string{"stock greater_than 50", "title is_null", "price between 10 20", "name equals a b c"})
	want := []driver.Filter{
		{Column: "stock", Operator: driver.OpGreater, Value: "50"},
		{Column: "title", Operator: driver.OpIsNull},
		{Column: "price", Operator: driver.OpBetween, Value: "10", Value2: "20"},
		{Column: "name", Operator: driver.OpEquals, Value: "a b c"},
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if err != nil || string(gb) != string(wb) {
		t.Fatalf("%v\n%s\n%s", err, gb, wb)
	}
	for in, says := range map[string]string{
		"stock":                "give COLUMN OPERATOR",
		"stock bigger 5":       "is not an operator",
		"title is_null x":      "takes no value",
		"price between 10":     "takes two values",
		"stock greater_than  ": "takes a value",
	} {
		if _, err := parseWhere([]string{in}); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want %q", in, err, says)
		}
	}
	if s, err := parseSort([]string{"price:desc", "title"}); err != nil || len(s) != 2 || !s[0].Descending || s[1].Descending {
		t.Fatalf("%+v %v", s, err)
	}
}

// An API key comes from one named environment variable or one line of stdin, never both,
// and never empty.
func TestAPIKeyFromTheEnvironmentOrStdin(t *testing.T) {
	t.Setenv("APP_TEST_KEY", "k-env")
	if k, err := readAPIKey(nil, "APP_TEST_KEY", false); err != nil || k != "k-env" {
		t.Fatalf("%q %v", k, err)
	}
	if k, err := readAPIKey(strings.NewReader("  k-stdin \nmore\n"), "", true); err != nil || k != "k-stdin" {
		t.Fatalf("%q %v", k, err)
	}
	for _, c := range []struct {
		env   string
		stdin string
		both  bool
	}{{env: "APP_TEST_UNSET_KEY"}, {stdin: "\n", both: false}, {env: "APP_TEST_KEY", both: true}} {
		if _, err := readAPIKey(strings.NewReader(c.stdin), c.env, c.both || c.env == ""); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

// A failed command's error for machines is {"error": {"message", "kind"}}, the kind being
// the driver's when a database call failed.
func TestErrorsForMachinesCarryTheDriversKind(t *testing.T) {
	var b bytes.Buffer
	printError(&b, errors.Join(errors.New("export"), &driver.Error{Kind: driver.KindAuth, Msg: "Authentication failed: no"}))
	var doc struct {
		Error struct{ Message, Kind string }
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Error.Kind != string(driver.KindAuth) || !strings.Contains(doc.Error.Message, "Authentication failed") {
		t.Fatalf("%s %v", b.String(), err)
	}
}

// `app client list --json` names every client the app configures, its file and format, the
// check that proves it, and whether the app's server is in the file now.
func TestClientListNamesEveryClient(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CODEX_HOME", "")
	codex := filepath.Join(home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(codex), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(codex, []byte("[mcp_servers.app]\ncommand = \"app-mcp\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, nil, "--json", "client", "list")
	if err != nil {
		t.Fatal(err)
	}
	var list []clientListEntry
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != len(pairing.Clients) {
		t.Fatalf("%v: %s", err, out)
	}
	for _, e := range list {
		if e.Proof == "" || e.Format == "" {
			t.Errorf("%+v: no proof or format", e)
		}
		if (e.ID == "codex") != e.Configured {
			t.Errorf("%s configured %v", e.ID, e.Configured)
		}
		if e.ID == "codex" && (e.File != codex || e.Format != "TOML") {
			t.Errorf("%+v", e)
		}
	}
}

// `app client remove` refuses a client's file that names no app server, and changes nothing.
func TestClientRemoveOfAnAbsentEntryChangesNothing(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("APP_KEYRING_BACKEND", "file")
	t.Setenv("APP_KEYRING_PASSWORD", "test")
	file := filepath.Join(home, "mcp.json")
	before := "{\n  // mine\n  \"mcpServers\": {\"other\": {\"url\": \"http://x\"}}\n}\n"
	if err := os.WriteFile(file, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, nil, "--config-dir", filepath.Join(home, "cfg"), "client", "remove", "cursor", "--file", file, "--yes")
	if !errors.Is(err, pairing.ErrNotConfigured) {
		t.Fatalf("%v", err)
	}
	b, _ := os.ReadFile(file)
	backups, _ := filepath.Glob(file + ".bak-*")
	if string(b) != before || len(backups) != 0 {
		t.Fatalf("changed: %s %v", b, backups)
	}
}
