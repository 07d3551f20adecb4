package app

import (
	"context"
	"encoding/json"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"app/app/dto"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// weaviateFactory makes the real Weaviate driver, as core does.
func weaviateFactory(_ context.Context, c connections.Connection) (driver.Driver, error) {
	return weaviate.New(c.Settings)
}

// explorerFor is an ExplorerAPI over a real store and manager, with one saved connection to
// node (with key as its API key when not empty). health > 0 checks health that often and
// reports drops to the API, whose events go to the returned recorder.
func explorerFor(t *testing.T, node *weaviatenode.Node, key string, health time.Duration) (*ExplorerAPI, string, *eventRecorder) {
	t.Helper()
	return explorerWith(t, driver.Settings{Host: node.Host, Port: node.Port, GRPCPort: node.GRPCPort}, key, health)
}

// explorerAt is explorerFor with the address given.
func explorerAt(t *testing.T, host string, port int, key string, health time.Duration) (*ExplorerAPI, string, *eventRecorder) {
	t.Helper()
	return explorerWith(t, driver.Settings{Host: host, Port: port}, key, health)
}

func explorerWith(t *testing.T, set driver.Settings, key string, health time.Duration) (*ExplorerAPI, string, *eventRecorder) {
	t.Helper()
	s, _ := newStore(t)
	if key != "" {
		set.AuthMethod = driver.AuthAPIKey
	}
	saved := add(t, s, connections.Connection{Name: "Node", Type: "weaviate", Settings: set}, key)
	rec := &eventRecorder{}
	var api *ExplorerAPI
	m := connections.NewManager(s, connections.ManagerOptions{
		Factory: weaviateFactory, HealthInterval: health,
		OnDrop: func(id string, reason error) { api.connectionDropped(id, reason) },
	})
	t.Cleanup(m.Close)
	api = NewExplorerAPI(m)
	api.start(env{emit: rec, confirm: nil})
	return api, saved.ID, rec
}

// connected is explorerFor plus a successful Connect.
func connected(t *testing.T, node *weaviatenode.Node) (*ExplorerAPI, string) {
	t.Helper()
	api, id, _ := explorerFor(t, node, "", 0)
	if _, err := api.Connect(id); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return api, id
}

// eventRecorder stands in for the Wails runtime and keeps the payloads.
type eventRecorder struct {
	mu     sync.Mutex
	names  []string
	events []any
}

func (r *eventRecorder) Emit(name string, data ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, name)
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	r.events = append(r.events, d)
}

func (r *eventRecorder) wait(t *testing.T, within time.Duration) (string, any) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		if len(r.names) > 0 {
			defer r.mu.Unlock()
			return r.names[0], r.events[0]
		}
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no event within %s", within)
	return "", nil
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return p
}

