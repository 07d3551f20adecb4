package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/plugintest"
	"app/internal/testkit/sqlitecli"
)

// The schema tools answer from a read at most SchemaMaxAge old, kept at the host's end of the
// plugin (docs/mcp.md, "Schema reads"): a table the model makes through App is listed at
// once, whatever age the tools accept; one another program makes is listed once the kept read
// is older than that. The connection crosses the real plugin boundary, as in the app, onto a
// real SQLite file that the sqlite3 program changes.
func TestSchemaToolsSeeAppsOwnChangesAtOnceAndOthersWithinTheirAge(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "shop.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT)`); err != nil {
		t.Fatal(err)
	}
	factory := func(ctx context.Context, c connections.Connection) (driver.Driver, error) {
		d, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
			Info:     grpcdriver.Info{Name: "sqlite", Version: "test", Types: []string{sqlite.Type}},
			Open:     func(s driver.Settings, _ logrus.FieldLogger) (driver.Driver, error) { return sqlite.New(s) },
			Classify: sqlite.Classify,
		}, c.Settings)
		if err != nil {
			return nil, err
		}
		t.Cleanup(stop)
		return d, nil
	}
	conn := connections.Connection{Type: sqlite.Type, Name: "shop", ExternalAccess: connections.AccessReadWrite,
		Settings: driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write"}}}

	for _, age := range []time.Duration{time.Hour, 300 * time.Millisecond} {
		t.Run(fmt.Sprintf("tools accepting %v", age), func(t *testing.T) {
			r := newRig(t, rigOptions{schemaMaxAge: age}, conn, factory)
			call := func(level, tool string, args map[string]any) string {
				t.Helper()
				args["connection"] = "shop"
				rep := r.call(t, ctx, flowCall{level: level, tool: tool, args: args})
				if rep.code != 0 || rep.result["isError"] != false {
					t.Fatalf("%s: %d %q %v", tool, rep.code, rep.message, rep.result)
				}
				return rep.text()
			}
			listed := func(table string) bool {
				return strings.Contains(call(auth.LevelReadOnly, NameListTables, map[string]any{})+"\n", "\n"+table+"\n")
			}
			suffix := strings.ReplaceAll(age.String(), ".", "_")
			outside, made := "outside_"+suffix, "made_"+suffix

			if !listed("items") {
				t.Fatal("items not listed")
			}
			if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE "+outside+" (x INTEGER)"); err != nil {
				t.Fatal(err)
			}
			if age == time.Hour {
				// The read is kept: another program's table is not listed yet.
				if listed(outside) {
					t.Fatalf("%s listed at once: the schema read was not kept", outside)
				}
			} else {
				// Once the kept read is older than the tools accept, the table is listed.
				time.Sleep(age + 50*time.Millisecond)
				if !listed(outside) {
					t.Fatalf("%s not listed %v after it was made", outside, age)
				}
			}
			r.person.will(approval.Approve)
			call(auth.LevelReadWrite, NameExecuteQuery, map[string]any{"query": "CREATE TABLE " + made + " (y TEXT)"})
			if out, err := sqlitecli.Run(ctx, path, "SELECT count(*) FROM sqlite_schema WHERE name = '"+made+"'"); err != nil || strings.TrimSpace(out) != "1" {
				t.Fatalf("sqlite3: %q %v", out, err)
			}
			// App's own change dropped the kept read: both tables are listed now.
			if !listed(made) || !listed(outside) {
				t.Fatalf("after App's CREATE TABLE: %q", call(auth.LevelReadOnly, NameListTables, map[string]any{}))
			}
			if d := call(auth.LevelReadOnly, NameDescribeTable, map[string]any{"table": made}); !strings.Contains(d, "y") {
				t.Fatalf("describe_table %s: %s", made, d)
			}
		})
	}
}
