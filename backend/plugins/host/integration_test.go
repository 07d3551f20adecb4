package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// The driver's behaviour through the real plugin binary (cmd/weaviate-driver, built once
// per test run) against a real weaviate-server, compared with the same driver in process.

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// builtDriver builds cmd/weaviate-driver once for this test binary.
func builtDriver(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "weaviate-driver-test")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "weaviate-driver")
		cmd := exec.Command("go", "build", "-o", built.path, "app/cmd/weaviate-driver")
		out, err := cmd.CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build cmd/weaviate-driver: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// newQuietLogger logs warnings and errors into the test's output.
func newQuietLogger(t testing.TB) *logrus.Logger {
	l := logrus.New()
	l.SetLevel(logrus.WarnLevel)
	l.SetOutput(testWriter{t})
	return l
}

func removeBuiltDriver() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// pluginHost is a host running the built plugin binary.
func pluginHost(t testing.TB) *Host {
	t.Helper()
	bin := builtDriver(t)
	dir := t.TempDir()
	log := newQuietLogger(t)
	h := New(Options{Log: log, IdleTimeout: -1, Resolve: func(name string) (Binary, error) {
		return Binary{Name: name, Version: "1.0.0-dev", Path: bin, Dir: dir}, nil
	}})
	t.Cleanup(func() { h.Close() })
	return h
}

// settingsFor reaches n the way its variant expects.
func settingsFor(n *weaviatenode.Node) driver.Settings {
	s := driver.DefaultSettings()
	s.Host, s.Port = n.Host, n.Port
	if n.APIKey != "" {
		s.AuthMethod, s.APIKey = driver.AuthAPIKey, n.APIKey
	}
	return s
}

// pair is the same connection twice: through the plugin and in process.
type pair struct {
	plugin driver.Driver
	local  *weaviate.Driver
}

func openPair(t *testing.T, h *Host, s driver.Settings) pair {
	t.Helper()
	local, err := weaviate.New(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := local.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return pair{plugin: openConnected(t, h, s), local: local}
}

// same runs call on both and requires equal results and equal errors.
func same[T any](t *testing.T, p pair, call func(driver.Driver) (T, error)) T {
	t.Helper()
	got, gerr := call(p.plugin)
	want, werr := call(p.local)
	if driver.KindOf(gerr) != driver.KindOf(werr) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Fatalf("error through the plugin %v (%s), in process %v (%s)", gerr, driver.KindOf(gerr), werr, driver.KindOf(werr))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("through the plugin:\n%#v\nin process:\n%#v", got, want)
	}
	return got
}

