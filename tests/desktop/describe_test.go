package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/plugins/registry"
	"app/internal/pluginpub"
	"app/internal/testkit/testenv"
	"app/tests/desktop/harness"
)

// testDB is the index entry of the test-only plugin tests/plugins/testdb-driver.
var testDB = registry.Plugin{Name: "testdb", DisplayName: "Test DB", Description: "A file database made for the tests", Publisher: "App tests", Types: []string{"testdb"}}

// Contract 3, item 1: a driver's fields come from its description alone. A plugin built here
// and never shipped (tests/plugins/testdb-driver, a type the host has never heard of, with one
// field of each kind) is published into the app's registry and installed with the CLI; then
// `app connection fields` lists its fields, `app connection add --set/--secret-env` saves a
// connection of it (the secret in the keyring, not the file), and in the real window New
// connection offers the type and opens its form with a control for each field, found in the
// accessibility tree WebKitGTK builds from the page.
func TestAPluginsOwnFieldsMakeTheFormAndTheCLI(t *testing.T) {
	testenv.Require(t, harness.MissingTools("dbus-daemon", "xdotool"), testenv.File("/usr/libexec/at-spi-bus-launcher", "at-spi2-core (the accessibility bus), installed by scripts/ensure-desktop-deps.sh"))
	if err := exec.Command("/usr/bin/python3", "-c", `import gi; gi.require_version("Atspi", "2.0"); from gi.repository import Atspi`).Run(); err != nil {
		testenv.Require(t, fmt.Sprintf("python3-gi and gir1.2-atspi-2.0 (AT-SPI from Python), installed by scripts/ensure-desktop-deps.sh: %v", err))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	bus := "DBUS_SESSION_BUS_ADDRESS=" + sessionBus(t)
	d := harness.StartXvfb(t, screenW, screenH)
	launcher := exec.Command("/usr/libexec/at-spi-bus-launcher", "--launch-immediately")
	launcher.Env = d.Env(bus)
	if err := launcher.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = launcher.Process.Kill(); _ = launcher.Wait() })
	w := openWindowOn(ctx, t, d, "Adwaita", []string{bus, "NO_AT_BRIDGE=0"})
	if _, err := waitPainted(ctx, w.d, w.id, filepath.Join(w.art, "describe-window.png")); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}

	if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: w.reg.Dir, Version: "0.1.0", Key: w.reg.Signer, Plugin: testDB, Package: "app/tests/plugins/testdb-driver"}); err != nil {
		t.Fatalf("publish the test plugin: %v", err)
	}
	bin := requireWindow(t)
	cli := func(env []string, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, bin, append([]string{"--config-dir", w.configDir}, args...)...)
		cmd.Env = append(append(append(os.Environ(), keyringEnv...), w.reg.Env()...), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// Before it is installed, the type is described by the signed index (its publisher put
	// the program's description there): the CLI checks a new connection by its own fields.
	if out, err := cli(nil, "connection", "fields", "testdb"); err != nil || !strings.Contains(out, "Database file") || strings.Contains(out, "authMethod") {
		t.Fatalf("connection fields testdb before install: %v\n%s", err, out)
	}
	if out, err := cli(nil, "plugin", "install", "testdb"); err != nil {
		t.Fatalf("app plugin install testdb: %v\n%s", err, out)
	}

	t.Run("app connection types and fields list what the plugin describes", func(t *testing.T) {
		out, err := cli(nil, "connection", "types")
		if err != nil || !strings.Contains(out, "testdb") || !strings.Contains(out, "Test DB") || !strings.Contains(out, "weaviate") {
			t.Fatalf("connection types: %v\n%s", err, out)
		}
		out, err = cli(nil, "connection", "fields", "testdb")
		if err != nil {
			t.Fatalf("connection fields testdb: %v\n%s", err, out)
		}
		for _, want := range []string{"path ", "path", "mode ", "enum (read-only | read-write)", "password ", "secret", "label ", "text", "wal ", "bool", "cache ", "int 1..100000", "Advanced", "--url takes a testdb:// URL, e.g. testdb:///home/me/shop.db?mode=read-only"} {
			if !strings.Contains(out, want) {
				t.Errorf("the listing lacks %q:\n%s", want, out)
			}
		}
	})

	dbFile := filepath.Join(t.TempDir(), "shop.db")
	if err := os.WriteFile(dbFile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("app connection add saves the described fields, the secret only in the keyring", func(t *testing.T) {
		const secret = "pass-phrase-93f1"
		if out, err := cli(nil, "connection", "add", "--type", "testdb", "--name", "Shop file", "--set", "path="+dbFile, "--set", "cache=500", "--set", "colour=red"); err == nil || !strings.Contains(out, `"colour" is not a setting of testdb`) {
			t.Fatalf("an unknown key was not refused: %v\n%s", err, out)
		}
		if out, err := cli(nil, "connection", "add", "--type", "testdb", "--name", "Shop file", "--set", "password="+secret); err == nil || !strings.Contains(out, "is a secret") {
			t.Fatalf("a secret as a flag's value was not refused: %v\n%s", err, out)
		}
		if out, err := cli(nil, "connection", "add", "--type", "testdb", "--name", "Shop file", "--set", "path="+dbFile); err == nil || !strings.Contains(out, "Passphrase is required") {
			t.Fatalf("the missing passphrase was not named: %v\n%s", err, out)
		}
		if out, err := cli(nil, "connection", "add", "--type", "testdb", "--name", "Shop file", "--url", "testdb://:"+secret+"@"+dbFile); err == nil ||
			!strings.Contains(out, "holds a password") || strings.Contains(out, secret) {
			t.Fatalf("a password in a --url was not refused without being quoted: %v\n%s", err, out)
		}
		if out, err := cli(nil, "connection", "add", "--type", "testdb", "--name", "Shop file", "--url", "testdb://"+dbFile+"?colour=red"); err == nil ||
			!strings.Contains(out, `"colour" is not one these connections take (cache, mode)`) {
			t.Fatalf("an unknown URL parameter was not named: %v\n%s", err, out)
		}
		// The URL form (contract 3): the file and the cache come from the URL, the label from --set.
		out, err := cli([]string{"TESTDB_PASS=" + secret}, "connection", "add", "--type", "testdb", "--name", "Shop file",
			"--url", "testdb://"+dbFile+"?cache=500", "--set", "label=Shop", "--secret-env", "password=TESTDB_PASS")
		if err != nil {
			t.Fatalf("connection add: %v\n%s", err, out)
		}
		raw, err := os.ReadFile(filepath.Join(w.configDir, "connections.json"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), secret) {
			t.Fatalf("the passphrase is in connections.json:\n%s", raw)
		}
		var saved []struct {
			Type     string
			Settings struct {
				Values     map[string]string
				SecretKeys []string
			}
		}
		if err := json.Unmarshal(raw, &saved); err != nil || len(saved) != 1 {
			t.Fatalf("connections.json: %v\n%s", err, raw)
		}
		v := saved[0].Settings.Values
		if saved[0].Type != "testdb" || v["path"] != dbFile || v["cache"] != "500" || v["mode"] != "read-write" || v["wal"] != "true" || v["label"] != "Shop" ||
			strings.Join(saved[0].Settings.SecretKeys, ",") != "password" {
			t.Fatalf("saved %+v", saved[0])
		}
		out, err = cli(nil, "connection", "list")
		if err != nil || !strings.Contains(out, dbFile) {
			t.Fatalf("the list does not show the file as its address: %v\n%s", err, out)
		}
	})

	t.Run("the window offers the type and renders its form from the description", func(t *testing.T) {
		click := func(a accessible) {
			t.Helper()
			c := exec.CommandContext(ctx, "xdotool", "mousemove", fmt.Sprint(a.X+a.W/2), fmt.Sprint(a.Y+a.H/2), "click", "1")
			c.Env = w.d.Env()
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("xdotool click: %v: %s", err, out)
			}
		}
		click(waitButtons(ctx, t, w.d, bus, "New connection")["New connection"])
		_ = w.d.Screenshot(ctx, w.id, filepath.Join(w.art, "describe-chooser.png"))
		var card accessible
		for _, a := range waitNamed(ctx, t, w.d, bus, "Test DB") {
			if strings.Contains(a.Role, "button") {
				card = a
			}
		}
		if card.W == 0 {
			t.Fatal("the chooser has no Test DB button")
		}
		click(card)
		got := map[string]string{}
		for _, name := range []string{"Connection URL", "Database file", "Open mode", "Passphrase", "Display label", "Use a write-ahead log", "Choose Database file", "Advanced"} {
			for _, a := range waitNamed(ctx, t, w.d, bus, name) {
				if a.Name == name {
					got[name] = a.Role
				}
			}
		}
		shot := filepath.Join(w.art, "describe-form.png")
		if err := w.d.Screenshot(ctx, w.id, shot); err != nil {
			t.Fatal(err)
		}
		for name, role := range map[string]string{"Connection URL": "entry", "Database file": "entry", "Open mode": "combo box", "Passphrase": "password text", "Display label": "entry",
			"Use a write-ahead log": "check box", "Choose Database file": "button"} {
			if !strings.Contains(got[name], role) {
				t.Errorf("%q is a %q in the form, want a %s (%s)", name, got[name], role, shot)
			}
		}
	})
}
