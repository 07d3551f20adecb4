package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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

// TestMain stops the shared weaviate-server nodes the tests start (internal/testkit/weaviatetest).
func TestMain(m *testing.M) { weaviatetest.Main(m) }

// The read tools' tests run against a real weaviate-server (the shared, fixture-loaded node of
// the API-key variant, so that every answer can be checked for the key), a real
// connections.Store and Manager whose factory builds the in-process Weaviate driver, the real
// approval.Gate, and a real MCP server called over HTTP.

// env is one test's world: saved connections to the shared node, the manager that opens them,
// the gate that approves statements, and a server serving the read tools.
type env struct {
	node    *weaviatenode.Node
	store   *connections.Store
	manager *connections.Manager
	gate    *approval.Gate
	deps    Deps
	srv     *mcptest.Server
	// conns are the saved connections by name: "Node" (default policy: reads run), "Ask"
	// (alwaysAsk), "Blocked" (invisible to AI), "BadKey" (a wrong API key), "Down" (nothing
	// listens on its port).
	conns map[string]connections.Connection
	// requests records the paths and queries the drivers sent to the node.
	requests *requestLog
}

type envOptions struct {
	limits *Limits
	dialog approval.Dialog
	// auth, when set, is the server's Authenticator, made once the connections are saved.
	auth func(e *env) mcp.Authenticator
	// tools, when set, are the tools the server serves (readTools when nil).
	tools func(Deps) []mcp.Tool
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	ctx := context.Background()
	node := weaviatetest.Shared(t, weaviatenode.APIKey)
	e := &env{node: node, store: mcptest.NewStore(t), conns: map[string]connections.Connection{}, requests: &requestLog{}}
	settings := driver.DefaultSettings()
	settings.Host, settings.Port, settings.AuthMethod = node.Host, node.Port, driver.AuthAPIKey
	down := settings
	down.Port = closedPort(t)
	for _, c := range []struct {
		conn connections.Connection
		key  string
	}{
		{connections.Connection{Type: "weaviate", Name: "Node", Settings: settings}, node.APIKey},
		{connections.Connection{Type: "weaviate", Name: "Ask", Settings: settings, AIPolicy: connections.PolicyAlwaysAsk}, node.APIKey},
		{connections.Connection{Type: "weaviate", Name: "Blocked", Settings: settings, ExternalAccess: connections.AccessBlocked}, node.APIKey},
		{connections.Connection{Type: "weaviate", Name: "BadKey", Settings: settings}, "not-the-key-" + strconv.Itoa(node.Port)},
		{connections.Connection{Type: "weaviate", Name: "Down", Settings: down}, node.APIKey},
	} {
		saved, err := e.store.Add(ctx, c.conn, c.key)
		if err != nil {
			t.Fatal(err)
		}
		e.conns[saved.Name] = saved
	}
	client := &http.Client{Transport: recording{log: e.requests, next: http.DefaultTransport}}
	e.manager = connections.NewManager(e.store, connections.ManagerOptions{
		Factory: func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			d, err := weaviate.New(c.Settings, weaviate.WithHTTPClient(client))
			if err != nil {
				return nil, err
			}
			return d, nil
		},
	})
	t.Cleanup(e.manager.Close)
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(t.TempDir(), "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	e.gate = approval.NewGate(approval.Options{Keys: keys, Dialog: o.dialog})
	e.deps = Deps{Conns: Conns{Store: e.store, Open: e.manager}, Approver: e.gate}
	if o.limits != nil {
		l := *o.limits
		e.deps.Limits = func() Limits { return l }
	}
	var authn mcp.Authenticator
	if o.auth != nil {
		authn = o.auth(e)
	}
	tools := readTools
	if o.tools != nil {
		tools = o.tools
	}
	e.srv = mcptest.Start(t, mcp.Options{Tools: tools(e.deps), Authenticator: authn})
	return e
}

// servedNode is one of the two real weaviate-servers a rule is proven on, both holding the
// same fixtures: the API-key node with GraphQL on, and the node with GraphQL off, which the
// driver reads over gRPC.
type servedNode struct {
	name    string // "GraphQL on", "GraphQL off": the subtest's name
	conn    string // the saved connection to it
	node    *weaviatenode.Node
	graphQL bool
}

// bothNodes returns the node newEnv reaches (connection "Node", GraphQL on) and the shared
// GraphQL-off node (weaviatenode.NoGraphQL), saving the connection "NoGraphQL" to it on the
// first call.
func (e *env) bothNodes(t *testing.T) []servedNode {
	t.Helper()
	off := weaviatetest.Shared(t, weaviatenode.NoGraphQL)
	if _, ok := e.conns["NoGraphQL"]; !ok {
		s := driver.DefaultSettings()
		s.Host, s.Port, s.GRPCPort = off.Host, off.Port, off.GRPCPort
		saved, err := e.store.Add(context.Background(), connections.Connection{Type: "weaviate", Name: "NoGraphQL", Settings: s}, "")
		if err != nil {
			t.Fatal(err)
		}
		e.conns[saved.Name] = saved
	}
	return []servedNode{{"GraphQL on", "Node", e.node, true}, {"GraphQL off", "NoGraphQL", off, false}}
}

