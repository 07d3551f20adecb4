package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/drivertest"
	"app/backend/driver/sqlite"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/plugintest"
	"app/internal/testkit/sqlitecli"
)

// harness is the contract's conformance suite on a real SQLite file, made and read back with
// Debian's sqlite3 program (sqlitecli), the driver in the process or across the plugin
// protocol.
type harness struct {
	path     string
	boundary bool
	n        atomic.Int64
}

// newHarness makes the file, with a vec0 table in it besides the suite's tables (the issue's
// "one with sqlite-vec's vec0 tables").
func newHarness(t *testing.T, boundary bool) *harness {
	t.Helper()
	h := &harness{path: filepath.Join(t.TempDir(), "conform.db"), boundary: boundary}
	if _, err := sqlitecli.Run(context.Background(), h.path, "CREATE VIRTUAL TABLE embeddings USING vec0(e float[4]); INSERT INTO embeddings(rowid, e) VALUES (1, '[1,2,3,4]')"); err != nil {
		t.Fatal(err)
	}
	return h
}

// settings are a read-write connection to path, made when missing.
func settings(path string) driver.Settings {
	return driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write", sqlite.KeyCreate: "true"}}
}

// open opens the driver on s, in the process or across the plugin protocol.
func open(ctx context.Context, t *testing.T, s driver.Settings, boundary bool) driver.Driver {
	t.Helper()
	var d driver.Driver
	if boundary {
		k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
			Info: grpcdriver.Info{Name: "sqlite", Version: "test", Types: []string{sqlite.Type}},
			Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
				return sqlite.New(s, sqlite.WithLogger(log))
			},
			Classify: sqlite.Classify,
		}, s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		d = k
	} else {
		sd, err := sqlite.New(s)
		if err != nil {
			t.Fatal(err)
		}
		d = sd
	}
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func (h *harness) Open(ctx context.Context, t *testing.T) driver.Driver {
	return open(ctx, t, settings(h.path), h.boundary)
}

func (h *harness) Table(name string) string { return fmt.Sprintf("%s_%d", name, h.n.Add(1)) }

func (h *harness) Kinds() []driver.ColumnKind {
	return []driver.ColumnKind{driver.ColumnText, driver.ColumnInteger, driver.ColumnNumber, driver.ColumnBoolean}
}

func (h *harness) Credentialless() {}

var sqlTypes = map[driver.ColumnKind]string{driver.ColumnText: "TEXT", driver.ColumnInteger: "INTEGER", driver.ColumnNumber: "REAL", driver.ColumnBoolean: "BOOLEAN"}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "1"
		}
		return "0"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	}
	return fmt.Sprint(v)
}

func (h *harness) Seed(ctx context.Context, t *testing.T, table string, cols []driver.ColumnSpec, rows []map[string]any) {
	t.Helper()
	defs := []string{"id INTEGER PRIMARY KEY"}
	names := make([]string, len(cols))
	for i, c := range cols {
		defs = append(defs, `"`+c.Name+`" `+sqlTypes[c.Kind])
		names[i] = `"` + c.Name + `"`
	}
	var values []string
	for _, r := range rows {
		vals := make([]string, len(cols))
		for i, c := range cols {
			vals[i] = literal(r[c.Name])
		}
		values = append(values, "("+strings.Join(vals, ", ")+")")
	}
	sql := fmt.Sprintf(`CREATE TABLE "%s" (%s); INSERT INTO "%s" (%s) VALUES %s`, table, strings.Join(defs, ", "), table, strings.Join(names, ", "), strings.Join(values, ", "))
	if _, err := sqlitecli.Run(ctx, h.path, sql); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
}

// SeedVectors makes a table of float[3] columns holding sqlite-vec's float32 blobs, with
// sqlite3 and its vec_f32.
func (h *harness) SeedVectors(ctx context.Context, t *testing.T, table string, names []string, rows []drivertest.VectorRow) bool {
	t.Helper()
	defs := []string{"id INTEGER PRIMARY KEY", "word TEXT"}
	cols := []string{"word"}
	for _, n := range names {
		defs = append(defs, `"`+n+`" float[3]`)
		cols = append(cols, `"`+n+`"`)
	}
	var values []string
	for _, r := range rows {
		vals := []string{literal(r.Word)}
		for _, n := range names {
			nums := make([]string, len(r.Vectors[n]))
			for i, f := range r.Vectors[n] {
				nums[i] = strconv.FormatFloat(float64(f), 'f', -1, 32)
			}
			vals = append(vals, "vec_f32('["+strings.Join(nums, ",")+"]')")
		}
		values = append(values, "("+strings.Join(vals, ", ")+")")
	}
	sql := fmt.Sprintf(`CREATE TABLE "%s" (%s); INSERT INTO "%s" (%s) VALUES %s`, table, strings.Join(defs, ", "), table, strings.Join(cols, ", "), strings.Join(values, ", "))
	if _, err := sqlitecli.Run(ctx, h.path, sql); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	return true
}

func (h *harness) Drop(ctx context.Context, t *testing.T, table string) {
	if _, err := sqlitecli.Run(ctx, h.path, `DROP TABLE IF EXISTS "`+table+`"`); err != nil {
		t.Log(err)
	}
}

func (h *harness) Statements(table string) (reads, writes []string) {
	q := `"` + table + `"`
	return []string{
			"SELECT word, n FROM " + q + " WHERE n > 2 ORDER BY n",
			"WITH t AS (SELECT count(*) AS c FROM " + q + ") SELECT c FROM t",
			"SELECT 'DELETE FROM x' AS s, \"DROP TABLE y\" -- INSERT INTO z",
			"EXPLAIN QUERY PLAN SELECT * FROM " + q,
			"PRAGMA table_info(" + q + ")",
		}, []string{
			"DELETE FROM " + q + " WHERE n = 1",
			"INSERT INTO " + q + " (word) VALUES ('x') RETURNING *",
			"REPLACE INTO " + q + " (id, word) VALUES (1, 'x')",
			"PRAGMA user_version = 7",
			"ATTACH DATABASE 'other.db' AS other",
			"VACUUM INTO 'copy.db'",
			"SELECT 1; DROP TABLE " + q,
			"CREATE TEMP TRIGGER tr AFTER INSERT ON " + q + " BEGIN SELECT 1; END",
			"WITH d AS (SELECT 1) DELETE FROM " + q,
		}
}

func (h *harness) WrongSecret(context.Context, *testing.T) (driver.Driver, string) { return nil, "" }

// Big is a table of a few thousand rows keyed by its rowid: SQLite has no paging limit.
func (h *harness) Big(ctx context.Context, t *testing.T) (string, int) {
	name := h.Table("big")
	if _, err := sqlitecli.Run(ctx, h.path, `CREATE TABLE "`+name+`" AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 3000) SELECT i AS n, 'row ' || i AS word FROM r`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, name) })
	return name, 3000
}

// The contract's conformance suite passes on a SQLite file, in the process and across the
// plugin protocol.
func TestConformance(t *testing.T) {
	sqlitecli.Require(t)
	for _, boundary := range []bool{false, true} {
		name := "in process"
		if boundary {
			name = "across the plugin protocol"
		}
		t.Run(name, func(t *testing.T) { drivertest.Run(t, newHarness(t, boundary)) })
	}
}