func TestExplorerConnect(t *testing.T) {
	anon := weaviatetest.Shared(t, weaviatenode.Anonymous)
	keyed := weaviatetest.Start(t, weaviatenode.APIKey)

	t.Run("an anonymous node connects and reports its server version", func(t *testing.T) {
		api, id, _ := explorerFor(t, anon, "", 0)
		st, err := api.Connect(id)
		if err != nil {
			t.Fatal(err)
		}
		if st.ID != id || !st.Connected || !strings.HasPrefix(st.ServerVersion, "1.") {
			t.Fatalf("Connect() = %+v, want connected with a 1.x server version", st)
		}
		// Issue 19: the driver's capabilities reach the window with the connection.
		if c := st.Capabilities; c.QueryLanguage != "graphql" || !c.RESTLines || c.MaxResults != 10000 || c.DefaultPageSize != 100 || c.Transactions {
			t.Fatalf("capabilities %+v", c)
		}
		if _, err := api.Connect(id); err != nil {
			t.Fatalf("connecting an open connection again: %v", err)
		}
	})

	t.Run("the right API key connects and no answer carries the key", func(t *testing.T) {
		api, id, _ := explorerFor(t, keyed, keyed.APIKey, 0)
		st, err := api.Connect(id)
		if err != nil {
			t.Fatal(err)
		}
		tables, err := api.ListTables(id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal([]any{st, tables})
		if strings.Contains(string(b), keyed.APIKey) {
			t.Fatalf("answers carry the API key: %s", b)
		}
	})

	t.Run("a wrong API key is auth: Authentication failed, without the key in the text", func(t *testing.T) {
		api, id, _ := explorerFor(t, keyed, "wrong-key-0123456789", 0)
		_, err := api.Connect(id)
		wantCode(t, err, string(driver.KindAuth))
		if !strings.HasPrefix(err.Error(), "auth: Authentication failed: ") {
			t.Fatalf("error %q lacks the spec prefix", err)
		}
		if strings.Contains(err.Error(), "wrong-key-0123456789") {
			t.Fatalf("error %q carries the key", err)
		}
	})

	t.Run("a node that expects a key while Auth Method is None is auth: Authentication failed", func(t *testing.T) {
		api, id, _ := explorerFor(t, keyed, "", 0)
		_, err := api.Connect(id)
		wantCode(t, err, string(driver.KindAuth))
		if !strings.Contains(err.Error(), "Authentication failed: ") {
			t.Fatalf("error %q lacks the spec prefix", err)
		}
	})

	t.Run("nothing listening is connection: Connection failed", func(t *testing.T) {
		api, id, _ := explorerAt(t, "127.0.0.1", closedPort(t), "", 0)
		_, err := api.Connect(id)
		wantCode(t, err, string(driver.KindConnection))
		if !strings.HasPrefix(err.Error(), "connection: Connection failed: ") {
			t.Fatalf("error %q lacks the spec prefix", err)
		}
	})

	api, _, _ := explorerFor(t, anon, "", 0)
	for _, c := range []struct{ name, id, code string }{
		{"an unknown id is not_found", "no-such-id", CodeNotFound},
		{"an empty id is invalid_argument", " ", CodeInvalidArgument},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := api.Connect(c.id)
			wantCode(t, err, c.code)
		})
	}
}

func TestExplorerNeedsAnOpenConnection(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	api, id, _ := explorerFor(t, node, "", 0)
	calls := map[string]func() error{
		"ListTables":    func() error { _, err := api.ListTables(id); return err },
		"TableCounts":   func() error { _, err := api.TableCounts(id); return err },
		"DescribeTable": func() error { _, err := api.DescribeTable(id, fixtures.Typed); return err },
		"Browse": func() error {
			_, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{Offset: 0, Limit: 10})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name+" before Connect is unavailable", func(t *testing.T) { wantCode(t, call(), CodeUnavailable) })
	}
	if _, err := api.Connect(id); err != nil {
		t.Fatal(err)
	}
	for name, call := range calls {
		t.Run(name+" after Connect works", func(t *testing.T) {
			if err := call(); err != nil {
				t.Fatal(err)
			}
		})
	}
	if err := api.Disconnect(id); err != nil {
		t.Fatal(err)
	}
	for name, call := range calls {
		t.Run(name+" after Disconnect is unavailable", func(t *testing.T) { wantCode(t, call(), CodeUnavailable) })
	}
	t.Run("disconnecting a closed connection is not an error", func(t *testing.T) {
		if err := api.Disconnect(id); err != nil {
			t.Fatal(err)
		}
	})
}

func TestExplorerListTables(t *testing.T) {
	t.Run("collections appear as tables with their descriptions", func(t *testing.T) {
		api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
		tables, err := api.ListTables(id)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, tb := range tables {
			got[tb.Name] = tb.Description
		}
		for _, name := range []string{fixtures.Person, fixtures.Typed, fixtures.Unindexed, fixtures.NamedVectors, fixtures.Tenanted, fixtures.Big} {
			if _, ok := got[name]; !ok {
				t.Errorf("ListTables() = %+v lacks %s", tables, name)
			}
		}
		if got[fixtures.Person] != "Cross-reference target." {
			t.Errorf("Person description = %q", got[fixtures.Person])
		}
	})

	t.Run("an empty node lists [] not null", func(t *testing.T) {
		api, id := connected(t, weaviatetest.Start(t, weaviatenode.Anonymous))
		tables, err := api.ListTables(id)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(tables); string(b) != "[]" {
			t.Fatalf("ListTables() JSON = %s, want []", b)
		}
	})
}