func TestDriverThroughThePluginBoundary(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	h := pluginHost(t)
	p := openPair(t, h, settingsFor(node))
	ctx := context.Background()

	t.Run("Connect reads the server version", func(t *testing.T) {
		if got := p.plugin.(interface{ ServerVersion() string }).ServerVersion(); got == "" || got != p.local.ServerVersion() {
			t.Fatalf("server version %q, in process %q", got, p.local.ServerVersion())
		}
	})
	t.Run("ListTables lists the collections", func(t *testing.T) {
		ts := same(t, p, func(d driver.Driver) ([]driver.Table, error) { return d.ListTables(ctx) })
		if len(ts) < 6 {
			t.Fatalf("tables %v", ts)
		}
	})
	for _, table := range []string{fixtures.Person, fixtures.Typed, fixtures.Unindexed, fixtures.NamedVectors, fixtures.Tenanted} {
		t.Run("DescribeTable "+table, func(t *testing.T) {
			same(t, p, func(d driver.Driver) (*driver.TableInfo, error) { return d.DescribeTable(ctx, table) })
		})
	}
	pages := []struct {
		name    string
		table   string
		page    driver.Page
		filters []driver.Filter
		sort    []driver.Sort
	}{
		{"a page of Person", fixtures.Person, driver.Page{}, nil, nil},
		{"Typed: every type, nulls and empties", fixtures.Typed, driver.Page{Limit: 10}, nil, nil},
		{"NamedVectors: vector cells", fixtures.NamedVectors, driver.Page{}, nil, nil},
		{"Typed: vector previews cut in the plugin", fixtures.Typed, driver.Page{Limit: 10, Vectors: driver.VectorsPreview}, nil, nil},
		{"NamedVectors: previews of each named vector", fixtures.NamedVectors, driver.Page{Vectors: driver.VectorsPreview}, nil, nil},
		{"a filtered, sorted page", fixtures.Typed, driver.Page{Limit: 10}, []driver.Filter{{Column: "count", Operator: driver.OpGreaterEq, Value: "0"}}, []driver.Sort{{Column: "title", Descending: true}}},
		{"a page of Big cut at row 10,000 with its notice", fixtures.Big, driver.Page{Offset: 9950, Limit: 100}, nil, nil},
	}
	for _, c := range pages {
		t.Run("Browse "+c.name, func(t *testing.T) {
			g := same(t, p, func(d driver.Driver) (*driver.Grid, error) { return d.Browse(ctx, c.table, c.page, c.filters, c.sort) })
			if len(g.Rows) == 0 {
				t.Fatal("no rows")
			}
		})
	}
	t.Run("CheckCells: the driver's cell rule, through the plugin", func(t *testing.T) {
		text := func(s string) *string { return &s }
		problems := same(t, p, func(d driver.Driver) (map[string]string, error) {
			return d.CheckCells(ctx, fixtures.Typed, map[string]*string{"count": text("4.5"), "title": text("ok"), "price": nil, "uuid": text("nope"), "vector": text("[1]")})
		})
		if len(problems) != 3 || !strings.Contains(problems["count"], "is not an integer") || problems["uuid"] == "" || !strings.Contains(problems["vector"], "read-only") {
			t.Fatalf("problems %v", problems)
		}
	})
	t.Run("Count", func(t *testing.T) {
		n := same(t, p, func(d driver.Driver) (int64, error) { return d.Count(ctx, fixtures.Big, nil) })
		if n != fixtures.BigCount {
			t.Fatalf("count %d", n)
		}
	})
	t.Run("Execute: a Get grid and a JSON document", func(t *testing.T) {
		same(t, p, func(d driver.Driver) (*driver.Result, error) {
			return d.Execute(ctx, `{ Get { Typed(limit: 3) { title count tags _additional { id } } } }`, driver.ExecOptions{})
		})
		same(t, p, func(d driver.Driver) (*driver.Result, error) {
			return d.Execute(ctx, `{ Aggregate { Big { meta { count } } } }`, driver.ExecOptions{})
		})
	})
	refusals := []struct {
		name   string
		table  string
		filter driver.Filter
		kind   driver.Kind
	}{
		{"REGEX is refused (no Weaviate equivalent)", fixtures.Typed, driver.Filter{Column: "title", Operator: driver.OpRegex, Value: "^A"}, driver.KindRefusedFilter},
		{"is NULL without indexNullState is refused", fixtures.Unindexed, driver.Filter{Column: "title", Operator: driver.OpIsNull}, driver.KindRefusedFilter},
		{"a date that is no RFC 3339 timestamp is refused", fixtures.Typed, driver.Filter{Column: "published", Operator: driver.OpEquals, Value: "2024-01-15"}, driver.KindRefusedFilter},
	}
	for _, c := range refusals {
		t.Run("refused filter keeps its kind: "+c.name, func(t *testing.T) {
			_, err := p.plugin.Browse(ctx, c.table, driver.Page{}, []driver.Filter{c.filter}, nil)
			if !driver.IsKind(err, c.kind) {
				t.Fatalf("got %v (%s)", err, driver.KindOf(err))
			}
			same(t, p, func(d driver.Driver) (*driver.Grid, error) {
				return d.Browse(ctx, c.table, driver.Page{}, []driver.Filter{c.filter}, nil)
			})
		})
	}
	t.Run("a page starting at row 10,000 is unsupported", func(t *testing.T) {
		_, err := p.plugin.Browse(ctx, fixtures.Big, driver.Page{Offset: 10000, Limit: 10}, nil, nil)
		if !driver.IsKind(err, driver.KindUnsupported) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("tenants: listed, opened as tables, refused alike", func(t *testing.T) {
		tenants := func(d driver.Driver) driver.Tenants { return d.(driver.Tenants) }
		ts := same(t, p, func(d driver.Driver) ([]driver.Tenant, error) { return tenants(d).ListTenants(ctx, fixtures.Tenanted) })
		if len(ts) != 2 || ts[0].Table != driver.TenantTable(fixtures.Tenanted, fixtures.TenantA) || ts[0].Status != driver.TenantActive {
			t.Fatalf("tenants %+v", ts)
		}
		info := same(t, p, func(d driver.Driver) (*driver.TableInfo, error) { return d.DescribeTable(ctx, ts[1].Table) })
		if info.Settings.Tenant != fixtures.TenantB {
			t.Fatalf("settings %+v", info.Settings)
		}
		g := same(t, p, func(d driver.Driver) (*driver.Grid, error) {
			return d.Browse(ctx, ts[1].Table, driver.Page{}, nil, nil)
		})
		if len(g.Rows) != fixtures.TenantBCount {
			t.Fatalf("%d rows of %s", len(g.Rows), ts[1].Table)
		}
		same(t, p, func(d driver.Driver) (struct{}, error) {
			return struct{}{}, tenants(d).SetTenantStatus(ctx, fixtures.Tenanted, fixtures.TenantA, "WARM")
		})
		same(t, p, func(d driver.Driver) ([]driver.Tenant, error) { return tenants(d).ListTenants(ctx, fixtures.Typed) })
	})
	t.Run("the cluster's nodes", func(t *testing.T) {
		nodes := same(t, p, func(d driver.Driver) ([]driver.Node, error) { return d.(driver.Cluster).Nodes(ctx, "") })
		if len(nodes) != 1 || len(nodes[0].Tables) < 6 {
			t.Fatalf("nodes %+v", nodes)
		}
		same(t, p, func(d driver.Driver) ([]driver.Node, error) { return d.(driver.Cluster).Nodes(ctx, "NoSuchTable") })
	})
	t.Run("an unknown table is not_found", func(t *testing.T) {
		same(t, p, func(d driver.Driver) (*driver.TableInfo, error) { return d.DescribeTable(ctx, "NoSuchTable") })
	})
	t.Run("a 10,000-row walk of Big in pages of 1,000", func(t *testing.T) {
		rows := 0
		start := time.Now()
		for off := 0; ; off += 1000 {
			g, err := p.plugin.Browse(ctx, fixtures.Big, driver.Page{Offset: off, Limit: 1000}, nil, nil)
			if err != nil {
				t.Fatalf("page at %d: %v", off, err)
			}
			rows += len(g.Rows)
			if !g.HasMore {
				if !strings.Contains(g.Notice, "10,000") {
					t.Fatalf("last page notice %q", g.Notice)
				}
				break
			}
		}
		if rows != 10000 {
			t.Fatalf("walked %d rows", rows)
		}
		t.Logf("10,000 rows of Big through the plugin in %s", time.Since(start).Round(time.Millisecond))
	})
}

func TestAuthFailureThroughThePlugin(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.APIKey)
	h := pluginHost(t)
	connect := func(edit func(*driver.Settings)) error {
		s := settingsFor(node)
		edit(&s)
		d, err := h.Open(context.Background(), "weaviate", s, "auth")
		if err != nil {
			return err
		}
		defer d.Close()
		return d.Connect(context.Background())
	}
	cases := []struct {
		name string
		edit func(*driver.Settings)
	}{
		{"a rejected key", func(s *driver.Settings) { s.APIKey = "wrong-key" }},
		{"Auth Method None against a node that expects a key", func(s *driver.Settings) { s.AuthMethod, s.APIKey = driver.AuthNone, "" }},
	}
	for _, c := range cases {
		t.Run(c.name+" is Authentication failed:", func(t *testing.T) {
			err := connect(c.edit)
			if !driver.IsKind(err, driver.KindAuth) || !strings.HasPrefix(err.Error(), "Authentication failed: ") {
				t.Fatalf("got %v (%s)", err, driver.KindOf(err))
			}
			if strings.Contains(err.Error(), "wrong-key") || strings.Contains(err.Error(), node.APIKey) {
				t.Fatalf("the key shows in %q", err)
			}
		})
	}
	t.Run("the right key connects", func(t *testing.T) {
		if err := connect(func(*driver.Settings) {}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a node that is not there is Connection failed:", func(t *testing.T) {
		err := connect(func(s *driver.Settings) { s.Port = 1 })
		if !driver.IsKind(err, driver.KindConnection) || !strings.HasPrefix(err.Error(), "Connection failed: ") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestCancelThroughThePlugin(t *testing.T) {
	h := pluginHost(t)
	t.Run("a cancelled Browse stops the HTTP request inside the plugin process", func(t *testing.T) {
		slow := newSlowWeaviate(t)
		d := openConnected(t, h, slow.settings())
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := d.Browse(ctx, "Slow", driver.Page{Limit: 10}, nil, nil)
			errc <- err
		}()
		waitFor(t, slow.arrived, "the page request to reach the stand-in")
		cancel()
		waitFor(t, slow.cancelled, "the stand-in to see the request cancelled")
		if err := <-errc; !driver.IsKind(err, driver.KindCancelled) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Browse: %v", err)
		}
	})
	t.Run("against the real node a cancelled walk ends as cancelled", func(t *testing.T) {
		node := weaviatetest.Shared(t, weaviatenode.Anonymous)
		d := openConnected(t, h, settingsFor(node))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := d.Browse(ctx, fixtures.Big, driver.Page{Limit: 1000}, nil, nil)
		if !driver.IsKind(err, driver.KindCancelled) {
			t.Fatalf("Browse: %v", err)
		}
	})
}

func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func TestEditsThroughThePlugin(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx := context.Background()
	err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "Edits", "vectorizer": "none", "properties": []any{
		map[string]any{"name": "title", "dataType": []string{"text"}},
		map[string]any{"name": "n", "dataType": []string{"int"}},
		map[string]any{"name": "tags", "dataType": []string{"text[]"}},
		map[string]any{"name": "meta", "dataType": []string{"object"}, "nestedProperties": []any{map[string]any{"name": "k", "dataType": []string{"text"}}}},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := openConnected(t, pluginHost(t), settingsFor(node))
	id := "0000beec-0000-4000-8000-0000000000e1"
	res, err := d.Insert(ctx, "Edits", []driver.Row{
		{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "first", "n": "7", "tags": `["a","b"]`, "meta": map[string]any{"k": "v"}}},
		{Values: map[string]any{"n": "not a number"}},
	})
	if err != nil || len(res) != 2 || res[0].Status != driver.RowOK || res[1].Status != driver.RowFailed || res[1].Kind != driver.KindInvalidArgument {
		t.Fatalf("Insert: %#v %v", res, err)
	}
	res, err = d.Update(ctx, "Edits", []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"n": 8, "tags": []any{"c"}}}})
	if err != nil || res[0].Status != driver.RowOK {
		t.Fatalf("Update: %#v %v", res, err)
	}
	g, err := d.Browse(ctx, "Edits", driver.Page{}, nil, nil)
	if err != nil || len(g.Rows) != 1 {
		t.Fatalf("Browse: %#v %v", g, err)
	}
	col := func(name string) any {
		for i, c := range g.Columns {
			if c.Name == name {
				return g.Rows[0][i]
			}
		}
		return "missing"
	}
	if col("n") != json.Number("8") || col("tags") != `["c"]` || col("title") != "first" {
		t.Fatalf("row after update: %#v", g.Rows[0])
	}
	res, err = d.Delete(ctx, "Edits", []driver.Row{{Key: driver.Key{"uuid": id}}, {}})
	if err != nil || res[0].Status != driver.RowOK || res[1].Status != driver.RowSkipped {
		t.Fatalf("Delete: %#v %v", res, err)
	}
	if n, err := d.Count(ctx, "Edits", nil); err != nil || n != 0 {
		t.Fatalf("Count after delete: %d %v", n, err)
	}
}

