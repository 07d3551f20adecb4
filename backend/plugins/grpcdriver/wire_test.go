package grpcdriver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"app/backend/driver"
	"app/backend/driver/weaviate"
)

// serveLoopback serves cfg's driver over a real gRPC server on 127.0.0.1 with the plugin's
// server options and returns a host-side client dialled with the host's options.
func serveLoopback(t *testing.T, cfg Config) *Client {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = logrus.New()
		cfg.Log.SetOutput(testWriter{t})
	}
	srv := NewServer(cfg)
	g := grpc.NewServer(ServerOptions(srv)...)
	srv.Register(g)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = g.Serve(ln) }()
	t.Cleanup(g.Stop)
	cc, err := grpc.NewClient(ln.Addr().String(), append(DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return NewClient(cc, nil)
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func weaviateConfig() Config {
	return Config{
		Info: Info{Name: "weaviate", Version: "test", Types: []string{"weaviate"}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return weaviate.New(s, weaviate.WithLogger(log))
		},
		Classify: weaviate.Classify,
	}
}

// slowWeaviate stands in for a Weaviate node whose page read takes forever: it answers
// /v1/meta and /v1/schema like a node and holds GET /v1/objects open until the request's
// context ends, reporting both moments. A real node answers a page too fast to cancel it
// reliably mid-request.
type slowWeaviate struct {
	srv       *httptest.Server
	arrived   chan struct{}
	cancelled chan struct{}
}

func newSlowWeaviate(t *testing.T) *slowWeaviate {
	s := &slowWeaviate{arrived: make(chan struct{}, 1), cancelled: make(chan struct{}, 1)}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/meta":
			_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
		case "/v1/schema":
			_, _ = w.Write([]byte(`{"classes":[{"class":"Slow","properties":[{"name":"title","dataType":["text"]}]}]}`))
		case "/v1/objects":
			s.arrived <- struct{}{}
			select {
			case <-r.Context().Done():
				s.cancelled <- struct{}{}
			case <-time.After(time.Minute):
				_, _ = w.Write([]byte(`{"objects":[]}`))
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *slowWeaviate) settings() driver.Settings { return standInSettings(s.srv.URL) }

// standInSettings are connection settings that reach a stand-in node at url (http://host:port).
func standInSettings(url string) driver.Settings {
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(url, "http://"))
	st := driver.DefaultSettings()
	st.Host = host
	st.Port, _ = strconv.Atoi(port)
	return st
}

func openConn(t *testing.T, c *Client, s driver.Settings) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	k, err := c.Open(ctx, s, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	if err := k.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestCancellationCrossesTheBoundary(t *testing.T) {
	t.Run("a cancelled Browse stops the HTTP request inside the plugin", func(t *testing.T) {
		slow := newSlowWeaviate(t)
		k := openConn(t, serveLoopback(t, weaviateConfig()), slow.settings())
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := k.Browse(ctx, "Slow", driver.Page{Limit: 10}, nil, nil)
			errc <- err
		}()
		waitFor(t, slow.arrived, "the page request to reach the stand-in")
		cancel()
		waitFor(t, slow.cancelled, "the stand-in to see its request cancelled")
		err := <-errc
		if !driver.IsKind(err, driver.KindCancelled) || !errors.Is(err, context.Canceled) {
			t.Fatalf("Browse: %v (kind %s)", err, driver.KindOf(err))
		}
	})
	t.Run("a deadline crosses too and ends as a timeout", func(t *testing.T) {
		slow := newSlowWeaviate(t)
		k := openConn(t, serveLoopback(t, weaviateConfig()), slow.settings())
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := k.Browse(ctx, "Slow", driver.Page{Limit: 10}, nil, nil)
		waitFor(t, slow.cancelled, "the stand-in to see its request end at the deadline")
		if !driver.IsKind(err, driver.KindTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Browse: %v (kind %s)", err, driver.KindOf(err))
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

// erroringDriver fails ListTables with the error it is given: the one way to make every
// kind on demand (the real driver's kinds are proven against weaviate-server in
// backend/plugins/host). Its other methods are the embedded nil interface: not called.
type erroringDriver struct {
	driver.Driver
	err error
}

func (d erroringDriver) ListTables(context.Context) ([]driver.Table, error) { return nil, d.err }
func (d erroringDriver) Capabilities() driver.Capabilities                  { return driver.Capabilities{} }
func (d erroringDriver) Close() error                                       { return nil }

func TestEveryKindCrossesARealGRPCConnection(t *testing.T) {
	var next atomic.Value
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return erroringDriver{err: next.Load().(error)}, nil
	}})
	for _, k := range driver.Kinds() {
		t.Run(string(k), func(t *testing.T) {
			want := driver.Errorf(k, "the %s case", k)
			next.Store(error(want))
			conn, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = conn.ListTables(context.Background())
			var de *driver.Error
			if !errors.As(err, &de) || de.Kind != k || de.Msg != want.Msg {
				t.Fatalf("got %#v, want %q %q", err, k, want.Msg)
			}
		})
	}
}

// panickingDriver crashes in ListTables: a crash is what no real driver does on purpose.
type panickingDriver struct{ erroringDriver }

func (panickingDriver) ListTables(context.Context) ([]driver.Table, error) { panic("boom") }

func TestAPanicInTheDriverIsAnErrorNotADeadPlugin(t *testing.T) {
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return panickingDriver{}, nil
	}})
	conn, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err = conn.ListTables(context.Background())
		if !driver.IsKind(err, driver.KindQueryFailed) || !strings.Contains(err.Error(), "failed unexpectedly") {
			t.Fatalf("got %v", err)
		}
	}
}

