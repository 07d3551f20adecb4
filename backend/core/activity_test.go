package core

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/activity"
	"app/backend/config"
	"app/backend/mcp"
	"app/backend/redact"
)

// post sends one modern request to the running server, as a client named activity-test.
func post(t *testing.T, port int, method string, params map[string]any) int {
	t.Helper()
	p := map[string]any{"_meta": map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{},
		mcp.MetaClientInfo:         map[string]any{"name": "activity-test", "version": "1.2.3"},
	}}
	for k, v := range params {
		p[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": p})
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", method)
	if name, ok := p["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// startAnonymous starts a Core whose MCP endpoint lets the anonymous loopback principal in.
func startAnonymous(t *testing.T) *Core {
	t.Helper()
	ctx := context.Background()
	c := openCore(t, 0)
	if err := config.SetSetting(ctx, c.Settings(), "mcp.requireAuth", "false"); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

func flushActivity(t *testing.T, c *Core) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Activity().Log().Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// Issue 11, "The activity log and connected clients": every MCP request to the running
// server is recorded, with its client, principal, tool and outcome, and the caller shows up
// among the connected clients.
func TestEveryMCPRequestIsRecorded(t *testing.T) {
	ctx := context.Background()
	c := startAnonymous(t)
	port := c.MCP().Port()
	if code := post(t, port, "tools/call", map[string]any{"name": "list_connections", "arguments": map[string]any{}}); code != http.StatusOK {
		t.Fatalf("tools/call: %d", code)
	}
	post(t, port, "tools/call", map[string]any{"name": "no_such_tool", "arguments": map[string]any{"connection": "c9", "query": "apikey=zz-top-secret-9"}})
	flushActivity(t, c)

	got, err := c.Activity().Log().List(ctx, activity.Filter{})
	if err != nil || len(got) != 2 {
		t.Fatalf("%d entries, %v: %+v", len(got), err, got)
	}
	t.Run("a result is recorded with client, principal, tool and outcome ok", func(t *testing.T) {
		e := got[1]
		if e.ClientName != "activity-test" || e.ClientVersion != "1.2.3" || e.Principal != "anonymous" ||
			e.Method != "tools/call" || e.Name != "list_connections" || e.Outcome != activity.OutcomeOK {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("a protocol error is recorded with its code, the connection and the redacted statement", func(t *testing.T) {
		e := got[0]
		if e.Outcome != "-32602" || e.Name != "no_such_tool" || e.Connection != "c9" || e.Statement != "apikey="+redact.Mask {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("the chain verifies", func(t *testing.T) {
		if v, err := c.Activity().Log().Verify(ctx); err != nil || !v.Intact() || v.Entries != 2 {
			t.Fatalf("%+v %v", v, err)
		}
	})
	t.Run("the caller is a connected client", func(t *testing.T) {
		recent := c.Activity().Clients().Recent(time.Minute)
		if len(recent) != 1 || recent[0].Name != "activity-test" || recent[0].Principal != "anonymous" ||
			recent[0].Requests != 2 || recent[0].Errors != 1 {
			t.Fatalf("%+v", recent)
		}
	})
	t.Run("the log is a private file in the config dir", func(t *testing.T) {
		st, err := os.Stat(filepath.Join(c.Dir(), activity.FileName))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%v %v", st, err)
		}
	})
	t.Run("Stop writes what is queued and closes the log; Start opens it again", func(t *testing.T) {
		post(t, port, "ping", nil)
		if err := c.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		if c.Activity().Log() != nil {
			t.Fatal("log still open")
		}
		ro, err := activity.OpenReadOnly(activity.Path(c.Dir()))
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close(ctx)
		if n, _ := ro.Count(ctx, activity.Filter{}); n != 3 {
			t.Fatalf("%d entries after Stop", n)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		post(t, c.MCP().Port(), "ping", nil)
		flushActivity(t, c)
		if v, err := c.Activity().Log().Verify(ctx); err != nil || !v.Intact() || v.Entries != 4 {
			t.Fatalf("%+v %v", v, err)
		}
	})
}

// Issue 11: kept for mcp.activityRetentionDays (default 90), pruned at start and hourly.
func TestActivityRetentionSetting(t *testing.T) {
	ctx := context.Background()
	t.Run("the default is 90 days", func(t *testing.T) {
		if config.DefaultSettings().MCP.ActivityRetentionDays != 90 {
			t.Fatal(config.DefaultSettings().MCP.ActivityRetentionDays)
		}
	})
	t.Run("Start prunes entries older than the setting", func(t *testing.T) {
		c := openCore(t, 0)
		if err := config.SetSetting(ctx, c.Settings(), "mcp.activityRetentionDays", "2"); err != nil {
			t.Fatal(err)
		}
		l := c.Activity().Log()
		// Written apart, as entries two days apart are: pruning removes whole blocks (one per
		// write), and entries written together share one.
		l.Append(activity.Entry{Time: time.Now().Add(-3 * 24 * time.Hour), Method: "tools/call", Outcome: "ok"})
		flushActivity(t, c)
		l.Append(activity.Entry{Time: time.Now().Add(-1 * 24 * time.Hour), Method: "tools/call", Outcome: "ok"})
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		flushActivity(t, c) // the first prune is queued by Start
		if v, err := l.Verify(ctx); err != nil || !v.Intact() || v.Entries != 1 || v.AnchorID != 1 {
			t.Fatalf("%+v %v", v, err)
		}
	})
	t.Run("values outside 1..3650 are refused", func(t *testing.T) {
		c := openCore(t, -1)
		for _, v := range []string{"0", "3651"} {
			if err := config.SetSetting(ctx, c.Settings(), "mcp.activityRetentionDays", v); err == nil || !strings.Contains(err.Error(), "activityRetentionDays") {
				t.Fatalf("%s: %v", v, err)
			}
		}
	})
}

// Issue 11: secrets read from the keyring (saved API keys) are scrubbed wherever they are
// echoed, because the Core's keyring registers them with the process's Redactor.
func TestKeyringSecretsAreRedacted(t *testing.T) {
	c := openCore(t, -1)
	const key = "saved-api-key-Qw3rty-77"
	if err := c.Keys().Set("test/apiKey", key); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Keys().Get("test/apiKey"); err != nil {
		t.Fatal(err)
	}
	if got := redact.String("Authentication failed: " + key); strings.Contains(got, key) {
		t.Fatalf("got %q", got)
	}
}

// SPEC.md B "Authentication" 5: the running server scrubs error text with backend/redact, so
// a saved API key echoed in an error never reaches the client.
func TestServerErrorTextIsRedacted(t *testing.T) {
	c := openCore(t, 0)
	ctx := context.Background()
	if err := c.Settings().Update(ctx, func(s *config.Settings) error { s.MCP.RequireAuth = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	const key = "weaviate-key-9f8e7d6c5b4a"
	redact.AddSecret(key)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + key + `","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(c.MCP().Port())+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 400 || strings.Contains(string(b), key) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}