// TestVectorPagesCrossTheBoundary loads 10,000 objects with 768-dimension vectors (flat
// index: nothing to build) and measures what crosses the wire: a 1,000-row page, a walk of
// ten such pages, and one 10,000-row page. docs/plugins.md quotes these numbers.
func TestVectorPagesCrossTheBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 10,000 vectors")
	}
	node := vectorNode(t, 10000)
	h := pluginHost(t)
	p := openPair(t, h, settingsFor(node))
	ctx := context.Background()

	t.Run("a 1,000-row page is the in-process page", func(t *testing.T) {
		g := same(t, p, func(d driver.Driver) (*driver.Grid, error) {
			return d.Browse(ctx, vectorClass, driver.Page{Limit: 1000}, nil, nil)
		})
		size, err := grpcdriver.GridWireSize(g)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("1,000 rows x 768 dims: %.1f MB on the wire", float64(size)/1e6)
	})
	t.Run("a page of previews is a small part of the page of vectors on the wire", func(t *testing.T) {
		full, err := p.plugin.Browse(ctx, vectorClass, driver.Page{Limit: 1000}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := same(t, p, func(d driver.Driver) (*driver.Grid, error) {
			return d.Browse(ctx, vectorClass, driver.Page{Limit: 1000, Vectors: driver.VectorsPreview}, nil, nil)
		})
		fullSize, err := grpcdriver.GridWireSize(full)
		if err != nil {
			t.Fatal(err)
		}
		size, err := grpcdriver.GridWireSize(g)
		if err != nil {
			t.Fatal(err)
		}
		var pv driver.VectorPreview
		last := len(g.Columns) - 1
		if !g.Columns[last].Preview || json.Unmarshal([]byte(g.Rows[0][last].(string)), &pv) != nil || pv.Dimensions != 768 || len(pv.Head) != driver.VectorHead {
			t.Fatalf("the vector column is not a preview: %v %v", g.Columns[last], g.Rows[0][last])
		}
		if size*20 > fullSize {
			t.Fatalf("previews %d bytes on the wire, full vectors %d: want at most a twentieth", size, fullSize)
		}
		t.Logf("1,000 rows x 768 dims: %.1f MB of vectors, %.2f MB of previews on the wire", float64(fullSize)/1e6, float64(size)/1e6)
	})
	t.Run("a 10,000-row walk in pages of 1,000", func(t *testing.T) {
		for _, d := range []struct {
			name string
			drv  driver.Driver
		}{{"plugin", p.plugin}, {"in process", p.local}} {
			start := time.Now()
			rows := 0
			for off := 0; off < 10000; off += 1000 {
				g, err := d.drv.Browse(ctx, vectorClass, driver.Page{Offset: off, Limit: 1000}, nil, nil)
				if err != nil {
					t.Fatalf("%s page at %d: %v", d.name, off, err)
				}
				rows += len(g.Rows)
			}
			if rows != 10000 {
				t.Fatalf("%s walked %d rows", d.name, rows)
			}
			t.Logf("10,000 rows x 768 dims, %s: %s", d.name, time.Since(start).Round(time.Millisecond))
		}
	})
	t.Run("one 10,000-row page fits the message limit", func(t *testing.T) {
		start := time.Now()
		g, err := p.plugin.Browse(ctx, vectorClass, driver.Page{Limit: 10000}, nil, nil)
		if err != nil || len(g.Rows) != 10000 {
			t.Fatalf("Browse: %v", err)
		}
		size, _ := grpcdriver.GridWireSize(g)
		t.Logf("one 10,000-row page: %.1f MB on the wire, %s through the plugin (limit %d MB)", float64(size)/1e6, time.Since(start).Round(time.Millisecond), grpcdriver.MaxMessageSize>>20)
	})
}