func TestConnectionLifecycle(t *testing.T) {
	slow := newSlowWeaviate(t)
	c := serveLoopback(t, weaviateConfig())
	closes := 0
	k, err := c.Open(context.Background(), slow.settings(), "lifecycle", func() { closes++ })
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Connect reads the server version across the wire", func(t *testing.T) {
		if err := k.Connect(context.Background()); err != nil {
			t.Fatal(err)
		}
		if v := k.ServerVersion(); v != "1.35.2" {
			t.Fatalf("server version %q", v)
		}
	})
	t.Run("capabilities come with the connection", func(t *testing.T) {
		if caps := k.Capabilities(); caps.QueryLanguage != "graphql" || caps.MaxResults != weaviate.MaxResults {
			t.Fatalf("capabilities %#v", caps)
		}
	})
	t.Run("settings the driver refuses are refused at Open with the driver's message", func(t *testing.T) {
		s := slow.settings()
		s.Port = 0
		_, err := c.Open(context.Background(), s, "", nil)
		if !driver.IsKind(err, driver.KindInvalidArgument) || !strings.Contains(err.Error(), "Port must be between 1 and 65535") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("Close twice is fine and tells the host once", func(t *testing.T) {
		if err := k.Close(); err != nil {
			t.Fatal(err)
		}
		if err := k.Close(); err != nil {
			t.Fatal(err)
		}
		if closes != 1 {
			t.Fatalf("onClose ran %d times", closes)
		}
	})
	t.Run("a closed connection is Connection failed: the connection is closed", func(t *testing.T) {
		_, err := k.ListTables(context.Background())
		if !driver.IsKind(err, driver.KindConnection) || err.Error() != "Connection failed: the connection is closed" {
			t.Fatalf("got %v", err)
		}
	})
}

func TestStoppedPluginFailsFast(t *testing.T) {
	slow := newSlowWeaviate(t)
	live := serveLoopback(t, weaviateConfig())
	k := openConn(t, live, slow.settings())
	k.c = &Client{rpc: live.rpc, stopped: func() bool { return true }}
	for name, call := range map[string]func() error{
		"Ping":       func() error { return k.Ping(context.Background()) },
		"ListTables": func() error { _, err := k.ListTables(context.Background()); return err },
		"Browse":     func() error { _, err := k.Browse(context.Background(), "Slow", driver.Page{}, nil, nil); return err },
		"Execute": func() error {
			_, err := k.Execute(context.Background(), "{ Get { Slow { title } } }", driver.ExecOptions{})
			return err
		},
	} {
		t.Run(name+" says Connection failed: driver stopped", func(t *testing.T) {
			err := call()
			if err == nil || err.Error() != "Connection failed: driver stopped" || !errors.Is(err, ErrDriverStopped) {
				t.Fatalf("got %v", err)
			}
		})
	}
	t.Run("Close of a connection whose plugin is gone succeeds", func(t *testing.T) {
		if err := k.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestClassifyCrossesTheWire(t *testing.T) {
	slow := newSlowWeaviate(t)
	k := openConn(t, serveLoopback(t, weaviateConfig()), slow.settings())
	cases := []struct {
		text  string
		write bool
		dest  bool
		kind  driver.Kind
	}{
		{text: "{ Get { Slow { title } } }"},
		{text: "DELETE /v1/objects/Slow/0000beec-0000-4000-8000-000000000001", write: true, dest: true},
		{text: "mutation { x }", write: true},
		{text: "{ Get {", write: true, kind: driver.KindInvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			got, err := k.Classify(c.text)
			want, wantErr := weaviate.Classify(c.text)
			if got != want || driver.KindOf(err) != driver.KindOf(wantErr) {
				t.Fatalf("through the plugin %#v %v, in process %#v %v", got, err, want, wantErr)
			}
			if got.Write() != c.write || got.Destructive != c.dest {
				t.Fatalf("classification %#v", got)
			}
			if c.kind != "" && driver.KindOf(err) != c.kind {
				t.Fatalf("kind %s, want %s", driver.KindOf(err), c.kind)
			}
		})
	}
}

// searchingDriver records the search it is asked and answers one row; it also reports paths.
type searchingDriver struct {
	erroringDriver
	got *driver.SearchRequest
	// older plays a plugin built before SearchOptions and SearchModes.
	older bool
}

func (d searchingDriver) Capabilities() driver.Capabilities {
	return driver.Capabilities{SearchOptions: !d.older, SearchModes: !d.older, FilterGroups: !d.older, RowKeys: !d.older}
}

func (d searchingDriver) Search(_ context.Context, table string, r driver.SearchRequest, limit int) (*driver.Grid, error) {
	*d.got = r
	return &driver.Grid{Columns: []driver.Column{{Name: "uuid", PrimaryKey: true}, {Name: "distance"}},
		Rows: [][]any{{table, json.Number(strconv.Itoa(limit))}}}, nil
}

func (d searchingDriver) CheckPaths(context.Context) []driver.PathStatus {
	return []driver.PathStatus{{Name: "REST", OK: true, Detail: "server 1.35.2"}, {Name: "gRPC", Detail: "no answer"}}
}

// Issue 19: Search and CheckPaths cross the plugin boundary whole: a missing query or alpha
// stays missing, an alpha of 0 stays 0, and each path keeps its status.
func TestSearchAndCheckPathsCrossTheWire(t *testing.T) {
	var got driver.SearchRequest
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return searchingDriver{got: &got}, nil
	}})
	k, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	q := "red shoes"
	cases := []driver.SearchRequest{
		{Vector: []float64{0.5, -1}, TargetVector: "title_vec", Properties: []string{"title"}},
		{Query: &q, Mode: "hybrid", Params: map[string]string{"alpha": "0"}},
		{Query: &q},
		{SimilarTo: driver.Key{"uuid": "0a1b2c3d-0000-4000-8000-000000000001"}},
		{Query: &q, Mode: "hybrid", Params: map[string]string{"fusion": "ranked"}, SearchColumns: []string{"title", "body"}, Explain: true,
			Filters: []driver.Filter{{Column: "n", Operator: driver.OpBetween, Value: "1", Value2: "9", Group: 2}, {Column: "t", Operator: driver.OpIsNull, Group: 2}}},
		{Query: &q, Mode: "nearText", TargetVector: "title_vec"},
		{SimilarTo: driver.Key{"tenant": "north", "id": json.Number("42")}},
	}
	for _, want := range cases {
		g, err := k.Search(context.Background(), "Typed", want, 7)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || g.Rows[0][0] != "Typed" || fmt.Sprint(g.Rows[0][1]) != "7" {
			t.Fatalf("the plugin got %#v (rows %v), want %#v", got, g.Rows, want)
		}
	}
	// Issue 23 and contract 3: a plugin built before the search options or the described
	// modes would drop them and answer another search; the host refuses each of them to it,
	// and sends what it can read.
	var old driver.SearchRequest
	oc := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return searchingDriver{got: &old, older: true}, nil
	}})
	ok, err := oc.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ok.Close()
	refused := append([]driver.SearchRequest{{Vector: []float64{1}, Filters: []driver.Filter{{Column: "n", Operator: driver.OpIsNull}}}}, cases[1], cases[2], cases[4], cases[5], cases[6])
	for _, r := range refused {
		var de *driver.Error
		if _, err := ok.Search(context.Background(), "Typed", r, 7); !errors.As(err, &de) || de.Kind != driver.KindUnsupported || !strings.Contains(de.Msg, "update it in Settings, Plugins") {
			t.Fatalf("an older plugin was sent %#v: %v", r, err)
		}
	}
	for _, r := range []driver.SearchRequest{cases[0], cases[3]} {
		if _, err := ok.Search(context.Background(), "Typed", r, 7); err != nil || !reflect.DeepEqual(old, r) {
			t.Fatalf("a search near a vector or a row to an older plugin: %v %#v", err, old)
		}
	}
	paths := k.CheckPaths(context.Background())
	if len(paths) != 2 || paths[0] != (driver.PathStatus{Name: "REST", OK: true, Detail: "server 1.35.2"}) || paths[1].OK || paths[1].Detail != "no answer" {
		t.Fatalf("paths %#v", paths)
	}
}

