package core

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/auth"
	"app/backend/config"
)

// Issue 44: a path setting is inside the config dir however it is spelled: relative, through
// "..", through a link, in SQLite's URI form, or naming a file not made yet.
func TestAPathIsInsideTheConfigDirHoweverItIsSpelled(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "config")
	other := filepath.Join(root, "data")
	for _, d := range []string{dir, other, filepath.Join(dir, "keyring")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "connections.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(other, "link")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	t.Cleanup(func() { _ = os.Chdir(wd) })
	if err := os.Chdir(other); err != nil {
		t.Fatal(err)
	}
	for path, inside := range map[string]bool{
		filepath.Join(dir, "connections.json"):  true,
		dir:                                     true,
		filepath.Join(dir, "keyring", "new.db"): true,
		filepath.Join(dir, "not", "made", "yet.db"):                true,
		filepath.Join(other, "..", "config", "settings.json"):      true,
		"../config/settings.json":                                  true,
		filepath.Join(other, "link", "connections.json"):           true,
		"link/activity/0001.log":                                   true,
		"file:" + filepath.Join(dir, "settings.json") + "?mode=rw": true,
		"file://" + filepath.Join(dir, "x.db"):                     true,
		filepath.Join(other, "lite.db"):                            false,
		"lite.db":                                                  false,
		filepath.Join(root, "config2", "x.db"):                     false,
		filepath.Join(root, "configx.db"):                          false,
	} {
		if got := under(path, dir); got != inside {
			t.Errorf("%s: inside %v, want %v", path, got, inside)
		}
	}
}

// Issue 44, item 2: a running App does not act on a policy change another program wrote (the
// settings watcher reads App's own last version), reports it, and applies it once the person
// accepts it; a token's level raised in the tokens file by another program stays as it was.
func TestAPolicyChangeByAnotherProgramTakesNoEffectUntilAccepted(t *testing.T) {
	ctx := context.Background()
	c := openCore(t, 0)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	tok, secret, err := c.Tokens().Create(ctx, auth.NewToken{Name: "reader", Level: auth.LevelReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	if err := config.SetSetting(ctx, c.Settings(), "mcp.requireAuth", "true"); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(c.Dir(), config.SettingsFileName)
	b, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	foreign := strings.Replace(string(b), `"requireAuth": true`, `"requireAuth": false`, 1)
	if foreign == string(b) {
		t.Fatalf("no requireAuth in %s", b)
	}
	if err := os.WriteFile(settings, []byte(foreign), 0o600); err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(c.Dir(), auth.TokensFileName)
	tb, _ := os.ReadFile(tokens)
	if err := os.WriteFile(tokens, []byte(strings.Replace(string(tb), `"readOnly"`, `"fullAccess"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	// Two polls of the watchers later, nothing changed for AI clients.
	time.Sleep(2500 * time.Millisecond)
	if got := postDiscover(t, c, ""); got != http.StatusUnauthorized {
		t.Fatalf("anonymous after another program turned requireAuth off: %d, want 401", got)
	}
	if got, err := c.Tokens().Get(ctx, tok.ID); err != nil || got.Level != auth.LevelReadOnly {
		t.Fatalf("the token's level: %+v %v", got, err)
	}
	findings, err := c.Integrity().Check(ctx)
	if err != nil || len(findings) != 2 {
		t.Fatalf("findings %+v %v", findings, err)
	}
	// The person reverts the tokens file and accepts the settings.
	if err := c.Integrity().Revert(ctx, auth.TokensFileName); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(tokens); string(got) != string(tb) {
		t.Fatalf("reverted tokens file:\n%s\nwant\n%s", got, tb)
	}
	if err := c.Integrity().Accept(ctx, config.SettingsFileName); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for postDiscover(t, c, "") != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("the accepted change did not take effect within 5 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := postDiscover(t, c, "Bearer "+secret); got != http.StatusOK {
		t.Fatalf("the token after the revert: %d", got)
	}
}
