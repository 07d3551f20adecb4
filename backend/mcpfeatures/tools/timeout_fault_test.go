package tools

// Issue 25, "Faults and load": a statement that outlasts the MCP panel's statement timeout
// (mcp.queryTimeoutSeconds at its least, 1 s). The database is a real weaviate-server behind
// a loopback TCP proxy the test controls; once the connection is open the proxy stalls: it
// accepts and reads every request and never answers, as a wedged server does. A stalled
// server is used rather than a slow query because its statement outlasts any timeout, on any
// machine, and because the proxy sees the very connection that carried the statement, so
// "nothing keeps running" is observed (the caller closed it) rather than inferred. The same
// rule is held for the driver in the app's process and for the driver in its real plugin
// process (cmd/weaviate-driver, as the app runs it).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/approval"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/plugins/host"
	"app/backend/secrets"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/goroutines"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// stallProxy forwards loopback TCP connections to a node until stall; from then on every
// request is read and never forwarded or answered, on new connections and on the ones
// already open alike. It reports each stalled request as it arrives and each stalled
// connection its caller closes.
type stallProxy struct {
	l      net.Listener
	target string

	stalled atomic.Bool
	// stallOn, when set, stalls the proxy by itself at the request after the first `after`
	// requests that start with it (counted across connections).
	stallOn  string
	after    int64
	seen     atomic.Int64
	arrived  chan struct{} // a request met the stall
	released chan struct{} // a stalled connection was closed by its caller

	wg sync.WaitGroup
}

func newStallProxy(t *testing.T, node *weaviatenode.Node) *stallProxy {
	t.Helper()
	return newStallProxyAfter(t, node, "", 0)
}

// newStallProxyAfter is a stallProxy that stalls by itself after `after` requests starting
// with stallOn.
func newStallProxyAfter(t *testing.T, node *weaviatenode.Node, stallOn string, after int64) *stallProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{l: l, target: net.JoinHostPort(node.Host, strconv.Itoa(node.Port)), stallOn: stallOn, after: after,
		arrived: make(chan struct{}, 64), released: make(chan struct{}, 64)}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		l.Close()
		p.wg.Wait()
	})
	return p
}

func (p *stallProxy) accept() {
	defer p.wg.Done()
	var conns sync.WaitGroup
	defer conns.Wait()
	var mu sync.Mutex
	var all []net.Conn
	defer func() {
		mu.Lock()
		for _, c := range all {
			c.Close()
		}
		mu.Unlock()
	}()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		n, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		mu.Lock()
		all = append(all, c, n)
		mu.Unlock()
		conns.Add(2)
		go func() { defer conns.Done(); _, _ = io.Copy(c, n); c.Close() }()
		go func() { defer conns.Done(); p.pump(c, n) }()
	}
}

// pump forwards the caller's bytes to the node until the stall, then swallows them until the
// caller closes its connection.
func (p *stallProxy) pump(c, n net.Conn) {
	defer n.Close()
	buf := make([]byte, 64<<10)
	stalled := false
	for {
		k, err := c.Read(buf)
		if k > 0 && !stalled && p.stallOn != "" && bytes.HasPrefix(buf[:k], []byte(p.stallOn)) && p.seen.Add(1) > p.after {
			p.stalled.Store(true)
		}
		if k > 0 && !stalled && p.stalled.Load() {
			stalled = true
			p.arrived <- struct{}{}
		}
		if k > 0 && !stalled {
			if _, werr := n.Write(buf[:k]); werr != nil {
				return
			}
		}
		if err != nil {
			if stalled {
				p.released <- struct{}{}
			}
			return
		}
	}
}

func (p *stallProxy) settings() driver.Settings {
	s := driver.DefaultSettings()
	h, port, _ := net.SplitHostPort(p.l.Addr().String())
	s.Host = h
	s.Port, _ = strconv.Atoi(port)
	return s
}

// buildPlugin builds cmd/weaviate-driver, the program the app runs as its Weaviate driver.
func buildPlugin(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "weaviate-driver")
	if out, err := exec.Command("go", "build", "-o", path, "app/cmd/weaviate-driver").CombinedOutput(); err != nil {
		t.Fatalf("go build cmd/weaviate-driver: %v\n%s", err, out)
	}
	return path
}