func TestExplorerTableCounts(t *testing.T) {
	api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	counts, err := api.TableCounts(id)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]dto.TableCountDTO{}
	for _, c := range counts {
		byName[c.Name] = c
	}
	for _, c := range []struct {
		table string
		want  int64
	}{
		{fixtures.Person, 3}, {fixtures.Typed, 5}, {fixtures.Unindexed, 3}, {fixtures.NamedVectors, 3},
		{fixtures.Big, fixtures.BigCount},
	} {
		t.Run(c.table+" counts "+strconv.FormatInt(c.want, 10)+" rows", func(t *testing.T) {
			got := byName[c.table]
			if got.Count == nil || *got.Count != c.want {
				t.Fatalf("count of %s = %+v, want %d", c.table, got, c.want)
			}
		})
	}
	t.Run("a multi-tenant collection has a null count, its number of tenants, and says why", func(t *testing.T) {
		got := byName[fixtures.Tenanted]
		if got.Count != nil || got.Tenants == nil || *got.Tenants != 2 || !strings.Contains(got.Message, "tenants") {
			t.Fatalf("count of Tenanted = %+v, want null with 2 tenants and a message", got)
		}
	})
}

func columnNames(cols []dto.ColumnDTO) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

func TestExplorerDescribeTable(t *testing.T) {
	api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))

	t.Run("uuid is the first column, the primary key, read-only; vector is last and read-only", func(t *testing.T) {
		info, err := api.DescribeTable(id, fixtures.Typed)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"uuid", "title", "body", "count", "price", "active", "published", "tags", "scores",
			"externalId", "location", "phone", "details", "writtenBy", "vector"}
		if got := columnNames(info.Columns); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("columns = %v, want %v", got, want)
		}
		first, last := info.Columns[0], info.Columns[len(info.Columns)-1]
		if !first.PrimaryKey || !first.ReadOnly || first.Type != "uuid" || strings.Join(info.PrimaryKey, ",") != "uuid" {
			t.Errorf("first column %+v (primary key %q), want uuid, primary key, read-only", first, info.PrimaryKey)
		}
		if !last.ReadOnly || last.Type != "vector" || !last.JSON {
			t.Errorf("last column %+v, want read-only JSON vector", last)
		}
		if !info.Settings.IndexNullState || !info.Settings.IndexPropertyLength || info.Settings.MultiTenancy {
			t.Errorf("settings = %+v, want both indexes on and no multi-tenancy", info.Settings)
		}
	})

	types := []struct{ column, typ string }{
		{"title", "text"}, {"count", "int"}, {"published", "date"}, {"tags", "text[]"}, {"writtenBy", "Person"},
	}
	info, err := api.DescribeTable(id, fixtures.Typed)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range types {
		t.Run("property "+c.column+" has type "+c.typ, func(t *testing.T) {
			for _, col := range info.Columns {
				if col.Name == c.column {
					if col.Type != c.typ || col.ReadOnly || col.PrimaryKey {
						t.Fatalf("column %+v, want type %s, writable", col, c.typ)
					}
					return
				}
			}
			t.Fatalf("no column %s", c.column)
		})
	}

	t.Run("named vectors are listed in the settings", func(t *testing.T) {
		info, err := api.DescribeTable(id, fixtures.NamedVectors)
		if err != nil {
			t.Fatal(err)
		}
		if len(info.Settings.NamedVectors) != 2 {
			t.Fatalf("named vectors = %v, want title_vec and body_vec", info.Settings.NamedVectors)
		}
	})

	for _, c := range []struct{ name, table, code string }{
		{"an unknown collection is not_found", "NoSuchCollection", string(driver.KindNotFound)},
		{"an empty name is invalid_argument", "", CodeInvalidArgument},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := api.DescribeTable(id, c.table)
			wantCode(t, err, c.code)
		})
	}
}

