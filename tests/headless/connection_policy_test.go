package headless

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"app/backend/secrets"
	"app/internal/testkit/testenv"
)

// savedConn is a connection as `app connection list --json` prints it.
type savedConn struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Settings struct {
		Host          string `json:"host"`
		Port          int    `json:"port"`
		AuthMethod    string `json:"authMethod"`
		SSLMode       string `json:"sslMode"`
		SkipTLSVerify bool   `json:"skipTlsVerify"`
		CAFile        string `json:"caFile"`
		APIKey        string `json:"apiKey"`
	} `json:"settings"`
	ExternalAccess string `json:"externalAccess"`
	AIPolicy       string `json:"aiPolicy"`
	CreatedAt      string `json:"createdAt"`
}

// cli runs the app against dir and fails the test when the command fails.
func cli(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	out, stderr, err := run(t, env(), stdin, append([]string{"--config-dir", dir}, args...)...)
	if err != nil {
		t.Fatalf("app %s: %v\nstderr: %s", strings.Join(args, " "), err, stderr)
	}
	return out
}

func listConns(t *testing.T, dir string) map[string]savedConn {
	t.Helper()
	out := cli(t, dir, "", "connection", "list", "--json")
	var list []savedConn
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("list --json %q: %v", out, err)
	}
	m := map[string]savedConn{}
	for _, c := range list {
		m[c.Name] = c
	}
	return m
}

// savedKey reads a connection's API key out of the file keyring the binary wrote.
func savedKey(t *testing.T, dir, id string) string {
	t.Helper()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.Get("connection/" + id + "/apiKey")
	if err != nil {
		t.Fatalf("API key of %s: %v", id, err)
	}
	return k
}

// addWithRights saves connection "c" with an external access and an AI policy.
func addWithRights(t *testing.T, dir, access, policy string) {
	t.Helper()
	cli(t, dir, "", "connection", "add", "--name", "c", "--host", "127.0.0.1", "--port", "8080",
		"--external-access", access, "--ai-policy", policy)
}

