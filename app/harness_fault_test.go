package app

// The rig of the fault tests (issue 25, "Faults and load"): the app as core wires it, with the
// Weaviate driver in its real plugin process, a real weaviate-server, and between them a
// loopback HTTP proxy that lets a test choose the moment a fault lands.

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/app/dto"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/plugins/host"
	"app/internal/testkit/goroutines"
	"app/internal/testkit/weaviatenode"
)

// faultWithin bounds every wait of the fault tests: a call that has not returned by then hangs.
const faultWithin = 30 * time.Second

// faultEventually polls cond every 20 ms until it holds, failing the test after within.
func faultEventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// faultSignal waits for c, failing the test after faultWithin.
func faultSignal(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(faultWithin):
		t.Fatalf("not within %s: %s", faultWithin, what)
	}
}

// buildDriverPlugin builds cmd/weaviate-driver, the program the app downloads and runs, into
// a directory of the test.
func buildDriverPlugin(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "weaviate-driver")
	out, err := exec.Command("go", "build", "-o", path, "app/cmd/weaviate-driver").CombinedOutput()
	if err != nil {
		t.Fatalf("go build cmd/weaviate-driver: %v\n%s", err, out)
	}
	return path
}

// processAlive tells whether pid is a live process (a zombie nobody reaped yet is dead).
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// The packages whose goroutines must all end once the app closed its connections and its
// plugin host: the plugin machinery, gRPC under it, and the connection manager.
var faultPackages = []string{"hashicorp/go-plugin", "app/backend/plugins/", "google.golang.org/grpc", "app/backend/connections."}

// goroutineBaseline is what runs before a test starts anything: goroutines of earlier tests
// are theirs to end.
func goroutineBaseline() map[string]string { return goroutines.Find(faultPackages...) }