const vectorClass = "PluginVectors"

// vectorNode starts a node holding n objects with random 768-dimension vectors.
func vectorNode(t testing.TB, n int) *weaviatenode.Node {
	t.Helper()
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{
		"class": vectorClass, "vectorizer": "none", "vectorIndexType": "flat",
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "n", "dataType": []string{"int"}},
			map[string]any{"name": "tags", "dataType": []string{"text[]"}},
		},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	var chunk []fixtures.Object
	for i := range n {
		v := make([]float32, 768)
		for j := range v {
			v[j] = r.Float32()*2 - 1
		}
		chunk = append(chunk, fixtures.Object{Class: vectorClass, ID: fmt.Sprintf("0000beec-0000-4000-8000-%012x", i), Vector: v,
			Properties: map[string]any{"title": fmt.Sprintf("object %d", i), "n": i, "tags": []string{"a", "b"}}})
		if len(chunk) == 500 || i == n-1 {
			if err := fixtures.Batch(ctx, node, chunk); err != nil {
				t.Fatal(err)
			}
			chunk = chunk[:0]
		}
	}
	return node
}

// Issue 40, item 7: how the connection reaches the database (driver.Router) crosses the
// boundary as the driver said it: with the gRPC port closed, gRPC-Web on a release that has it
// (1.38.3+), the usual way ("") on one that has not; the same through the plugin as in process.
func TestTheRouteCrossesThePluginBoundary(t *testing.T) {
	h := pluginHost(t)
	n := weaviatetest.Shared(t, weaviatenode.Anonymous)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := settingsFor(n)
	s.GRPCPort = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := openPair(t, h, s)
	route := func(d driver.Driver) (string, error) {
		r, ok := d.(driver.Router)
		if !ok {
			return "", fmt.Errorf("%T says nothing of its route", d)
		}
		return r.Route(), nil
	}
	got := same(t, p, route)
	var meta struct {
		Version string `json:"version"`
	}
	if err := n.DoJSON(context.Background(), "GET", "/v1/meta", nil, &meta); err != nil {
		t.Fatal(err)
	}
	if web := !strings.HasPrefix(meta.Version, "1.35."); web != strings.Contains(got, "gRPC-Web") {
		t.Fatalf("weaviate-server %s, gRPC port closed: route %q", meta.Version, got)
	}
}