// scanningDriver records the scan it is asked and answers one page with vectors.
type scanningDriver struct {
	erroringDriver
	got *driver.ScanRequest
}

var scanningMu sync.Mutex

func (d scanningDriver) Scan(_ context.Context, table string, r driver.ScanRequest) (*driver.ScanPage, error) {
	scanningMu.Lock()
	if r.After != "b" { // "b" is the read-ahead of the page after this one (scanahead.go)
		*d.got = r
	}
	scanningMu.Unlock()
	return &driver.ScanPage{
		Columns:     []driver.Column{{Name: "uuid", PrimaryKey: true, Type: "uuid"}, {Name: "n", Type: "int"}},
		Rows:        [][]any{{table, json.Number("9007199254740993")}, {"b", nil}},
		VectorNames: []string{"body_vec", "title_vec"},
		Vectors:     [][][]float32{{{0.1, -2.5, 3e-8}, nil}, {nil, {1}}},
		Next:        "b", Walked: 1000,
	}, nil
}

// Issue 21: a scan step crosses the plugin boundary whole: the request (cursor, filters,
// vectors), every cell (an int past 2^53 exact), each vector's float32s bit for bit and a
// missing one still missing, the cursor and the keys walked.
func TestScanCrossesTheWire(t *testing.T) {
	var got driver.ScanRequest
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return scanningDriver{got: &got}, nil
	}})
	k, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	want := driver.ScanRequest{After: "a", Limit: 1000, Vectors: true, Filters: []driver.Filter{{Column: "n", Operator: driver.OpBetween, Value: "1", Value2: "9"}}}
	p, err := k.Scan(context.Background(), "Typed", want)
	if err != nil {
		t.Fatal(err)
	}
	scanningMu.Lock()
	asked := got
	scanningMu.Unlock()
	if !reflect.DeepEqual(asked, want) {
		t.Fatalf("the plugin got %#v, want %#v", asked, want)
	}
	sent, _ := scanningDriver{got: new(driver.ScanRequest)}.Scan(context.Background(), "Typed", want)
	if !reflect.DeepEqual(p.Rows, sent.Rows) || !reflect.DeepEqual(p.Vectors, sent.Vectors) || !reflect.DeepEqual(p.VectorNames, sent.VectorNames) ||
		p.Next != "b" || p.Walked != 1000 || len(p.Columns) != 2 || p.Columns[1].Type != "int" {
		t.Fatalf("the app got %#v, the plugin sent %#v", p, sent)
	}
}

