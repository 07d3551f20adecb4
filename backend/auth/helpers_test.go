package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/mcp"
	"app/backend/secrets"
)

// fakeClock is the one fake here: time that tests move, for the rate and lockout windows.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now().UTC().Truncate(time.Second)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func quietLog() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// openKeys is a real keyring: the encrypted-file backend in the config dir.
func openKeys(t testing.TB, dir string) secrets.Keyring {
	t.Helper()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// rig is a real MCP server on 127.0.0.1:0 with a Service over a real token store and keyring
// in a temporary config dir. Its tools: whoami (the caller's principal) and wait (blocks until
// cancelled or unblocked).
type rig struct {
	t      testing.TB
	dir    string
	store  *Store
	svc    *Service
	clock  *fakeClock
	srv    *mcp.Server
	url    string
	client *http.Client

	started  chan string   // a wait call began: its principal id
	unblock  chan struct{} // closing it ends every wait call
	answered chan mcp.Record
}

type rigOptions struct {
	limits    *Limits
	pollEvery time.Duration
	start     bool // Service.Start (the poll)
	settings  *config.MCPSettings
}

func newRig(t testing.TB, o rigOptions) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir(), clock: newFakeClock(), started: make(chan string, 64),
		unblock: make(chan struct{}), answered: make(chan mcp.Record, 1024),
		client: &http.Client{Timeout: 20 * time.Second}}
	r.store = NewStore(r.dir, openKeys(t, r.dir))
	if o.pollEvery == 0 {
		o.pollEvery = time.Hour // only what a test triggers
	}
	r.svc = NewService(Options{Store: r.store, Log: quietLog(), Clock: r.clock, Limits: o.limits, PollEvery: o.pollEvery,
		Revoke: func(id string) { r.srv.RevokePrincipal(id) }})
	set := config.DefaultSettings().MCP
	if o.settings != nil {
		set = *o.settings
	}
	r.svc.Apply(set)
	srv, err := mcp.NewServer(mcp.Options{
		Tools:         []mcp.Tool{whoamiTool(), r.waitTool()},
		Authenticator: r.svc,
		Logger:        quietLog(),
		Observer: func(rec mcp.Record) {
			select {
			case r.answered <- rec:
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	port, err := srv.Listen(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	r.url = "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	if o.start {
		r.svc.Start()
	}
	t.Cleanup(func() {
		select {
		case <-r.unblock:
		default:
			close(r.unblock)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		r.svc.Stop()
	})
	return r
}

func whoamiTool() mcp.Tool {
	return mcp.Tool{
		Name:        "whoami",
		Description: "the caller's principal",
		InputSchema: &jsonschema.Schema{Type: "object"},
		Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
			p := mcp.CallFrom(ctx).Principal
			return &mcp.ToolResult{Structured: map[string]any{
				"id": p.ID, "name": p.Name, "level": p.Level, "scopes": p.Scopes,
				"anonymous": p.Anonymous, "connections": p.Connections,
			}}, nil
		},
	}
}

func (r *rig) waitTool() mcp.Tool {
	return mcp.Tool{
		Name:        "wait",
		Description: "blocks until cancelled",
		InputSchema: &jsonschema.Schema{Type: "object"},
		Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
			r.started <- mcp.CallFrom(ctx).Principal.ID
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-r.unblock:
				return &mcp.ToolResult{Text: "done"}, nil
			}
		},
	}
}

// create makes a token through the rig's store (as the app would).
func (r *rig) create(name, level string, conns []string, expires *time.Time) (Token, string) {
	r.t.Helper()
	tok, secret, err := r.store.Create(context.Background(), NewToken{Name: name, Level: level, Connections: conns, ExpiresAt: expires})
	if err != nil {
		r.t.Fatal(err)
	}
	return tok, secret
}

// reply is one answer as a test reads it.
type reply struct {
	Status int
	Header http.Header
	Result map[string]any
	Error  *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
	ID json.RawMessage
}

func (p reply) code() int {
	if p.Error == nil {
		return 0
	}
	return p.Error.Code
}

// call posts one modern request with Authorization set to auth ("" for none).
func (r *rig) call(auth, method string, params map[string]any) reply {
	r.t.Helper()
	rep, err := r.tryCall(auth, method, params)
	if err != nil {
		r.t.Fatal(err)
	}
	return rep
}

func (r *rig) tryCall(auth, method string, params map[string]any) (reply, error) {
	p := map[string]any{"_meta": map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{},
	}}
	for k, v := range params {
		p[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": p})
	req, _ := http.NewRequest(http.MethodPost, r.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", method)
	if method == "tools/call" {
		req.Header.Set("Mcp-Name", p["name"].(string))
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	out := reply{Status: resp.StatusCode, Header: resp.Header}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return reply{}, err
	}
	out.Result, out.ID = env.Result, env.ID
	if env.Error != nil {
		_ = json.Unmarshal(env.Error, &out.Error)
	}
	return out, nil
}

// tool calls a tool as the bearer of secret ("" for no Authorization header).
func (r *rig) tool(secret, name string) reply {
	r.t.Helper()
	return r.call(bearerOf(secret), "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
}

func bearerOf(secret string) string {
	if secret == "" {
		return ""
	}
	return "Bearer " + secret
}

// whoami is the principal the server saw for the bearer of secret.
func (r *rig) whoami(secret string) map[string]any {
	r.t.Helper()
	rep := r.tool(secret, "whoami")
	if rep.Status != http.StatusOK || rep.Result == nil {
		r.t.Fatalf("whoami: %d %+v", rep.Status, rep.Error)
	}
	return rep.Result["structuredContent"].(map[string]any)
}

// waitAnswered waits until the server has answered n more requests (their Release ran).
func (r *rig) waitAnswered(n int) {
	r.t.Helper()
	timeout := time.After(10 * time.Second)
	for range n {
		select {
		case <-r.answered:
		case <-timeout:
			r.t.Fatal("the server did not answer in 10 s")
		}
	}
}

// drainAnswered forgets the answers seen so far.
func (r *rig) drainAnswered() {
	for {
		select {
		case <-r.answered:
		default:
			return
		}
	}
}