// noGoroutinesLeft fails when, after everything was closed, a goroutine of faultPackages that
// was not in the baseline still runs.
func noGoroutinesLeft(t *testing.T, baseline map[string]string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var left []string
		for id, g := range goroutines.Find(faultPackages...) {
			// The host's spawn thread lives as long as the process, by design (proc_linux.go).
			if _, old := baseline[id]; !old && !strings.Contains(g, "host.onSpawnThread") {
				left = append(left, g)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutine(s) of the plugin machinery are still running:\n\n%s", len(left), strings.Join(left, "\n\n"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fault is what faultProxy does to one request.
type fault struct {
	// hold keeps the request from the node until its caller goes away (the node never sees
	// it); callerGone then runs.
	hold       bool
	callerGone func()
	// answered runs once the node answered (its status), before the answer goes back; when it
	// returns true the answer is withheld and the caller's connection closed (the node did the
	// work, its caller never learns it).
	answered func(status int) (withhold bool)
}

// faultProxy is a loopback HTTP proxy in front of a real weaviate-server. Requests pass
// through unless rule says otherwise; down and up take its listener away and back on the
// same address, so that it dies and returns with the node behind it.
type faultProxy struct {
	addr string // 127.0.0.1:port, fixed for its life
	node string // the node's host:port
	tr   *http.Transport

	mu   sync.Mutex
	rule func(r *http.Request) fault
	srv  *http.Server
	// failed are the errors of requests the node did not answer, for a failing test's log.
	failed []string
}

func newFaultProxy(t *testing.T, node *weaviatenode.Node) *faultProxy {
	t.Helper()
	p := &faultProxy{node: net.JoinHostPort(node.Host, strconv.Itoa(node.Port)), tr: &http.Transport{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = l.Addr().String()
	p.serve(l)
	t.Cleanup(func() {
		p.down()
		p.tr.CloseIdleConnections()
		if t.Failed() {
			p.mu.Lock()
			t.Logf("requests the node behind the proxy did not answer: %q", p.failed)
			p.mu.Unlock()
		}
	})
	return p
}

func (p *faultProxy) serve(l net.Listener) {
	srv := &http.Server{Handler: p, ErrorLog: nil}
	p.mu.Lock()
	p.srv = srv
	p.mu.Unlock()
	go func() { _ = srv.Serve(l) }()
}

// settings reach the node through the proxy.
func (p *faultProxy) settings() driver.Settings {
	h, port, _ := net.SplitHostPort(p.addr)
	s := driver.DefaultSettings()
	s.Host = h
	s.Port, _ = strconv.Atoi(port)
	return s
}

// nodeSettings reach n directly.
func nodeSettings(n *weaviatenode.Node) driver.Settings {
	s := driver.DefaultSettings()
	s.Host, s.Port = n.Host, n.Port
	return s
}

// setRule replaces the rule (nil: everything passes).
func (p *faultProxy) setRule(rule func(r *http.Request) fault) {
	p.mu.Lock()
	p.rule = rule
	p.mu.Unlock()
}

// down closes the listener and every connection: nothing accepts at the address any more,
// as at a dead node's.
func (p *faultProxy) down() {
	p.mu.Lock()
	srv := p.srv
	p.srv = nil
	p.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
	p.tr.CloseIdleConnections()
}

// up listens on the same address again.
func (p *faultProxy) up(t *testing.T) {
	t.Helper()
	var l net.Listener
	faultEventually(t, 10*time.Second, "the proxy's address to be free again", func() bool {
		var err error
		l, err = net.Listen("tcp", p.addr)
		return err == nil
	})
	p.serve(l)
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	rule := p.rule
	p.mu.Unlock()
	var f fault
	if rule != nil {
		f = rule(r)
	}
	if f.hold {
		// Read the body first: the server notices a caller that goes away only once it has.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
		if f.callerGone != nil {
			f.callerGone()
		}
		return
	}
	out := r.Clone(r.Context())
	out.URL.Scheme, out.URL.Host, out.Host, out.RequestURI = "http", p.node, p.node, ""
	resp, err := p.tr.RoundTrip(out)
	if err != nil {
		p.mu.Lock()
		p.failed = append(p.failed, r.Method+" "+r.URL.Path+": "+err.Error())
		p.mu.Unlock()
		panic(http.ErrAbortHandler) // the node is gone: its caller's connection closes
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if f.answered != nil && f.answered(resp.StatusCode) {
		panic(http.ErrAbortHandler)
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(body)
}

// isInsert tells whether r is the POST of one new object (the driver's Insert, one per row).
func isInsert(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/v1/objects"
}

// isPatch tells whether r is the PATCH of one object (the driver's Update, one per row).
func isPatch(r *http.Request) bool {
	return r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/v1/objects/")
}

// yesConfirmer answers Yes to every question (the deletion of a commit).
type yesConfirmer struct{}

func (yesConfirmer) Confirm(context.Context, string, string) (bool, error) { return true, nil }

// pluginRig is the window's side of the app as core wires it: an ExplorerAPI over a real
// connections.Manager whose factory opens connections in the real weaviate-driver plugin
// process through a real plugin host, with one saved connection.
type pluginRig struct {
	api *ExplorerAPI
	id  string
	// otherID is the second saved connection, when faultRigOptions.other was given.
	otherID  string
	host     *host.Host
	m        *connections.Manager
	rec      *eventRecorder
	drops    chan error
	restores chan struct{}
}

// faultRigOptions configure newPluginRig.
type faultRigOptions struct {
	// bin is the plugin program (buildDriverPlugin).
	bin string
	// health is the manager's health interval; 0 is the app's default (30 s).
	health time.Duration
	// other, when set, is a second saved connection (another database), connected too.
	other *driver.Settings
}

func newPluginRig(t *testing.T, s driver.Settings, o faultRigOptions) *pluginRig {
	t.Helper()
	log := logrus.New()
	log.SetOutput(io.Discard)
	dir := t.TempDir()
	h := host.New(host.Options{Log: log, IdleTimeout: -1, Resolve: func(name string) (host.Binary, error) {
		return host.Binary{Name: name, Version: "1.0.0-test", Path: o.bin, Dir: dir}, nil
	}})
	store, _ := newStore(t)
	saved := add(t, store, connections.Connection{Name: "Faulty", Type: "weaviate", Settings: s}, "")
	r := &pluginRig{id: saved.ID, host: h, rec: &eventRecorder{}, drops: make(chan error, 8), restores: make(chan struct{}, 8)}
	r.m = connections.NewManager(store, connections.ManagerOptions{
		// As core.newDriver does: the connection type's plugin, through the host.
		Factory: func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
			return h.Open(ctx, "weaviate", c.Settings, c.Name)
		},
		Log:            log,
		HealthInterval: o.health,
		HealthTimeout:  2 * time.Second,
		OnDrop: func(id string, reason error) {
			r.api.connectionDropped(id, reason)
			r.drops <- reason
		},
		OnRestore: func(id string) {
			r.api.connectionRestored(id)
			r.restores <- struct{}{}
		},
	})
	r.api = NewExplorerAPI(r.m)
	r.api.start(env{emit: r.rec, confirm: yesConfirmer{}})
	t.Cleanup(func() {
		r.m.Close()
		h.Close()
	})
	if _, err := r.api.Connect(r.id); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if o.other != nil {
		r.otherID = add(t, store, connections.Connection{Name: "Other", Type: "weaviate", Settings: *o.other}, "").ID
		if _, err := r.api.Connect(r.otherID); err != nil {
			t.Fatalf("Connect the other connection: %v", err)
		}
	}
	return r
}

// pluginPID is the running plugin process; it fails the test when none runs.
func (r *pluginRig) pluginPID(t *testing.T) int {
	t.Helper()
	p, ok := r.host.Running("weaviate")
	if !ok {
		t.Fatal("no plugin process runs")
	}
	return p.PID
}

// killPlugin sends SIGKILL to the plugin process.
func (r *pluginRig) killPlugin(t *testing.T) int {
	t.Helper()
	pid := r.pluginPID(t)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the plugin %d: %v", pid, err)
	}
	return pid
}

// waitPluginGone waits until the killed process is gone and the host knows it (go-plugin
// marks its client exited a moment after the process ends).
func (r *pluginRig) waitPluginGone(t *testing.T, pid int) {
	t.Helper()
	faultEventually(t, promptly, "the killed plugin process to be gone", func() bool {
		_, running := r.host.Running("weaviate")
		return !processAlive(pid) && !running
	})
}

// close ends everything the rig started, so that a test can look for what keeps running.
func (r *pluginRig) close() {
	r.m.Close()
	r.host.Close()
}

// createFaultTable creates class on node with a text and an int property.
func createFaultTable(t *testing.T, node *weaviatenode.Node, class string) {
	t.Helper()
	prop := func(name, typ string) map[string]any { return map[string]any{"name": name, "dataType": []string{typ}} }
	if err := node.DoJSON(context.Background(), http.MethodPost, "/v1/schema", map[string]any{
		"class": class, "vectorizer": "none", "properties": []any{prop("title", "text"), prop("n", "int")},
	}, nil); err != nil {
		t.Fatalf("create %s: %v", class, err)
	}
}

// rowUUID is the uuid of row i of a fault commit: every row carries one, so the server can be
// asked about each.
func rowUUID(i int) string { return fmt.Sprintf("fa017000-0000-4000-8000-%012d", i) }

// serverRows reads every object of class back through Weaviate's REST API: uuid -> title.
func serverRows(t *testing.T, node *weaviatenode.Node, class string) map[string]string {
	t.Helper()
	var page struct {
		Objects []struct {
			ID         string         `json:"id"`
			Properties map[string]any `json:"properties"`
		} `json:"objects"`
	}
	q := url.Values{"class": {class}, "limit": {"10000"}}
	if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/objects?"+q.Encode(), nil, &page); err != nil {
		t.Fatalf("read %s back: %v", class, err)
	}
	out := make(map[string]string, len(page.Objects))
	for _, o := range page.Objects {
		title, _ := o.Properties["title"].(string)
		out[o.ID] = title
	}
	return out
}

// unknownOutcome is how an outcome says it does not know whether its row was written.
const unknownOutcome = "may or may not"

// checkHonest holds each outcome to what the server holds (written tells whether the server
// holds what the outcome's row asked for): a row reported ok is written, a row reported failed
// or skipped is not, unless its outcome says it is unknown. It returns how many rows were ok,
// failed (or skipped) and unknown.
func checkHonest(t *testing.T, outcomes []dto.RowOutcomeDTO, written func(o dto.RowOutcomeDTO) bool) (ok, failed, unknown int) {
	t.Helper()
	for _, o := range outcomes {
		switch {
		case o.Status == "ok":
			ok++
			if !written(o) {
				t.Errorf("row %s (%s %s) is reported ok, but the server does not hold it", o.Ref, o.Action, outcomeUUID(o))
			}
		case strings.Contains(o.Message, unknownOutcome):
			unknown++
		default:
			failed++
			if written(o) {
				t.Errorf("row %s (%s %s) is reported %s (%s: %s), but the server holds it", o.Ref, o.Action, outcomeUUID(o), o.Status, o.Code, o.Message)
			}
		}
	}
	return ok, failed, unknown
}

// outcomeUUID is the uuid of the Weaviate object an outcome names ("" for none).
func outcomeUUID(o dto.RowOutcomeDTO) string {
	id, _ := o.Key["uuid"].(string)
	return id
}

// typedUUID is the uuid of the object an outcome of req names: its key's, or for an insert
// whose outcome has none (the write was cut before an answer), the uuid the request typed.
func typedUUID(req dto.CommitRequestDTO, o dto.RowOutcomeDTO) string {
	if id := outcomeUUID(o); id != "" {
		return id
	}
	for _, r := range req.Inserts {
		if r.Ref == o.Ref {
			id, _ := r.Values["uuid"].(string)
			return id
		}
	}
	return ""
}