func TestConnectionEdit(t *testing.T) {
	t.Run("connection edit changes only the flags given", func(t *testing.T) {
		dir := t.TempDir()
		cli(t, dir, "k-first\n", "connection", "add", "--name", "cloud", "--host", "h.example", "--port", "443",
			"--ssl-mode", "Verify CA", "--ca-file", "/etc/ca.pem", "--auth-method", "API Key", "--api-key-stdin",
			"--external-access", "readOnly", "--ai-policy", "askForWrites")
		before := listConns(t, dir)["cloud"]
		for _, tc := range []struct {
			args []string
			set  func(*savedConn)
		}{
			{[]string{"--port", "8443"}, func(c *savedConn) { c.Settings.Port = 8443 }},
			{[]string{"--host", "other.example"}, func(c *savedConn) { c.Settings.Host = "other.example" }},
			{[]string{"--skip-tls-verify"}, func(c *savedConn) { c.Settings.SkipTLSVerify = true }},
			{[]string{"--ssl-mode", "Required", "--ca-file", ""}, func(c *savedConn) { c.Settings.SSLMode = "Required"; c.Settings.CAFile = "" }},
			{[]string{"--ai-policy", "alwaysAsk"}, func(c *savedConn) { c.AIPolicy = "alwaysAsk" }},
			{[]string{"--external-access", "blocked"}, func(c *savedConn) { c.ExternalAccess = "blocked" }},
			{[]string{"--name", "renamed"}, func(c *savedConn) { c.Name = "renamed" }},
		} {
			name := before.Name
			cli(t, dir, "", append([]string{"connection", "edit", name}, tc.args...)...)
			tc.set(&before)
			got := listConns(t, dir)[before.Name]
			if got != before {
				t.Fatalf("after edit %v:\n got %+v\nwant %+v", tc.args, got, before)
			}
		}
		if k := savedKey(t, dir, before.ID); k != "k-first" {
			t.Fatal("the API key changed though no new key was given")
		}
	})
	t.Run("connection edit keeps the API key unless a new one is given, and never prints or writes it", func(t *testing.T) {
		dir := t.TempDir()
		var outputs []string
		runAll := func(envv []string, stdin string, args ...string) {
			out, stderr, err := run(t, envv, stdin, append([]string{"--config-dir", dir}, args...)...)
			outputs = append(outputs, out, stderr)
			if err != nil {
				t.Fatalf("app %v: %v\n%s", args, err, stderr)
			}
		}
		runAll(env(), "k-old-5e1d\n", "connection", "add", "--name", "cloud", "--host", "h.example", "--port", "443",
			"--ssl-mode", "Required", "--auth-method", "API Key", "--api-key-stdin")
		id := listConns(t, dir)["cloud"].ID
		runAll(env(), "", "connection", "edit", "cloud", "--port", "444", "--json")
		if savedKey(t, dir, id) != "k-old-5e1d" {
			t.Fatal("an edit without a new key lost the key")
		}
		runAll(env("NEW_KEY=k-new-77c2"), "", "connection", "edit", "cloud", "--api-key-env", "NEW_KEY")
		if savedKey(t, dir, id) != "k-new-77c2" {
			t.Fatal("--api-key-env did not replace the key")
		}
		runAll(env(), "k-third-a90b\n", "connection", "edit", "cloud", "--api-key-stdin", "--json")
		if savedKey(t, dir, id) != "k-third-a90b" {
			t.Fatal("--api-key-stdin did not replace the key")
		}
		runAll(env(), "", "connection", "list")
		runAll(env(), "", "connection", "list", "--json")
		for _, key := range []string{"k-old-5e1d", "k-new-77c2", "k-third-a90b"} {
			for i, o := range outputs {
				if strings.Contains(o, key) {
					t.Errorf("output %d shows the API key %s: %q", i, key, o)
				}
			}
			_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				if err != nil || info.IsDir() {
					return nil
				}
				data, _ := os.ReadFile(p)
				if bytes.Contains(data, []byte(key)) {
					t.Errorf("%s holds the API key %s in clear", p, key)
				}
				return nil
			})
		}
	})
	t.Run("connection edit validates like add and a refused edit changes nothing", func(t *testing.T) {
		dir := t.TempDir()
		addWithRights(t, dir, "readWrite", "askForWrites")
		cli(t, dir, "", "connection", "add", "--name", "other", "--host", "127.0.0.1", "--port", "8081")
		file := filepath.Join(dir, "connections.json")
		was, _ := os.ReadFile(file)
		for _, args := range [][]string{
			{"--ai-policy", "whenever"},
			{"--external-access", "sometimes"},
			{"--port", "0"},
			{"--ssl-mode", "Sometimes"},
			{"--name", "OTHER"},
			{"--auth-method", "API Key"},       // no key saved, none given
			{"--api-key-stdin"},                // a key for a connection with Auth Method None
			{"--ai-policy", "alwaysAsk", "-x"}, // unknown flag
		} {
			_, stderr, err := run(t, env(), "k-stray\n", append([]string{"--config-dir", dir, "connection", "edit", "c"}, args...)...)
			if err == nil {
				t.Errorf("edit %v accepted", args)
			}
			if strings.Contains(stderr, "k-stray") {
				t.Errorf("edit %v printed the key: %q", args, stderr)
			}
			if now, _ := os.ReadFile(file); !bytes.Equal(now, was) {
				t.Fatalf("a refused edit %v changed connections.json", args)
			}
		}
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "edit", "c"); err == nil || !strings.Contains(stderr, "nothing to change") {
			t.Errorf("edit without flags: %v %q", err, stderr)
		}
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "edit", "nobody", "--port", "1"); err == nil || !strings.Contains(stderr, "not found") {
			t.Errorf("edit of an unknown connection: %v %q", err, stderr)
		}
	})
	t.Run("connection add refuses an unknown AI policy", func(t *testing.T) {
		dir := t.TempDir()
		_, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "add", "--name", "c", "--host", "h", "--port", "1", "--ai-policy", "whenever")
		if err == nil || !strings.Contains(stderr, "alwaysAsk, askForWrites, neverForWrites") {
			t.Fatalf("err %v, stderr %q", err, stderr)
		}
	})
}