// A driver that cannot walk a table is refused as unsupported, whole, across the boundary.
func TestScanOfADriverWithoutItIsUnsupported(t *testing.T) {
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return erroringDriver{}, nil
	}})
	k, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	_, err = k.Scan(context.Background(), "Typed", driver.ScanRequest{})
	if !driver.IsKind(err, driver.KindUnsupported) {
		t.Fatalf("got %v; want unsupported", err)
	}
}

// A write cut mid-batch still knows what it settled: the row it refused before sending, and
// that the rows sent may or may not be written. Those outcomes cross the boundary with the
// error (issue 21: an import counts each row exactly), where they used to be dropped and every
// row read as unknown. The stand-in node drops the batch request's connection, a crash on
// cue a real node will not give.
func TestAWriteCutMidBatchKeepsItsRowOutcomesAcrossTheBoundary(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/meta":
			_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
		case "/v1/schema":
			_, _ = w.Write([]byte(`{"classes":[{"class":"Cut","properties":[{"name":"title","dataType":["text"]}]}]}`))
		case "/v1/batch/objects":
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(node.Close)
	k := openConn(t, serveLoopback(t, weaviateConfig()), standInSettings(node.URL))
	rows := []driver.Row{
		{Key: driver.Key{"uuid": "not-a-uuid"}, Values: map[string]any{"title": "refused before sending"}},
		{Key: driver.Key{"uuid": "00000021-0000-4000-8000-000000000001"}, Values: map[string]any{"title": "sent"}},
		{Key: driver.Key{"uuid": "00000021-0000-4000-8000-000000000002"}, Values: map[string]any{"title": "sent too"}},
	}
	res, err := k.WriteBatch(context.Background(), "Cut", rows)
	if err == nil || !driver.MayHaveWritten(err) {
		t.Fatalf("error %v (kind %s); want one that says rows may have been written", err, driver.KindOf(err))
	}
	if len(res) != 3 {
		t.Fatalf("%d outcomes crossed with the error, want 3: %#v", len(res), res)
	}
	if res[0].Status != driver.RowFailed || res[0].Kind != driver.KindInvalidArgument || !strings.Contains(res[0].Message, "not a UUID") {
		t.Errorf("the refused row: %#v", res[0])
	}
	for _, r := range res[1:] {
		if r.Status != driver.RowFailed || !strings.Contains(r.Message, driver.MaybeWritten) || !r.MaybeWritten {
			t.Errorf("a sent row: %#v; want failed, %q", r, driver.MaybeWritten)
		}
	}
}

