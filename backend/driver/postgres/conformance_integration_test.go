package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/drivertest"
	"app/backend/driver/postgres"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
	"app/internal/testkit/plugintest"
)

var node, lite *pgnode.Node

func TestMain(m *testing.M) {
	code := m.Run()
	node.Stop()
	lite.Stop()
	os.Exit(code)
}

// sharedPGlite is the package's PostgreSQL 18 with pgvector (PGlite's wire server), started
// on first use.
func sharedPGlite(t *testing.T) *pgnode.Node {
	t.Helper()
	if testing.Short() {
		t.Skip("starts PGlite's wire server: left to make test")
	}
	if lite == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		n, err := pgnode.StartPGlite(ctx)
		if err != nil {
			t.Fatal(err)
		}
		lite = n
	}
	return lite
}

// sharedNode is the package's one PostgreSQL server, started on first use.
func sharedNode(t *testing.T) *pgnode.Node {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	if node == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		n, err := pgnode.Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		node = n
	}
	return node
}

// Issue 38 on contract 3's suite: the PostgreSQL driver passes the conformance suite on a
// real PostgreSQL server, in the process and across the plugin protocol.
func TestPostgresPassesTheConformanceSuite(t *testing.T) {
	for _, server := range []struct {
		name string
		node func(*testing.T) *pgnode.Node
	}{{"PostgreSQL 15", sharedNode}, {"PostgreSQL 18 with pgvector (PGlite)", sharedPGlite}} {
		for _, boundary := range []bool{false, true} {
			name := server.name + "/in process"
			if boundary {
				name = server.name + "/across the plugin protocol"
			}
			t.Run(name, func(t *testing.T) {
				drivertest.Run(t, &harness{node: server.node(t), boundary: boundary, secrets: sharedNode(t)})
			})
		}
	}
}

// harness is drivertest's Harness over a PostgreSQL server: tables made and filled with psql.
type harness struct {
	node     *pgnode.Node
	boundary bool
	// secrets is the server that refuses a wrong password: node, or the cluster where node
	// takes any (PGlite has no authentication).
	secrets *pgnode.Node
}

var tableSeq atomic.Int64

func (h *harness) Table(name string) string {
	return fmt.Sprintf("%s%d_%d", strings.ToLower(name), time.Now().UnixNano()%1_000_000, tableSeq.Add(1))
}

func (h *harness) Open(ctx context.Context, t *testing.T) driver.Driver {
	return h.open(ctx, t, pgtest.Settings(h.node), true)
}