func TestConnectionJSON(t *testing.T) {
	t.Run("connection list shows external access and AI policy, in the table and in --json", func(t *testing.T) {
		dir := t.TempDir()
		cli(t, dir, "", "connection", "add", "--name", "plain", "--host", "127.0.0.1", "--port", "8080")
		addWithRights(t, dir, "readOnly", "alwaysAsk")
		got := listConns(t, dir)
		if got["plain"].ExternalAccess != "readWrite" || got["plain"].AIPolicy != "askForWrites" {
			t.Errorf("defaults: %+v", got["plain"])
		}
		if got["c"].ExternalAccess != "readOnly" || got["c"].AIPolicy != "alwaysAsk" {
			t.Errorf("given: %+v", got["c"])
		}
		table := cli(t, dir, "", "connection", "list")
		if !strings.Contains(table, "EXTERNAL ACCESS") || !strings.Contains(table, "AI POLICY") || !strings.Contains(table, "alwaysAsk") || !strings.Contains(table, "askForWrites") {
			t.Errorf("table:\n%s", table)
		}
	})
	t.Run("connection add and edit --json print the saved connection without its key", func(t *testing.T) {
		dir := t.TempDir()
		out := cli(t, dir, "k-json-31\n", "--json", "connection", "add", "--name", "c", "--host", "h.example", "--port", "443",
			"--auth-method", "API Key", "--api-key-stdin", "--ai-policy", "neverForWrites")
		var added savedConn
		if err := json.Unmarshal([]byte(out), &added); err != nil || added.ID == "" || added.AIPolicy != "neverForWrites" || added.ExternalAccess != "readWrite" {
			t.Fatalf("add --json %q: %v", out, err)
		}
		out = cli(t, dir, "", "connection", "edit", "c", "--ai-policy", "alwaysAsk", "--yes", "--json")
		var edited savedConn
		if err := json.Unmarshal([]byte(out), &edited); err != nil {
			t.Fatalf("edit --json %q: %v", out, err)
		}
		want := added
		want.AIPolicy = "alwaysAsk"
		if edited != want {
			t.Fatalf("edit --json\n got %+v\nwant %+v", edited, want)
		}
		if strings.Contains(out, "k-json-31") || strings.Contains(out, "apiKey") {
			t.Fatalf("edit --json shows the key: %s", out)
		}
	})
}

// rightsChange is one edit of connection "c", from the rights it was added with.
type rightsChange struct {
	rule           string
	access, policy string   // what "c" is added with
	args           []string // the edit
}

// raises are edits that let AI clients do more on the connection, or with fewer approvals.
var raises = []rightsChange{
	{"external access blocked -> readOnly is a raise: the connection becomes visible", "blocked", "askForWrites", []string{"--external-access", "readOnly"}},
	{"external access readOnly -> readWrite is a raise: writes become possible", "readOnly", "askForWrites", []string{"--external-access", "readWrite"}},
	{"AI policy alwaysAsk -> askForWrites is a raise: reads stop asking", "readWrite", "alwaysAsk", []string{"--ai-policy", "askForWrites"}},
	{"AI policy neverForWrites -> askForWrites is a raise: writes become possible", "readWrite", "neverForWrites", []string{"--ai-policy", "askForWrites"}},
	{"AI policy neverForWrites -> alwaysAsk is a raise on a read-write connection", "readWrite", "neverForWrites", []string{"--ai-policy", "alwaysAsk"}},
	{"AI policy alwaysAsk -> neverForWrites is a raise: reads stop asking", "readWrite", "alwaysAsk", []string{"--ai-policy", "neverForWrites"}},
	{"a raise hidden in a change that also lowers is still a raise", "readOnly", "askForWrites", []string{"--external-access", "readWrite", "--ai-policy", "alwaysAsk"}},
}

// lowers are edits that let AI clients do less, or nothing more.
var lowers = []rightsChange{
	{"external access readWrite -> readOnly is a lowering", "readWrite", "askForWrites", []string{"--external-access", "readOnly"}},
	{"external access readOnly -> blocked is a lowering", "readOnly", "askForWrites", []string{"--external-access", "blocked"}},
	{"AI policy askForWrites -> neverForWrites is a lowering", "readWrite", "askForWrites", []string{"--ai-policy", "neverForWrites"}},
	{"AI policy askForWrites -> alwaysAsk is a lowering", "readWrite", "askForWrites", []string{"--ai-policy", "alwaysAsk"}},
	{"an AI policy change on a blocked connection raises nothing", "blocked", "alwaysAsk", []string{"--ai-policy", "askForWrites"}},
	{"readOnly+askForWrites -> readWrite+neverForWrites raises nothing: writes stay refused", "readOnly", "askForWrites", []string{"--external-access", "readWrite", "--ai-policy", "neverForWrites"}},
}