// Issue 37, item 5: CreateTable crosses the boundary: the spec's columns with their kinds and
// the vectors reach the plugin's driver (here as the class it posts to a stand-in node), and
// the answer describes the table with the driver's types and the kinds beside them.
func TestCreateTableCrossesTheBoundary(t *testing.T) {
	posted := make(chan map[string]any, 1)
	var created atomic.Bool
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/meta":
			_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
		case r.URL.Path == "/v1/schema" && r.Method == http.MethodPost:
			var class map[string]any
			_ = json.NewDecoder(r.Body).Decode(&class)
			posted <- class
			created.Store(true)
			_, _ = w.Write([]byte(`{}`))
		case r.URL.Path == "/v1/schema":
			if !created.Load() {
				_, _ = w.Write([]byte(`{"classes":[]}`))
				return
			}
			_, _ = w.Write([]byte(`{"classes":[{"class":"Made","vectorizer":"none","properties":[{"name":"n","dataType":["int"]},{"name":"tags","dataType":["text[]"]}]}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(node.Close)
	k := openConn(t, serveLoopback(t, weaviateConfig()), standInSettings(node.URL))
	if !k.Capabilities().CreateTable {
		t.Fatal("the capability did not cross")
	}
	info, err := k.CreateTable(context.Background(), driver.TableSpec{Name: "Made", Columns: []driver.ColumnSpec{
		{Name: "n", Kind: driver.ColumnInteger}, {Name: "tags", Kind: driver.ColumnArray, Of: driver.ColumnText}}})
	if err != nil {
		t.Fatal(err)
	}
	class := <-posted
	props, _ := class["properties"].([]any)
	if class["class"] != "Made" || class["vectorizer"] != "none" || len(props) != 2 ||
		fmt.Sprint(props[1].(map[string]any)["dataType"]) != "[text[]]" {
		t.Fatalf("posted %v", class)
	}
	n, _ := info.Column("n")
	tags, _ := info.Column("tags")
	if n.Type != "int" || n.Kind != driver.ColumnInteger || tags.Kind != driver.ColumnArray || tags.Of != driver.ColumnText {
		t.Fatalf("%+v", info.Columns)
	}
}

// Contract 3, item 1: the editor's templates cross the boundary as the plugin's driver wrote
// them for the table (here one whose stand-in node says it has no vectorizer).
func TestTemplatesCrossTheBoundary(t *testing.T) {
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/meta":
			_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
		case "/v1/schema":
			_, _ = w.Write([]byte(`{"classes":[{"class":"Plain","vectorizer":"none","properties":[{"name":"name","dataType":["text"]}]}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(node.Close)
	k := openConn(t, serveLoopback(t, weaviateConfig()), standInSettings(node.URL))
	ts, err := k.Templates(context.Background(), "Plain")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tp := range ts {
		names = append(names, tp.Name)
		if tp.Name == "hybrid" && !strings.Contains(tp.Text, "# Plain has no vectorizer") {
			t.Errorf("the hybrid template did not read the table: %s", tp.Text)
		}
	}
	if len(ts) < 5 || names[0] != "Get" || !strings.Contains(ts[0].Text, "Plain(limit: 10)") {
		t.Fatalf("templates %v: %+v", names, ts)
	}
}

// Contract 3, item 1: the optional features are declared up front. A driver that implements
// none of them crosses with each one false, and a call for one is refused at once in words,
// never sent; the Weaviate driver declares each one it has.
func TestOptionalFeaturesAreDeclaredUpFront(t *testing.T) {
	k := openConn(t, serveLoopback(t, Config{
		Info: Info{Name: "bare", Version: "1.0.0", Types: []string{"bare"}},
		Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) { return bareDriver{}, nil },
	}), driver.Settings{})
	c := k.Capabilities()
	if !c.Declared || c.Scan || c.Tenants || c.Nodes || c.Paths || c.Templates || c.BatchWrite || c.CreateTable || c.Backups || c.AccessControl {
		t.Fatalf("a bare driver declares %+v", c)
	}
	ctx := context.Background()
	if _, err := k.ListTenants(ctx, "t"); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "has no tenants") {
		t.Errorf("ListTenants: %v", err)
	}
	if _, err := k.Nodes(ctx, ""); !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "no cluster nodes") {
		t.Errorf("Nodes: %v", err)
	}
	if _, err := k.Scan(ctx, "t", driver.ScanRequest{}); !driver.IsKind(err, driver.KindUnsupported) {
		t.Errorf("Scan: %v", err)
	}
	if ts, err := k.Templates(ctx, "t"); err != nil || len(ts) != 0 {
		t.Errorf("Templates: %v %v", ts, err)
	}
	node := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
	}))
	t.Cleanup(node.Close)
	w := openConn(t, serveLoopback(t, weaviateConfig()), standInSettings(node.URL))
	if wc := w.Capabilities(); !wc.Declared || !wc.Scan || !wc.Tenants || !wc.Nodes || !wc.Paths || !wc.Templates || !wc.BatchWrite || !wc.CreateTable || !wc.Backups || !wc.AccessControl {
		t.Fatalf("the Weaviate driver declares %+v", wc)
	}
}

