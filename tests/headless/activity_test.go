package headless

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// asActivityClient is the _meta of the requests TestActivityCLI sends: the client
// "headless-activity" 0.9.
var asActivityClient = map[string]any{"io.modelcontextprotocol/clientInfo": map[string]any{"name": "headless-activity", "version": "0.9"}}

type activityEntry struct {
	ID         int64  `json:"id"`
	ClientName string `json:"clientName"`
	Principal  string `json:"principal"`
	Method     string `json:"method"`
	Name       string `json:"name"`
	Connection string `json:"connection"`
	Statement  string `json:"statement"`
	Outcome    string `json:"outcome"`
}

// Issue 11, CLI: `app activity list|export|verify` read the activity log the running app
// writes, and verify exits 1 naming the first broken link once one byte of an entry is
// changed. No secret an AI client sent reaches any file of the config dir.
func TestActivityCLI(t *testing.T) {
	const secret = "zz-top-secret-1234"
	dir := t.TempDir()
	// The anonymous loopback principal may call, so the requests need no token.
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"mcp":{"enabled":true,"requireAuth":false}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)
	if code := mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/call",
		Params: map[string]any{"_meta": asActivityClient, "name": "list_connections", "arguments": map[string]any{}}}).StatusCode; code != http.StatusOK {
		t.Fatalf("list_connections: %d", code)
	}
	mcpPost(t.Context(), h.Port, mcpRequest{Method: "tools/call", Params: map[string]any{"_meta": asActivityClient, "name": "no_such_tool",
		"arguments": map[string]any{"connection": "c9", "query": "GET http://admin:" + secret + "@127.0.0.1/?apikey=" + secret}}})

	var entries []activityEntry
	t.Run("list --json shows the requests while the app runs", func(t *testing.T) {
		waitFor(t, "two activity entries", func() bool {
			out, _, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--json")
			return err == nil && json.Unmarshal([]byte(out), &entries) == nil && len(entries) == 2
		}, logs)
		ok, failed := entries[1], entries[0]
		if ok.ClientName != "headless-activity" || ok.Principal != "anonymous" || ok.Name != "list_connections" || ok.Outcome != "ok" {
			t.Fatalf("%+v", ok)
		}
		if failed.Outcome != "-32602" || failed.Connection != "c9" || strings.Contains(failed.Statement, secret) || !strings.Contains(failed.Statement, "[REDACTED]") {
			t.Fatalf("%+v", failed)
		}
	})
	t.Run("list filters by outcome and prints a table", func(t *testing.T) {
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--outcome", "error", "--client", "headless-activity")
		if err != nil || !strings.Contains(out, "no_such_tool") || strings.Contains(out, "list_connections") {
			t.Fatalf("%v %s\n%s", err, stderr, out)
		}
	})
	t.Run("verify reports the intact chain while the app runs", func(t *testing.T) {
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "verify")
		if err != nil || strings.TrimSpace(out) != "chain intact: 2 entries" {
			t.Fatalf("%v %q %s", err, out, stderr)
		}
	})
	t.Run("export --out writes a private CSV file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "activity.csv")
		if _, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "export", "--format", "csv", "--out", file); err != nil {
			t.Fatalf("%v %s", err, stderr)
		}
		st, _ := os.Stat(file)
		f, _ := os.Open(file)
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil || len(rows) != 3 || rows[0][0] != "id" || rows[1][8] != "list_connections" || st.Mode().Perm() != 0o600 {
			t.Fatalf("%v %v %v", err, rows, st.Mode())
		}
	})
	t.Run("export writes CSV to standard output by default", func(t *testing.T) {
		out, _, err := run(t, env(), "", "--config-dir", dir, "activity", "export")
		if err != nil || !strings.HasPrefix(out, "id,time,client_name") || strings.Count(out, "\n") != 3 {
			t.Fatalf("%v %q", err, out)
		}
	})

	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("did not exit")
	}

	t.Run("no file of the config dir and no log line holds the secret", func(t *testing.T) {
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(secret)) {
					t.Errorf("%s holds the secret", p)
				}
			}
			return nil
		})
		if strings.Contains(logs.String(), secret) {
			t.Error("the app log holds the secret")
		}
	})
	t.Run("verify exits 1 naming the entry after one byte of it is changed", func(t *testing.T) {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "activity.db"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{`DROP TRIGGER blocks_append_only`, `UPDATE blocks SET entries = json_set(entries, '$[0].outcome', 'oj') WHERE first_id = 1`} {
			if _, err := db.Exec(s); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "verify")
		if code := activityExitCode(err); code != 1 || !strings.Contains(stderr, "chain broken at entry 1") || strings.Contains(out, "intact") {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
		}
	})
}

// activityExitCode is the exit status of a finished command, -1 when it did not exit.
func activityExitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
