package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"app/internal/testkit/pgnode"
	"app/internal/testkit/sqlitecli"
	"app/internal/testkit/weaviatenode"
)

// database is one of the soak's databases as its clients use it: the saved connection, the
// table they read and write, each statement in the database's own language, and how its
// markers are read back with the database's own tools (never through the app).
type database struct {
	// kind names it in the report ("weaviate", "postgres", "sqlite").
	kind       string
	connection string
	table      string
	// reads are the two execute_query reads, each with its name in the report.
	reads [2]struct{ name, query string }
	// insert is the execute_query statement that writes marker.
	insert func(marker string) string
	// slow is a read that takes a while, for a cancel or a drop to interrupt.
	slow string
	// out is its restart as the clients lived it; it never halts for a database not restarted.
	out *outage
	// markers counts this run's markers in the table, read back with the database's own tool.
	markers func(ctx context.Context, runID string) (map[string]int, error)
}

// label is an operation's name in the report, with the database it ran on.
func (d *database) label(op string) string {
	switch op {
	case opQueryA:
		op = d.reads[0].name
	case opQueryB:
		op = d.reads[1].name
	}
	return d.kind + " · " + op
}

// weaviateDB is the Notes collection on node, read back over Weaviate's REST API.
func weaviateDB(node **weaviatenode.Node) *database {
	d := &database{kind: "weaviate", connection: connectionName, table: table, out: newOutage(),
		slow: fmt.Sprintf("{ Get { %s(limit: 1000) { body } } }", table),
		insert: func(marker string) string {
			return fmt.Sprintf(`POST /v1/objects {"class":%q,"properties":{"body":%q}}`, table, marker)
		},
		markers: func(ctx context.Context, runID string) (map[string]int, error) {
			return serverMarkers(ctx, *node, runID)
		},
	}
	d.reads[0].name, d.reads[0].query = "execute_query read (GraphQL)", fmt.Sprintf("{ Get { %s(limit: 10) { body } } }", table)
	d.reads[1].name, d.reads[1].query = "execute_query read (REST)", fmt.Sprintf("GET /v1/objects?class=%s&limit=10", table)
	return d
}

// sqlTable is the table both SQL databases hold: a key the database makes and the marker.
const sqlTable = "soak_notes"

// sqlDB is what the two SQL databases share: the same statements in standard SQL.
func sqlDB(kind, connection string, markers func(ctx context.Context, sql string) (string, error)) *database {
	d := &database{kind: kind, connection: connection, table: sqlTable, out: newOutage(),
		// 100 seeded rows, each read ten times over.
		slow: fmt.Sprintf("SELECT n.body, g.i FROM %s n CROSS JOIN (SELECT 1 AS i UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10) g ORDER BY n.id LIMIT 1000", sqlTable),
		insert: func(marker string) string {
			return fmt.Sprintf("INSERT INTO %s (body) VALUES ('%s')", sqlTable, marker)
		},
	}
	d.reads[0].name, d.reads[0].query = "execute_query read (SELECT)", fmt.Sprintf("SELECT id, body FROM %s ORDER BY id DESC LIMIT 10", sqlTable)
	d.reads[1].name, d.reads[1].query = "execute_query read (aggregate)", fmt.Sprintf("SELECT count(*), max(id) FROM %s", sqlTable)
	d.markers = func(ctx context.Context, runID string) (map[string]int, error) {
		// Markers are [a-z0-9-] only, so the pattern needs no escaping.
		out, err := markers(ctx, fmt.Sprintf("SELECT body FROM %s WHERE body LIKE 'soak-%s-%%'", sqlTable, runID))
		if err != nil {
			return nil, fmt.Errorf("read back %s from %s: %w", sqlTable, kind, err)
		}
		found := map[string]int{}
		for _, line := range strings.Split(out, "\n") {
			if line != "" {
				found[line]++
			}
		}
		return found, nil
	}
	return d
}

// seedSQL makes the SQL databases' table with 100 rows (the slow read's), in each one's words.
func seedSQL(key string) string {
	return fmt.Sprintf("CREATE TABLE %s (id %s, body text NOT NULL); INSERT INTO %s (body) SELECT 'seed-' || x FROM (%s) s",
		sqlTable, key, sqlTable, hundred)
}

// hundred is 1 to 100 in SQL both databases read.
const hundred = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT x FROM c"

// startPostgres starts a PostgreSQL cluster (Debian's, as make test's) with the table.
func startPostgres(ctx context.Context) (*pgnode.Node, error) {
	n, err := pgnode.Start(ctx)
	if err != nil {
		return nil, fmt.Errorf("start PostgreSQL: %w", err)
	}
	if _, err := n.Psql(ctx, "", seedSQL("bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")); err != nil {
		n.Stop()
		return nil, err
	}
	return n, nil
}

// postgresDB is the table on n, read back with psql.
func postgresDB(n *pgnode.Node) *database {
	return sqlDB("postgres", connectionName+"-pg", func(ctx context.Context, sql string) (string, error) { return n.Psql(ctx, "", sql) })
}

// makeSQLite makes the SQLite file in dir with the table, with Debian's sqlite3.
func makeSQLite(ctx context.Context, dir string) (string, error) {
	if err := sqlitecli.Check(); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "soak.db")
	if _, err := sqlitecli.Run(ctx, path, "PRAGMA journal_mode = WAL; "+seedSQL("INTEGER PRIMARY KEY")); err != nil {
		return "", err
	}
	return path, nil
}

// sqliteDB is the table in the file at path, read back with sqlite3.
func sqliteDB(path string) *database {
	return sqlDB("sqlite", connectionName+"-sqlite", func(ctx context.Context, sql string) (string, error) { return sqlitecli.Run(ctx, path, sql) })
}

// addSQLConnections saves the connections to the PostgreSQL cluster (its password through
// the environment into the keyring) and to the SQLite file.
func addSQLConnections(ctx context.Context, a appCLI, pg *pgnode.Node, sqlitePath string) error {
	if _, err := a.run(ctx, []string{"SOAK_PG_PASSWORD=" + pg.Password}, "connection", "add", "--name", connectionName+"-pg", "--type", "postgres",
		"--set", "host="+pg.Host, "--set", "port="+strconv.Itoa(pg.Port), "--set", "database="+pg.Database, "--set", "user="+pg.User,
		"--set", "sslmode=disable", "--secret-env", "password=SOAK_PG_PASSWORD"); err != nil {
		return err
	}
	if _, err := os.Stat(sqlitePath); err != nil {
		return err
	}
	_, err := a.run(ctx, nil, "connection", "add", "--name", connectionName+"-sqlite", "--type", "sqlite", "--set", "path="+sqlitePath)
	return err
}