// bareDriver implements the contract and nothing optional.
type bareDriver struct{}

func (bareDriver) Ping(context.Context) error                         { return nil }
func (bareDriver) Connect(context.Context) error                      { return nil }
func (bareDriver) ListTables(context.Context) ([]driver.Table, error) { return nil, nil }
func (bareDriver) DescribeTable(context.Context, string) (*driver.TableInfo, error) {
	return &driver.TableInfo{}, nil
}
func (bareDriver) Browse(context.Context, string, driver.Page, []driver.Filter, []driver.Sort) (*driver.Grid, error) {
	return &driver.Grid{}, nil
}
func (bareDriver) Count(context.Context, string, []driver.Filter) (int64, error) { return 0, nil }
func (bareDriver) Search(context.Context, string, driver.SearchRequest, int) (*driver.Grid, error) {
	return &driver.Grid{}, nil
}
func (bareDriver) Execute(context.Context, string, driver.ExecOptions) (*driver.Result, error) {
	return &driver.Result{}, nil
}
func (bareDriver) Classify(string) (driver.Classification, error) {
	return driver.Classification{}, nil
}
func (bareDriver) CheckCells(context.Context, string, map[string]*string) (map[string]string, error) {
	return nil, nil
}
func (bareDriver) Insert(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, nil
}
func (bareDriver) Update(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, nil
}
func (bareDriver) Delete(context.Context, string, []driver.Row) ([]driver.RowResult, error) {
	return nil, nil
}
func (bareDriver) Capabilities() driver.Capabilities { return driver.Capabilities{CreateTable: true} }
func (bareDriver) Close() error                      { return nil }