// Issue 40, item 4: who a connection is and what it may do (driver.AccessControl) crosses the
// boundary as the driver said it, on an RBAC node (the root user's whole view, a reader's own
// part with its note) and on one without RBAC (said in words).
func TestWhoAConnectionIsCrossesThePluginBoundary(t *testing.T) {
	h := pluginHost(t)
	ctx := context.Background()
	access := func(d driver.Driver) (*driver.AccessReport, error) {
		a, ok := d.(driver.AccessControl)
		if !ok {
			return nil, fmt.Errorf("%T says nothing of its access", d)
		}
		return a.AccessControl(ctx)
	}
	opts := weaviatetest.RBACOptions()
	n := weaviatetest.StartWith(t, opts)
	role := json.RawMessage(`{"name":"article-reader","permissions":[{"action":"read_data","data":{"collection":"Article"}}]}`)
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/roles", role, nil); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/reader/assign", json.RawMessage(`{"roles":["article-reader"]}`), nil); err != nil {
		t.Fatal(err)
	}
	t.Run("the root user sees every role and user", func(t *testing.T) {
		a := same(t, openPair(t, h, settingsFor(n)), access)
		if a.User != "admin" || !a.RolesShown || !a.UsersShown || len(a.AllRoles) == 0 || len(a.Users) != 2 {
			t.Fatalf("%+v", a)
		}
	})
	t.Run("a reader gets its own part and the note", func(t *testing.T) {
		s := settingsFor(n)
		s.APIKey = "reader-key"
		a := same(t, openPair(t, h, s), access)
		if a.User != "reader" || len(a.Roles) != 1 || a.Roles[0].Permissions[0].Words != "reading rows on Article" || a.RolesShown || a.Note == "" {
			t.Fatalf("%+v", a)
		}
	})
	t.Run("a node without RBAC says so", func(t *testing.T) {
		a := same(t, openPair(t, h, settingsFor(weaviatetest.Shared(t, weaviatenode.Anonymous))), access)
		if a.Enforced || !strings.Contains(a.Note, "RBAC is off") {
			t.Fatalf("%+v", a)
		}
	})
}