func cell(t *testing.T, g dto.GridDTO, uuid, column string) *string {
	t.Helper()
	ci := -1
	for i, c := range g.Columns {
		if c.Name == column {
			ci = i
		}
	}
	if ci < 0 {
		t.Fatalf("no column %s in %v", column, columnNames(g.Columns))
	}
	for _, r := range g.Rows {
		if r[0] != nil && *r[0] == uuid {
			return r[ci]
		}
	}
	t.Fatalf("no row %s", uuid)
	return nil
}

func TestExplorerBrowsePages(t *testing.T) {
	api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	g, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{Offset: 0, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a page of Typed has every row, uuid first and vector last", func(t *testing.T) {
		if len(g.Rows) != 5 || g.HasMore || g.Offset != 0 {
			t.Fatalf("%d rows, hasMore %v, offset %d; want 5 rows, no more, offset 0", len(g.Rows), g.HasMore, g.Offset)
		}
		names := columnNames(g.Columns)
		if names[0] != "uuid" || names[len(names)-1] != "vector" {
			t.Fatalf("columns %v, want uuid first and vector last", names)
		}
		for _, r := range g.Rows {
			if len(r) != len(g.Columns) {
				t.Fatalf("row of %d cells for %d columns", len(r), len(g.Columns))
			}
		}
	})

	cases := []struct {
		name, uuid, column string
		check              func(string) bool
	}{
		{"text is shown as is", fixtures.TypedAlphaID, "title", func(s string) bool { return s == "Alpha" }},
		{"an int keeps its digits", fixtures.TypedGammaID, "count", func(s string) bool { return s == "-5" }},
		{"a boolean is true or false", fixtures.TypedBetaID, "active", func(s string) bool { return s == "false" }},
		{"an array is JSON text", fixtures.TypedAlphaID, "tags", func(s string) bool { return s == `["red","green"]` }},
		{"an object is JSON text", fixtures.TypedAlphaID, "details", func(s string) bool {
			var m map[string]any
			return json.Unmarshal([]byte(s), &m) == nil && m["color"] == "blue"
		}},
		{"the vector cell is a preview: its length and first numbers (Vectors reads it whole)", fixtures.TypedAlphaID, "vector", func(s string) bool {
			var p driver.VectorPreview
			return json.Unmarshal([]byte(s), &p) == nil && p.Dimensions == 3 && len(p.Head) == 3 && string(p.Head[0]) == "0.1"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := cell(t, g, c.uuid, c.column)
			if got == nil || !c.check(*got) {
				t.Fatalf("cell %s of %s = %v", c.column, c.uuid, deref(got))
			}
		})
	}

	t.Run("a missing property is null", func(t *testing.T) {
		if got := cell(t, g, fixtures.TypedNullsID, "count"); got != nil {
			t.Fatalf("count of the Nulls row = %q, want null", *got)
		}
	})

	t.Run("offset and limit select a window of Big and say more exist", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Big, dto.BrowseRequestDTO{Offset: 20, Limit: 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != 7 || !g.HasMore || g.Offset != 20 {
			t.Fatalf("%d rows, hasMore %v, offset %d; want 7, true, 20", len(g.Rows), g.HasMore, g.Offset)
		}
	})

	t.Run("the page that reaches row 10,000 stops there with a notice", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Big, dto.BrowseRequestDTO{Offset: 9990, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != 10 || g.HasMore || !strings.Contains(g.Notice, "10,000") {
			t.Fatalf("%d rows, hasMore %v, notice %q; want 10 rows, no more, a notice naming 10,000", len(g.Rows), g.HasMore, g.Notice)
		}
	})

	t.Run("an empty page is [] rows, not null", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{Offset: 50, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(g.Rows)
		if string(b) != "[]" {
			t.Fatalf("rows JSON = %s, want []", b)
		}
	})

	for _, c := range []struct {
		name, table    string
		offset, limit  int
		code           string
		messageContain string
	}{
		{"a page starting at row 10,000 is unsupported", fixtures.Big, 10000, 10, string(driver.KindUnsupported), "10,000"},
		{"a multi-tenant collection is unsupported and names the editor", fixtures.Tenanted, 0, 10, string(driver.KindUnsupported), "tenant"},
		{"an unknown collection is not_found", "NoSuchCollection", 0, 10, string(driver.KindNotFound), "NoSuchCollection"},
		{"a negative offset is invalid_argument", fixtures.Typed, -1, 10, CodeInvalidArgument, "offset"},
		{"a limit over 1000 is invalid_argument", fixtures.Typed, 0, 1001, CodeInvalidArgument, "limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := api.Browse(id, c.table, dto.BrowseRequestDTO{Offset: c.offset, Limit: c.limit})
			wantCode(t, err, c.code)
			if !strings.Contains(err.Error(), c.messageContain) {
				t.Fatalf("error %q does not mention %q", err, c.messageContain)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return strconv.Quote(*s)
}

func TestExplorerDemoData(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := fixtures.LoadDemo(ctx, node); err != nil {
		t.Fatal(err)
	}
	api, id := connected(t, node)

	t.Run("the demo node lists Article and Author", func(t *testing.T) {
		tables, err := api.ListTables(id)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tb := range tables {
			names = append(names, tb.Name)
		}
		if strings.Join(names, ",") != "Author,Article" && strings.Join(names, ",") != "Article,Author" {
			t.Fatalf("tables = %v, want Article and Author", names)
		}
	})

	t.Run("the first page of Article has 10 rows, uuid first and vector last", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.DemoArticle, dto.BrowseRequestDTO{Offset: 0, Limit: 0})
		if err != nil {
			t.Fatal(err)
		}
		names := columnNames(g.Columns)
		if len(g.Rows) != 10 || names[0] != "uuid" || names[len(names)-1] != "vector" {
			t.Fatalf("%d rows, columns %v", len(g.Rows), names)
		}
	})
}