// describingDriver describes every table with the search modes it is given.
type describingDriver struct {
	erroringDriver
	modes []driver.SearchMode
}

func (d describingDriver) DescribeTable(_ context.Context, table string) (*driver.TableInfo, error) {
	return &driver.TableInfo{Name: table, PrimaryKey: []string{"id"}, Columns: []driver.Column{{Name: "id", PrimaryKey: true}}, Searches: d.modes}, nil
}

// Contract 3: a table's search modes cross the wire whole (parameters, bounds, labels), and
// one the plugin described wrongly is dropped, not drawn, while the table and its other modes
// still come through.
func TestSearchModesCrossTheWireAndABrokenOneIsDropped(t *testing.T) {
	good := driver.SearchMode{Name: "words", Label: "Words", Hint: "h", Note: "n", Measure: "score", Columns: true, TextColumns: []string{"t"}, Explains: true, Vector: true,
		Params: []driver.SearchParam{{Key: "w", Label: "W", Help: "x", Kind: driver.ParamNumber, Min: 0, Max: 1, Step: 0.1, MinLabel: "lo", MaxLabel: "hi", Default: "0.5"},
			{Key: "m", Label: "M", Kind: driver.ParamEnum, Options: []string{"a", "b"}, OptionLabels: map[string]string{"a": "A"}}}}
	broken := driver.SearchMode{Name: "bad", Label: "Bad", Measure: "score", Params: []driver.SearchParam{{Key: "k", Kind: "slider"}}}
	c := serveLoopback(t, Config{Open: func(driver.Settings, logrus.FieldLogger) (driver.Driver, error) {
		return describingDriver{modes: []driver.SearchMode{broken, good}}, nil
	}})
	k, err := c.Open(context.Background(), driver.DefaultSettings(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	info, err := k.DescribeTable(context.Background(), "T")
	if err != nil || info.Name != "T" || !reflect.DeepEqual(info.Searches, []driver.SearchMode{good}) {
		t.Fatalf("%+v %v", info, err)
	}
}