// callTool posts one tools/call with a bound of its own, so a server that hangs fails the
// test instead of holding it. It returns the reply and how long it took.
func callTool(srvURL, tool string, args map[string]any, within time.Duration) (mcptest.Reply, time.Duration, error) {
	return callToolAs(srvURL, "", tool, args, within)
}

// callToolAs is callTool with a bearer token ("" for none).
func callToolAs(srvURL, token, tool string, args map[string]any, within time.Duration) (mcptest.Reply, time.Duration, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"_meta": map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{}},
		"name":  tool, "arguments": args,
	}})
	req, _ := http.NewRequest(http.MethodPost, srvURL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	start := time.Now()
	resp, err := (&http.Client{Timeout: within}).Do(req)
	if err != nil {
		return mcptest.Reply{}, time.Since(start), err
	}
	defer resp.Body.Close()
	var out struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return mcptest.Reply{}, time.Since(start), err
	}
	r := mcptest.Reply{Status: resp.StatusCode, Result: out.Result}
	if out.Error != nil {
		_ = json.Unmarshal(out.Error, &r.Error)
	}
	return r, time.Since(start), nil
}

// driverGoroutines counts this process's goroutines inside the Weaviate driver or the gRPC
// client of the driver plugin: none once no call runs.
func driverGoroutines() int {
	return len(goroutines.Find("app/backend/driver/weaviate.(*Driver)", "app/backend/plugins/grpcdriver.(*Conn)"))
}

