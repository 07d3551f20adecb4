package transfer_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/backend/plugins/grpcdriver"
	"app/backend/transfer"
	"app/internal/testkit/plugintest"
	"app/internal/testkit/sqlitecli"
)

// Issue 39, item 4: a SQLite table, vectors included, goes out to each format through the
// plugin and comes back in with create into a new table of the same file: sqlite3 reads the
// same rows, each vector's float32 blob byte for byte.
func TestASQLiteTableGoesOutAndBackInWithCreate(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "out.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT, score REAL, n INTEGER, vector float[3]);
INSERT INTO docs VALUES (1, 'one', 1.5, 10, vec_f32('[0.1,0.2,0.3]')), (2, 'two, with a comma', NULL, 20, vec_f32('[1,-2,3e-7]')), (3, NULL, -0.25, NULL, NULL)`); err != nil {
		t.Fatal(err)
	}
	s := driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write"}}
	d, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
		Info: grpcdriver.Info{Name: "sqlite", Version: "test", Types: []string{sqlite.Type}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return sqlite.New(s, sqlite.WithLogger(log))
		},
		Classify: sqlite.Classify,
	}, s)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	rows := func(table string) string {
		out, err := sqlitecli.Run(ctx, path, "SELECT id || '|' || coalesce(title, 'NULL') || '|' || coalesce(score, 'NULL') || '|' || coalesce(n, 'NULL') || '|' || coalesce(hex(vector), 'NULL') FROM "+table+" ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := rows("docs")
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "docs."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "docs", Vectors: true, Path: file}, nil); err != nil {
				t.Fatal(err)
			}
			table := "docs_" + string(f)
			sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: table, Path: file, Create: true, Map: map[string]string{"id": "id"}}, nil)
			if err != nil || sum.Written != 3 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			if got := rows(table); got != want {
				t.Fatalf("the made table holds\n%s\nsqlite3 reads the table's\n%s", got, want)
			}
		})
	}
}