func TestExplorerConnectionDroppedEvent(t *testing.T) {
	t.Run("a failing health check emits connection:dropped with the id and Connection failed, and closes the connection", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.Anonymous)
		api, id, rec := explorerFor(t, node, "", 100*time.Millisecond)
		if _, err := api.Connect(id); err != nil {
			t.Fatal(err)
		}
		node.Stop()
		name, data := rec.wait(t, 15*time.Second)
		if name != EventConnectionDropped {
			t.Fatalf("event %q, want %q", name, EventConnectionDropped)
		}
		ev, ok := data.(dto.ConnectionDroppedEvent)
		if !ok {
			t.Fatalf("payload %#v is not a dto.ConnectionDroppedEvent", data)
		}
		if ev.ID != id || ev.Code != string(driver.KindConnection) || !strings.HasPrefix(ev.Message, "Connection failed: ") {
			t.Fatalf("payload %+v, want id %s, code connection, message starting Connection failed:", ev, id)
		}
		_, err := api.ListTables(id)
		wantCode(t, err, CodeUnavailable)
	})

	t.Run("before the window starts a drop is not emitted and does not panic", func(t *testing.T) {
		api := NewExplorerAPI(nil)
		api.connectionDropped("x", driver.Errorf(driver.KindConnection, "gone"))
	})
}

// Issue 25, item 5: a connection the window connects is held by the window, so an AI
// client's disconnect (connections.Manager.Release) leaves it open; the person's own
// Disconnect closes it.
func TestTheWindowHoldsTheConnectionsItOpens(t *testing.T) {
	api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	m := api.open.(*connections.Manager)
	if !m.HeldByWindow(id) {
		t.Fatal("Connect did not hold the connection for the window")
	}
	if closed, err := m.Release(id, "principal:some-ai-client"); err != nil || closed || !m.IsOpen(id) {
		t.Fatalf("an AI client's release closed the window's connection: closed %v, %v", closed, err)
	}
	if err := api.Disconnect(id); err != nil || m.IsOpen(id) {
		t.Fatalf("the person's Disconnect: %v, open %v", err, m.IsOpen(id))
	}
}