func TestAStatementOutlastingItsTimeout(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous) // holds the fixtures, Big among them

	// 1 s is the least mcp.queryTimeoutSeconds allows: the statement timeout the tests use.
	set := config.DefaultSettings()
	if set.MCP.QueryTimeoutSeconds = 0; set.Validate() == nil {
		t.Fatal("mcp.queryTimeoutSeconds 0 is accepted; the test assumes 1 is the least")
	}
	set.MCP.QueryTimeoutSeconds = 1
	if err := set.Validate(); err != nil {
		t.Fatal(err)
	}
	limits := Limits{DefaultRows: 500, MaxRows: 10000, QueryTimeout: time.Duration(set.MCP.QueryTimeoutSeconds) * time.Second}

	log := logrus.New()
	log.SetOutput(io.Discard)
	bin, binDir := buildPlugin(t), t.TempDir()
	plugins := host.New(host.Options{Log: log, IdleTimeout: -1, Resolve: func(name string) (host.Binary, error) {
		return host.Binary{Name: name, Version: "1.0.0-test", Path: bin, Dir: binDir}, nil
	}})
	t.Cleanup(func() { plugins.Close() })
	factories := []struct {
		name    string
		factory connections.Factory
	}{
		{"the driver in the app's process", func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return weaviate.New(c.Settings)
		}},
		{"the driver in its plugin process", func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
			return plugins.Open(ctx, "weaviate", c.Settings, c.Name)
		}},
	}
	statements := []struct {
		tool string
		args map[string]any
	}{
		{NameBrowseTable, map[string]any{"table": fixtures.Big, "limit": 5}},
		{NameCountRows, map[string]any{"table": fixtures.Big}},
		{NameExecuteQuery, map[string]any{"query": `{ Get { Big(limit: 3) { label } } }`}},
	}
	for _, f := range factories {
		t.Run(f.name, func(t *testing.T) {
			ctx := context.Background()
			proxy := newStallProxy(t, node)
			store := mcptest.NewStore(t)
			conn, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "stalling", Settings: proxy.settings()}, "")
			if err != nil {
				t.Fatal(err)
			}
			m := connections.NewManager(store, connections.ManagerOptions{Factory: f.factory, Log: log})
			t.Cleanup(m.Close)
			keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(t.TempDir(), "keyring")})
			if err != nil {
				t.Fatal(err)
			}
			deps := Deps{Conns: Conns{Store: store, Open: m}, Approver: approval.NewGate(approval.Options{Keys: keys, Log: log}),
				Limits: func() Limits { return limits }}
			srv := mcptest.Start(t, mcp.Options{Tools: All(deps), Logger: log})

			for _, st := range statements {
				args := map[string]any{"connection": conn.Name}
				for k, v := range st.args {
					args[k] = v
				}
				t.Run(st.tool, func(t *testing.T) {
					// The connection is open and answers before the stall.
					if r, _, err := callTool(srv.URL, st.tool, args, 30*time.Second); err != nil || r.Error != nil || r.Result["isError"] != false {
						t.Fatalf("before the stall: %+v %v", r, err)
					}
					proxy.stalled.Store(true)
					type answer struct {
						r    mcptest.Reply
						took time.Duration
						err  error
					}
					done := make(chan answer, 1)
					go func() {
						r, took, err := callTool(srv.URL, st.tool, args, 30*time.Second)
						done <- answer{r, took, err}
					}()
					select {
					case <-proxy.arrived:
					case <-time.After(30 * time.Second):
						t.Fatal("the statement never reached the stalled server")
					}

					t.Run("the server keeps serving while the statement waits", func(t *testing.T) {
						r, took, err := callTool(srv.URL, NameListConnections, map[string]any{}, 10*time.Second)
						if err != nil || r.Error != nil || r.Result["isError"] != false {
							t.Fatalf("list_connections during the stall: %+v %v", r, err)
						}
						if took > limits.QueryTimeout/2 {
							t.Errorf("list_connections took %s during the stall", took)
						}
					})
					var a answer
					t.Run("the statement ends with -33003, the statement timeout, once its timeout passes", func(t *testing.T) {
						select {
						case a = <-done:
						case <-time.After(30 * time.Second):
							t.Fatal("the statement did not end within 30 s")
						}
						if a.err != nil {
							t.Fatalf("the call failed: %v", a.err)
						}
						// SPEC.md B "States and transitions": a statement timeout ends the request
						// with -33003 (the protocol error; the tool error "timeout" is for a
						// driver's own time limits).
						if a.r.Error == nil || a.r.Error.Code != mcp.CodeRequestTimeout || !strings.Contains(a.r.Error.Message, "statement timeout") {
							t.Fatalf("want -33003 naming the statement timeout, got %+v (result %v)", a.r.Error, a.r.Result)
						}
						if a.took < limits.QueryTimeout || a.took > limits.QueryTimeout+5*time.Second {
							t.Fatalf("it ended after %s; the timeout is %s", a.took, limits.QueryTimeout)
						}
					})
					t.Run("nothing keeps running: the statement's request is closed and no driver call remains", func(t *testing.T) {
						select {
						case <-proxy.released:
						case <-time.After(5 * time.Second):
							t.Fatal("the stalled request is still open 5 s after the timeout: the driver still waits on it")
						}
						deadline := time.Now().Add(5 * time.Second)
						for driverGoroutines() > 0 {
							if time.Now().After(deadline) {
								t.Fatalf("%d goroutine(s) still run in the driver after the timeout", driverGoroutines())
							}
							time.Sleep(20 * time.Millisecond)
						}
					})
					proxy.stalled.Store(false)
					t.Run("once the server answers again the same connection serves the statement", func(t *testing.T) {
						r, _, err := callTool(srv.URL, st.tool, args, 30*time.Second)
						if err != nil || r.Error != nil || r.Result["isError"] != false {
							t.Fatalf("after the stall: %+v %v", r, err)
						}
					})
				})
			}
		})
	}
}

// The race TestAStatementOutlastingItsTimeout met through the plugin (about one statement in
// twenty-five): the plugin process's timer ends the call at the statement's deadline and its
// timeout answer arrives before this process's timer has marked the statement's context done.
// Here the call plays the plugin's part without the race: it returns its timeout the moment
// the deadline passes, without waiting for the context.
func TestAStatementTimeoutTheDriverSeesFirstIsStillTheStatementTimeout(t *testing.T) {
	d := Deps{Limits: func() Limits { return Limits{QueryTimeout: 200 * time.Millisecond} }}
	for i := range 20 {
		err := d.run(context.Background(), func(ctx context.Context) error {
			deadline, _ := ctx.Deadline()
			for time.Now().Before(deadline) {
				runtime.Gosched()
			}
			return driver.Errorf(driver.KindTimeout, "the operation timed out")
		})
		var pe *mcp.Error
		if !errors.As(err, &pe) || pe.Code != mcp.CodeRequestTimeout {
			t.Fatalf("run %d: %v; want -33003, the statement timeout", i, err)
		}
	}
}
