package tools

// Issue 25, "Faults and load": insert_rows cut in the middle of a batch, by the statement
// timeout and by the driver's plugin process killed with SIGKILL. The database is a real
// weaviate-server behind the loopback stall proxy, which lets the first 70 (or 20) row
// requests through and holds the next: the rows before it are written, the held one is sent
// and never arrives, the batches after its own are never sent, and the tool has to say so
// without claiming more or less than the server holds. The person who approves the write is the test (the one fake: no real person
// clicks here).

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/plugins/host"
	"app/backend/secrets"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestARowWriteCutInTheMiddleOfABatch(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	log := logrus.New()
	log.SetOutput(io.Discard)
	bin, binDir := buildPlugin(t), t.TempDir()
	plugins := host.New(host.Options{Log: log, IdleTimeout: -1, Resolve: func(name string) (host.Binary, error) {
		return host.Binary{Name: name, Version: "1.0.0-test", Path: bin, Dir: binDir}, nil
	}})
	t.Cleanup(func() { plugins.Close() })

	const rows = 120 // three batches of rowBatch (50)
	if rowBatch != 50 {
		t.Fatalf("rowBatch is %d; the test's arithmetic assumes 50", rowBatch)
	}
	kill := func(t *testing.T) {
		p, ok := plugins.Running("weaviate")
		if !ok {
			t.Fatal("no plugin process runs")
		}
		if err := syscall.Kill(p.PID, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	limits := Limits{DefaultRows: 500, MaxRows: 10000, QueryTimeout: 3 * time.Second}

	cases := []struct {
		name    string
		factory connections.Factory
		// cut ends the held batch: by waiting for the statement timeout, or by killing the plugin.
		cut func(t *testing.T)
		// timeout: the request ends with -33003 and the rows' outcomes in its data; else the
		// tool answers with them.
		timeout bool
		// passed is how many row requests the proxy lets through before it holds one.
		passed int
	}{
		{"the statement timeout passes while a request of the second batch is out (the driver in the app's process)",
			func(_ context.Context, c connections.Connection) (driver.Driver, error) {
				return weaviate.New(c.Settings)
			},
			func(*testing.T) {}, true, 70},
		{"the statement timeout passes while a request of the second batch is out (the driver in its plugin process)",
			func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
				return plugins.Open(ctx, "weaviate", c.Settings, c.Name)
			},
			func(*testing.T) {}, true, 70},
		{"the driver's plugin process is killed with SIGKILL while a request of the second batch is out",
			func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
				return plugins.Open(ctx, "weaviate", c.Settings, c.Name)
			},
			kill, false, 70},
		{"the driver's plugin process is killed with SIGKILL while a request of the first batch is out",
			func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
				return plugins.Open(ctx, "weaviate", c.Settings, c.Name)
			},
			kill, false, 20},
	}
	for n, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			class := fmt.Sprintf("CutWrite%d", n)
			if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none",
				"properties": []any{map[string]any{"name": "body", "dataType": []string{"text"}}}}, nil); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })

			proxy := newStallProxyAfter(t, node, "POST /v1/objects", int64(c.passed))
			store := mcptest.NewStore(t)
			conn, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "cut", Settings: proxy.settings(), ExternalAccess: connections.AccessReadWrite}, "")
			if err != nil {
				t.Fatal(err)
			}
			m := connections.NewManager(store, connections.ManagerOptions{Factory: c.factory, Log: log})
			t.Cleanup(m.Close)
			keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(t.TempDir(), "keyring")})
			if err != nil {
				t.Fatal(err)
			}
			p := &person{}
			p.will(approval.Approve)
			deps := Deps{Conns: Conns{Store: store, Open: m},
				Approver: approval.NewGate(approval.Options{Keys: keys, Dialog: p, Log: log}),
				Limits:   func() Limits { return limits }}
			tokens := auth.NewStore(t.TempDir(), keys)
			_, token, err := tokens.Create(ctx, auth.NewToken{Name: "writer", Level: auth.LevelReadWrite})
			if err != nil {
				t.Fatal(err)
			}
			srv := mcptest.Start(t, mcp.Options{Tools: All(deps), Logger: log,
				Authenticator: auth.NewService(auth.Options{Store: tokens, Log: log})})

			ids := make([]string, rows)
			in := make([]any, rows)
			for i := range ids {
				ids[i] = fmt.Sprintf("c0ffee00-0000-4000-8000-%012d", i)
				in[i] = map[string]any{"key": map[string]any{"uuid": ids[i]}, "values": map[string]any{"body": fmt.Sprintf("row %d", i)}}
			}
			type answer struct {
				r   mcptest.Reply
				err error
			}
			done := make(chan answer, 1)
			go func() {
				r, _, err := callToolAs(srv.URL, token, NameInsertRows, map[string]any{"connection": conn.Name, "table": class, "rows": in}, time.Minute)
				done <- answer{r, err}
			}()
			select {
			case <-proxy.arrived:
			case a := <-done:
				t.Fatalf("insert_rows ended before row request %d: %+v %v", c.passed+1, a.r, a.err)
			case <-time.After(time.Minute):
				t.Fatalf("row request %d never reached the proxy", c.passed+1)
			}
			c.cut(t)
			var a answer
			select {
			case a = <-done:
			case <-time.After(time.Minute):
				t.Fatal("insert_rows did not end within a minute of the cut")
			}
			if a.err != nil {
				t.Fatal(a.err)
			}

			// The outcome of every row, from the tool result or the -33003 error's data.
			var sc map[string]any
			if c.timeout {
				if a.r.Error == nil || a.r.Error.Code != mcp.CodeRequestTimeout || !strings.Contains(a.r.Error.Message, driver.MaybeWritten) {
					t.Fatalf("want -33003 saying some rows %s, got error %+v result %v", driver.MaybeWritten, a.r.Error, a.r.Result)
				}
				sc = a.r.Error.Data
			} else {
				if a.r.Error != nil {
					t.Fatalf("want a tool result with each row's outcome, got error %+v", a.r.Error)
				}
				sc, _ = a.r.Result["structuredContent"].(map[string]any)
			}
			outcomes, _ := sc["rows"].([]any)
			if len(outcomes) != rows {
				t.Fatalf("%d row outcomes for %d rows: %v", len(outcomes), rows, sc)
			}
			onServer := objectIDs(t, node, class)

			t.Run("every row reported written is on the server", func(t *testing.T) {
				for _, o := range outcomes {
					r := o.(map[string]any)
					if r["status"] == string(driver.RowOK) && !onServer[outcomeUUID(r)] {
						t.Errorf("row %v is reported ok and is not on the server", r["index"])
					}
				}
			})
			t.Run("every row on the server is reported written or as one that may or may not be", func(t *testing.T) {
				for _, o := range outcomes {
					r := o.(map[string]any)
					msg, _ := r["message"].(string)
					if onServer[outcomeUUID(r)] && r["status"] != string(driver.RowOK) && !strings.Contains(msg, driver.MaybeWritten) {
						t.Errorf("row %v is on the server and reported %v %q", r["index"], r["status"], msg)
					}
				}
			})
			t.Run("the held row, sent and never answered, may or may not be written", func(t *testing.T) {
				r := outcomes[c.passed].(map[string]any)
				if msg, _ := r["message"].(string); r["status"] != string(driver.RowFailed) || !strings.Contains(msg, driver.MaybeWritten) {
					t.Fatalf("row %d: %v", c.passed, r)
				}
			})
			t.Run("the whole batches before the cut one are written and reported ok", func(t *testing.T) {
				for i := range c.passed / rowBatch * rowBatch {
					r := outcomes[i].(map[string]any)
					if r["status"] != string(driver.RowOK) || !onServer[ids[i]] {
						t.Fatalf("row %d: %v (on the server: %v)", i, r, onServer[ids[i]])
					}
				}
			})
			t.Run("the batches after the cut one were not run and say so", func(t *testing.T) {
				for i := (c.passed/rowBatch + 1) * rowBatch; i < rows; i++ {
					r := outcomes[i].(map[string]any)
					if msg, _ := r["message"].(string); r["status"] != string(driver.RowFailed) || !strings.HasPrefix(msg, "not run: ") || onServer[ids[i]] {
						t.Fatalf("row %d: %v (on the server: %v)", i, r, onServer[ids[i]])
					}
				}
			})
		})
	}
}

// objectIDs is the set of uuids the server holds in class, read through its REST API.
func objectIDs(t *testing.T, node *weaviatenode.Node, class string) map[string]bool {
	t.Helper()
	var page struct {
		Objects []struct {
			ID string `json:"id"`
		} `json:"objects"`
	}
	if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/objects?class="+class+"&limit=1000", nil, &page); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, o := range page.Objects {
		out[o.ID] = true
	}
	return out
}

// outcomeUUID is the Weaviate uuid of a row outcome's key ("" when it has none).
func outcomeUUID(r map[string]any) string {
	k, _ := r["key"].(map[string]any)
	id, _ := k["uuid"].(string)
	return id
}