// readTools are the tools this package's read-side files add, in All's order.
func readTools(d Deps) []mcp.Tool {
	return []mcp.Tool{ConnectionStatus(d), Connect(d), Disconnect(d), ListTables(d), DescribeTable(d),
		SearchSchema(d), BrowseTable(d), CountRows(d), VectorSearch(d)}
}

// id is the saved id of the named connection.
func (e *env) id(name string) string { return e.conns[name].ID }

// call calls a tool and fails the test when the answer is a protocol error, or when the node's
// API key appears anywhere in it (SPEC.md B "Authentication" 5: no credential leaves).
func (e *env) call(t *testing.T, tool string, args map[string]any) mcptest.Reply {
	t.Helper()
	r := e.srv.Call(t, "tools/call", map[string]any{"name": tool, "arguments": args})
	if r.Error != nil {
		t.Fatalf("%s: protocol error %d %s", tool, r.Error.Code, r.Error.Message)
	}
	e.noKey(t, r)
	return r
}

// noKey fails when any API key of the saved connections is in the answer.
func (e *env) noKey(t *testing.T, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	for _, k := range []string{e.node.APIKey, "not-the-key-" + strconv.Itoa(e.node.Port)} {
		if k != "" && bytes.Contains(b, []byte(k)) {
			t.Fatalf("an API key is in the answer: %s", b)
		}
	}
}

// ok calls a tool that must succeed and returns its answer.
func (e *env) ok(t *testing.T, tool string, args map[string]any) mcptest.Reply {
	t.Helper()
	r := e.call(t, tool, args)
	if r.Result["isError"] != false || r.Result["resultType"] != "complete" {
		t.Fatalf("%s failed: %s", tool, r.Text())
	}
	return r
}

// fails calls a tool that must fail with the tool error code and returns its text.
func (e *env) fails(t *testing.T, tool string, args map[string]any, code string) string {
	t.Helper()
	r := e.call(t, tool, args)
	if r.Result["isError"] != true || !strings.HasPrefix(r.Text(), code+": ") {
		t.Fatalf("%s: want the tool error %s, got %v", tool, code, r.Result)
	}
	return r.Text()
}

// structured is the answer's structuredContent.
func structured(t *testing.T, r mcptest.Reply) map[string]any {
	t.Helper()
	m, ok := r.Result["structuredContent"].(map[string]any)
	if !ok {
		t.Fatalf("no structuredContent in %v", r.Result)
	}
	return m
}

// rowsOf is the rows of a page answer.
func rowsOf(t *testing.T, r mcptest.Reply) [][]any {
	t.Helper()
	var out [][]any
	for _, row := range structured(t, r)["rows"].([]any) {
		out = append(out, row.([]any))
	}
	return out
}

// column is the values of the named column of a page answer.
func column(t *testing.T, r mcptest.Reply, name string) []any {
	t.Helper()
	s := structured(t, r)
	at := -1
	for i, c := range s["columns"].([]any) {
		if c == name {
			at = i
		}
	}
	if at < 0 {
		t.Fatalf("no column %q in %v", name, s["columns"])
	}
	var out []any
	for _, row := range rowsOf(t, r) {
		out = append(out, row[at])
	}
	return out
}

// progressOf calls a tool with a progressToken and returns the progress values reported on
// the request's event stream, and the final result.
func (e *env) progressOf(t *testing.T, tool string, args map[string]any) ([]float64, map[string]any) {
	t.Helper()
	params := map[string]any{"name": tool, "arguments": args, "_meta": map[string]any{
		mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{}, mcp.MetaProgressToken: "p1",
	}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": params})
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	var progress []float64
	var result map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m struct {
			Method string         `json:"method"`
			Params map[string]any `json:"params"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("frame %q: %v", data, err)
		}
		switch {
		case m.Method == "notifications/progress":
			progress = append(progress, m.Params["progress"].(float64))
		case m.Result != nil:
			result = m.Result
		}
	}
	if result == nil {
		t.Fatal("no final result frame")
	}
	e.noKey(t, result)
	return progress, result
}

// closedPort is a loopback port nothing listens on.
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

// requestLog records what the drivers asked the node, so a test can see that a limit was
// applied in the query rather than by cutting a full read.
type requestLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *requestLog) add(s string) {
	l.mu.Lock()
	l.reqs = append(l.reqs, s)
	l.mu.Unlock()
}

// since returns the requests recorded after the first n.
func (l *requestLog) since(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.reqs[n:]...)
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// recording is the real transport, with each request's method, URL and GraphQL body logged.
type recording struct {
	log  *requestLog
	next http.RoundTripper
}

func (r recording) RoundTrip(req *http.Request) (*http.Response, error) {
	line := req.Method + " " + req.URL.RequestURI()
	if req.Body != nil && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			var buf bytes.Buffer
			_, _ = buf.ReadFrom(b)
			_ = b.Close()
			line += " " + buf.String()
		}
	}
	r.log.add(line)
	return r.next.RoundTrip(req)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