func (h *harness) open(ctx context.Context, t *testing.T, s driver.Settings, connect bool) driver.Driver {
	t.Helper()
	var d driver.Driver
	if h.boundary {
		k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
			Info: grpcdriver.Info{Name: "postgres", Version: "conformance", Types: []string{postgres.Type}},
			Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
				return postgres.New(s, postgres.WithLogger(log))
			},
			Classify: postgres.Classify,
		}, s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		d = k
	} else {
		pd, err := postgres.New(s)
		if err != nil {
			t.Fatal(err)
		}
		d = pd
	}
	if connect {
		if err := d.Connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// sqlTypes are the types the harness makes the suite's kinds with.
var sqlTypes = map[driver.ColumnKind]string{driver.ColumnText: "text", driver.ColumnInteger: "bigint",
	driver.ColumnNumber: "double precision", driver.ColumnBoolean: "boolean", driver.ColumnDateTime: "timestamptz",
	driver.ColumnUUID: "uuid"}

func (h *harness) Seed(ctx context.Context, t *testing.T, table string, cols []driver.ColumnSpec, rows []map[string]any) {
	t.Helper()
	defs := []string{"id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"}
	names := make([]string, len(cols))
	for i, c := range cols {
		typ := sqlTypes[c.Kind]
		if c.Kind == driver.ColumnArray {
			typ = sqlTypes[c.Of] + "[]"
		}
		defs = append(defs, quoteIdent(c.Name)+" "+typ)
		names[i] = quoteIdent(c.Name)
	}
	var values []string
	for _, r := range rows {
		vals := make([]string, len(cols))
		for i, c := range cols {
			vals[i] = literal(r[c.Name])
		}
		values = append(values, "("+strings.Join(vals, ", ")+")")
	}
	sql := fmt.Sprintf("CREATE TABLE %s (%s); INSERT INTO %s (%s) VALUES %s", quoteIdent(table), strings.Join(defs, ", "),
		quoteIdent(table), strings.Join(names, ", "), strings.Join(values, ", "))
	if _, err := h.node.Psql(ctx, "", sql); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
}

// SeedVectors makes a table of pgvector columns with psql, where the server has pgvector.
func (h *harness) SeedVectors(ctx context.Context, t *testing.T, table string, names []string, rows []drivertest.VectorRow) bool {
	t.Helper()
	out, err := h.node.Psql(ctx, "", "SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != "1" {
		return false
	}
	defs := []string{"id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "word text"}
	cols := []string{"word"}
	for _, n := range names {
		defs = append(defs, quoteIdent(n)+" vector(3)")
		cols = append(cols, quoteIdent(n))
	}
	var values []string
	for _, r := range rows {
		vals := []string{literal(r.Word)}
		for _, n := range names {
			nums := make([]string, len(r.Vectors[n]))
			for i, f := range r.Vectors[n] {
				nums[i] = strconv.FormatFloat(float64(f), 'f', -1, 32)
			}
			vals = append(vals, "'["+strings.Join(nums, ",")+"]'")
		}
		values = append(values, "("+strings.Join(vals, ", ")+")")
	}
	sql := fmt.Sprintf("CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE %s (%s); INSERT INTO %s (%s) VALUES %s", quoteIdent(table),
		strings.Join(defs, ", "), quoteIdent(table), strings.Join(cols, ", "), strings.Join(values, ", "))
	if _, err := h.node.Psql(ctx, "", sql); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	return true
}

func (h *harness) Drop(ctx context.Context, t *testing.T, table string) {
	if _, err := h.node.Psql(ctx, "", "DROP TABLE IF EXISTS "+quoteIdent(table)); err != nil {
		t.Log(err)
	}
}

func (h *harness) Statements(table string) (reads, writes []string) {
	q := quoteIdent(table)
	return []string{
			"SELECT word, n FROM " + q + " WHERE n > 2 ORDER BY n",
			"WITH t AS (SELECT count(*) AS c FROM " + q + ") SELECT c FROM t",
			"SELECT 'DELETE FROM x' AS s, $$DROP TABLE y$$ AS d -- INSERT INTO z",
			"EXPLAIN SELECT * FROM " + q,
		}, []string{
			"DELETE FROM " + q + " WHERE n = 1",
			"WITH d AS (DELETE FROM " + q + " RETURNING *) SELECT * FROM d",
			"SELECT nextval('s')",
			"SELECT pg_terminate_backend(1)",
			"EXPLAIN ANALYZE DELETE FROM " + q,
			"SELECT * FROM " + q + " FOR UPDATE",
			"SELECT 1; DROP TABLE " + q,
		}
}

// Big is a table of a few thousand rows: PostgreSQL has no paging limit, so every row is
// reached by paging.
func (h *harness) Big(ctx context.Context, t *testing.T) (string, int) {
	name := h.Table("big")
	if _, err := h.node.Psql(ctx, "", "CREATE TABLE "+name+" AS SELECT i AS id, 'row ' || i AS word FROM generate_series(1, 3000) i; ALTER TABLE "+name+" ADD PRIMARY KEY (id)"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, name) })
	return name, 3000
}

func (h *harness) WrongSecret(ctx context.Context, t *testing.T) (driver.Driver, string) {
	const secret = "wrong-secret-0f9e8d7c6b5a"
	on := h.node
	if h.secrets != nil {
		on = h.secrets
	}
	s := pgtest.Settings(on)
	s.SetSecret(postgres.KeyPassword, secret)
	return h.open(ctx, t, s, false), secret
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// literal is a Go value as an SQL literal for psql.
func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = literal(e)
		}
		return "ARRAY[" + strings.Join(parts, ", ") + "]"
	}
	panic(fmt.Sprintf("no literal for %T", v))
}