// Issue 11, "an agent must not raise its own rights": a CLI change that raises what AI clients
// may do on a connection needs --yes or a terminal prompt; lowering never asks.
func TestConnectionRaiseNeedsConfirmation(t *testing.T) {
	for _, tc := range raises {
		t.Run(tc.rule+"; without --yes and without a terminal it is refused and changes nothing", func(t *testing.T) {
			dir := t.TempDir()
			addWithRights(t, dir, tc.access, tc.policy)
			file := filepath.Join(dir, "connections.json")
			was, _ := os.ReadFile(file)
			// A "y" on a pipe is no confirmation: nobody is at a terminal.
			_, stderr, err := run(t, env(), "y\n", append([]string{"--config-dir", dir, "connection", "edit", "c"}, tc.args...)...)
			if err == nil {
				t.Fatal("the raise was made without confirmation")
			}
			if !strings.Contains(stderr, "--yes") || !strings.Contains(stderr, "raises what AI clients may do") || !strings.Contains(stderr, "nothing was changed") {
				t.Fatalf("the refusal does not say why or name --yes: %q", stderr)
			}
			if now, _ := os.ReadFile(file); !bytes.Equal(now, was) {
				t.Fatal("a refused raise changed connections.json")
			}
		})
		t.Run(tc.rule+"; with --yes it is made", func(t *testing.T) {
			dir := t.TempDir()
			addWithRights(t, dir, tc.access, tc.policy)
			cli(t, dir, "", append([]string{"connection", "edit", "c", "--yes"}, tc.args...)...)
			assertEdited(t, dir, tc)
		})
	}
	for _, tc := range lowers {
		t.Run(tc.rule+"; it is made without asking", func(t *testing.T) {
			dir := t.TempDir()
			addWithRights(t, dir, tc.access, tc.policy)
			out, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "connection", "edit", "c"}, tc.args...)...)
			if err != nil {
				t.Fatalf("%v: %s", err, stderr)
			}
			if strings.Contains(out+stderr, "[y/N]") || strings.Contains(out+stderr, "--yes") {
				t.Fatalf("a lowering asked: %q %q", out, stderr)
			}
			assertEdited(t, dir, tc)
		})
	}
	t.Run("a raise at a terminal asks, and only a yes makes it", func(t *testing.T) {
		testenv.Require(t, testenv.Tool("script"))
		tc := raises[1]
		for _, answer := range []string{"y", "n", ""} {
			dir := t.TempDir()
			addWithRights(t, dir, tc.access, tc.policy)
			out, err := atTerminal(t, answer+"\n", append([]string{"--config-dir", dir, "connection", "edit", "c"}, tc.args...)...)
			if !strings.Contains(out, "Allow it? [y/N]") || !strings.Contains(out, "writes: refused") {
				t.Fatalf("answer %q: no prompt naming the raise: %q", answer, out)
			}
			got := listConns(t, dir)["c"].ExternalAccess
			if answer == "y" {
				if err != nil || got != "readWrite" {
					t.Fatalf("answer y: %v, external access %s; output %q", err, got, out)
				}
			} else if err == nil || got != tc.access {
				t.Fatalf("answer %q: %v, external access %s; output %q", answer, err, got, out)
			}
		}
	})
}

// assertEdited checks that connection "c" now has the rights the edit asked for.
func assertEdited(t *testing.T, dir string, tc rightsChange) {
	t.Helper()
	want := savedConn{ExternalAccess: tc.access, AIPolicy: tc.policy}
	for i := 0; i+1 < len(tc.args); i += 2 {
		switch tc.args[i] {
		case "--external-access":
			want.ExternalAccess = tc.args[i+1]
		case "--ai-policy":
			want.AIPolicy = tc.args[i+1]
		}
	}
	got := listConns(t, dir)["c"]
	if got.ExternalAccess != want.ExternalAccess || got.AIPolicy != want.AIPolicy {
		t.Fatalf("now %s/%s, want %s/%s", got.ExternalAccess, got.AIPolicy, want.ExternalAccess, want.AIPolicy)
	}
}

// atTerminal runs the app with a real pseudo-terminal as its stdin and stdout, through
// script(1), typing input; it returns what the terminal showed.
func atTerminal(t *testing.T, input string, args ...string) (string, error) {
	t.Helper()
	quoted := []string{shellQuote(appBin)}
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	cmd := exec.Command("script", "-q", "-e", "-c", strings.Join(quoted, " "), "/dev/null")
	cmd.Env = env()
	cmd.Stdin = strings.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
