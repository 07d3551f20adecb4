package resources

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"

	"app/backend/approval"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/secrets"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// TestMain stops the weaviate-server nodes the tests start (internal/testkit/weaviatetest).
func TestMain(m *testing.M) { weaviatetest.Main(m) }

// env is one test's world, all real: a weaviate-server node, saved connections to it in a
// connections.Store, the Manager that opens them with the in-process Weaviate driver, the
// approval.Gate (the person at its dialog is the one stand-in), the resource table on an MCP
// server over HTTP, and the Watcher polling for it.
type env struct {
	node    *weaviatenode.Node
	store   *connections.Store
	manager *connections.Manager
	gate    *approval.Gate
	deps    Deps
	srv     *mcptest.Server
	watch   *Watcher
	// conns by name: "Node" (default policy: reads run), "Ask" (alwaysAsk), "Blocked"
	// (invisible to AI), "Down" (nothing listens on its port).
	conns map[string]connections.Connection
	// answer is what the dialog answers; asked counts the dialogs shown.
	answer atomic.Int32
	asked  atomic.Int32
}

type envOptions struct {
	// node is the weaviate-server; nil: the shared fixture-loaded API-key node.
	node *weaviatenode.Node
	// auth, when set, makes the server's Authenticator once the connections are saved.
	auth func(e *env) mcp.Authenticator
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{node: o.node, store: mcptest.NewStore(t), conns: map[string]connections.Connection{}}
	if e.node == nil {
		e.node = weaviatetest.Shared(t, weaviatenode.APIKey)
	}
	settings := driver.DefaultSettings()
	settings.Host, settings.Port = e.node.Host, e.node.Port
	if e.node.APIKey != "" {
		settings.AuthMethod = driver.AuthAPIKey
	}
	down := settings
	down.Port = closedPort(t)
	for _, c := range []connections.Connection{
		{Type: "weaviate", Name: "Node", Settings: settings},
		{Type: "weaviate", Name: "Ask", Settings: settings, AIPolicy: connections.PolicyAlwaysAsk},
		{Type: "weaviate", Name: "Blocked", Settings: settings, ExternalAccess: connections.AccessBlocked},
		{Type: "weaviate", Name: "Down", Settings: down},
	} {
		saved, err := e.store.Add(ctx, c, e.node.APIKey)
		if err != nil {
			t.Fatal(err)
		}
		e.conns[saved.Name] = saved
	}
	e.manager = connections.NewManager(e.store, connections.ManagerOptions{
		Factory: func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return weaviate.New(c.Settings)
		},
	})
	t.Cleanup(e.manager.Close)
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(t.TempDir(), "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	e.gate = approval.NewGate(approval.Options{Keys: keys, Dialog: approval.DialogFunc(func(context.Context, approval.Question) (approval.Answer, error) {
		e.asked.Add(1)
		return approval.Answer(e.answer.Load()), nil
	})})
	e.deps = Deps{Connections: e.store, Store: e.store, Open: e.manager, Approver: e.gate}
	e.watch = NewWatcher(e.deps, testPoll, nil)
	var authn mcp.Authenticator
	if o.auth != nil {
		authn = o.auth(e)
	}
	e.srv = mcptest.Start(t, mcp.Options{Resources: Resources(e.deps), ResourceTemplates: Templates(e.deps),
		OnSubscribe: e.watch.Subscribe, Authenticator: authn})
	e.watch.Start(e.srv.Server)
	t.Cleanup(e.watch.Stop)
	return e
}

// id is the saved id of the named connection.
func (e *env) id(name string) string { return e.conns[name].ID }

// read reads a resource and fails the test when the node's API key is anywhere in the answer
// (SPEC.md B "Authentication" 5).
func (e *env) read(t *testing.T, uri string) mcptest.Reply {
	t.Helper()
	r := e.srv.Call(t, "resources/read", map[string]any{"uri": uri})
	if b, _ := json.Marshal(r); e.node.APIKey != "" && bytes.Contains(b, []byte(e.node.APIKey)) {
		t.Fatalf("the API key is in the answer: %s", b)
	}
	return r
}

// text decodes the first content item's JSON text of a resources/read result into v.
func text(t *testing.T, r mcptest.Reply, v any) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("protocol error %d %s", r.Error.Code, r.Error.Message)
	}
	c := r.Result["contents"].([]any)[0].(map[string]any)
	if c["mimeType"] != "application/json" {
		t.Fatalf("%v", c)
	}
	if err := json.Unmarshal([]byte(c["text"].(string)), v); err != nil {
		t.Fatal(err)
	}
}

func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	return port
}

// postElicitation posts resources/read as a client that declared elicitation, with extra
// params (requestState, inputResponses on a follow-up).
func postElicitation(t *testing.T, url, uri string, extra map[string]any) map[string]any {
	t.Helper()
	p := map[string]any{"uri": uri, "_meta": map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{}},
	}}
	for k, v := range extra {
		p[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": p})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "resources/read")
	req.Header.Set("Mcp-Name", uri)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}
