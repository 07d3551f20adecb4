// Package e2e runs the real UI against the real Go backend: `wails dev` on a private Xvfb
// display serves the frontend with working bindings, and headless Chromium, driven by the
// Playwright Test runner (the *.spec.mjs files, one per area), checks what a user sees,
// against real weaviate-server nodes loaded with the demo data, PostgreSQL and SQLite.
// Slow (wails dev compiles the app): a few minutes. Its prerequisites (Xvfb, Chromium,
// Node, the Wails CLI, the npm packages of tests/e2e and frontend, weaviate-server) come from
// scripts/setup.sh test; without them it skips in a plain `go test` and fails under `make
// test` (app/internal/testkit/testenv).
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/sqlitecli"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
	"app/tests/e2e/e2eharness"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// requireE2E ends the test, naming everything missing in one line, when a prerequisite is
// missing: a skip in a plain `go test`, a failure under `make test` (app/internal/testkit/testenv).
// scripts/setup.sh test installs them all. It returns the Wails CLI and the Chromium binary.
func requireE2E(t *testing.T, root string) (wails, chromium string) {
	t.Helper()
	wails, chromium, missing := e2eharness.Prerequisites(root)
	testenv.Require(t, missing...)
	return wails, chromium
}

func freePort(t *testing.T) int {
	t.Helper()
	p, err := e2eharness.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUIAgainstTheRealBackend(t *testing.T) {
	root := harness.RepoRoot(t)
	wails, chromium := requireE2E(t, root)
	art := harness.ArtifactDir(t)

	// A plain binary for the CLI commands (no window, so no GTK needed).
	cli := filepath.Join(t.TempDir(), "app")
	if err := e2eharness.BuildCLI(root, cli); err != nil {
		t.Fatal(err)
	}
	// A real node with the demo data of `make run` (Article, Author), and a saved
	// connection to it.
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	loadCtx, loadCancel := context.WithTimeout(context.Background(), time.Minute)
	if _, err := fixtures.LoadDemo(loadCtx, node); err != nil {
		t.Fatalf("load the demo data: %v", err)
	}
	loadCancel()
	// A node that requires an API key, for the form's Test (Authentication failed:).
	keyNode := weaviatetest.Start(t, weaviatenode.APIKey)
	// A node with GraphQL off (as new Weaviate Cloud clusters are) holding the same demo data:
	// the UI reads it over gRPC (issue 19).
	offNode := weaviatetest.Start(t, weaviatenode.NoGraphQL)
	offCtx, offCancel := context.WithTimeout(context.Background(), time.Minute)
	if _, err := fixtures.LoadDemo(offCtx, offNode); err != nil {
		t.Fatalf("load the demo data on the GraphQL-off node: %v", err)
	}
	// And the multi-tenant collections (issue 23): Shop's three tenants, Crowd's 50,000.
	if err := fixtures.LoadTenants(offCtx, offNode); err != nil {
		t.Fatalf("load the tenants on the GraphQL-off node: %v", err)
	}
	// And the showcase's Paper (issue 22: the map of 3,000 papers in 8 topic clusters).
	if _, err := fixtures.LoadShowcase(offCtx, offNode); err != nil {
		t.Fatalf("load the showcase on the GraphQL-off node: %v", err)
	}
	offCancel()
	// Issue 40: an RBAC node with backups and, on 1.38+, a namespaced node (14-weaviate-today).
	today := todayEnv(t, node)
	shop, vectors := startPostgres(t)
	sqliteFile := makeSQLiteFile(t)
	configDir := t.TempDir()
	if err := e2eharness.AddConnection(cli, configDir, "Demo Weaviate", node.Host, node.Port, node.GRPCPort); err != nil {
		t.Fatal(err)
	}

	// The Weaviate driver is a plugin: the app installs it from this registry (served over
	// loopback HTTP) when the UI opens the saved connection (SPEC A.3).
	pubCtx, pubCancel := context.WithTimeout(context.Background(), 3*time.Minute)
	reg, stopReg, err := e2eharness.ServeRegistry(pubCtx, t.TempDir(), pluginpub.Postgres, pluginpub.SQLite)
	pubCancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopReg)

	d := harness.StartXvfb(t, 1440, 900)
	// Building the dev app and the whole UI run share it: generous for a loaded 2-core runner
	// (about 2.5 minutes there; the suite allows 30).
	ctx, cancel := context.WithTimeout(context.Background(), 16*time.Minute)
	defer cancel()
	dev, err := e2eharness.StartDev(ctx, e2eharness.DevOptions{Root: root, Wails: wails, Display: d, ConfigDir: configDir,
		Env: reg.Env(), LogPath: filepath.Join(art, "wails-dev.log")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dev.Stop)
	devURL := dev.URL
	logTail := dev.LogTail

	// The specs all run on this one dev app, against these servers, with one environment.
	env := []string{"APP_E2E_URL=" + devURL, "APP_E2E_CLI=" + cli, "APP_E2E_CONFIG_DIR=" + configDir,
		"APP_E2E_DISPLAY=" + d.Name, "APP_E2E_ARTIFACTS=" + art, "CHROMIUM=" + chromium,
		fmt.Sprintf("APP_E2E_DEMO_ADDR=%s:%d", node.Host, node.Port), "APP_E2E_UNREACHABLE_PORT=" + fmt.Sprint(freePort(t)),
		fmt.Sprintf("APP_E2E_APIKEY_ADDR=%s:%d", keyNode.Host, keyNode.Port),
		fmt.Sprintf("APP_E2E_NOGRAPHQL_ADDR=%s:%d", offNode.Host, offNode.Port), fmt.Sprintf("APP_E2E_NOGRAPHQL_GRPC_PORT=%d", offNode.GRPCPort),
		// Issue 38: the same window on PostgreSQL connections, through the plugin alone.
		postgresEnv("SHOP", shop), postgresEnv("VECTORS", vectors),
		"PGPASSWORD_SHOP=" + shop.Password, "PGPASSWORD_VECTORS=" + vectors.Password, "APP_E2E_PSQL=" + shop.PsqlPath(),
		// Issue 39: the same window on a SQLite file, through the plugin alone.
		"APP_E2E_SQLITE_FILE=" + sqliteFile, "APP_E2E_SQLITE_VEC=" + sqlitecli.Extension(),
	}
	env = append(env, today...)
	if hold := os.Getenv("APP_E2E_HOLD"); hold != "" {
		holdServers(t, hold, env)
		return
	}
	// APP_E2E_ONLY=grid (a part of a spec's file name; several separated by spaces) runs those
	// specs alone: the inner loop of whoever works on one. make test runs them all.
	runSpecs(ctx, t, root, strings.Fields(os.Getenv("APP_E2E_ONLY")), logTail, env)
	t.Logf("screenshots in %s", art)
}

// makeSQLiteFile makes the file of the SQLite checks (21-sqlite.spec.mjs) with sqlite3 and
// sqlite-vec's extension: a shop's 40 items, 300 documents with a float[768] column in three
// topics (as the PostgreSQL checks' docs), and a small vec0 table.
func makeSQLiteFile(t *testing.T) string {
	t.Helper()
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "shop.db")
	var sql strings.Builder
	sql.WriteString(`CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, price REAL);
WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 40) INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM r;
CREATE TABLE docs (id INTEGER PRIMARY KEY, topic TEXT NOT NULL, emb float[768]);
CREATE VIRTUAL TABLE vecs USING vec0(e float[3], +label text);
INSERT INTO vecs(rowid, e, label) VALUES (1, '[1,0,0]', 'x'), (2, '[0,1,0]', 'y');
`)
	for i := 1; i <= 300; i++ {
		nums := make([]string, 768)
		for j := 1; j <= 768; j++ {
			v := 0.05 * math.Sin(float64(i*j))
			if j%3 == i%3 {
				v += 1
			}
			nums[j-1] = strconv.FormatFloat(float64(float32(v)), 'g', -1, 32)
		}
		fmt.Fprintf(&sql, "INSERT INTO docs VALUES (%d, 'topic %d', vec_f32('[%s]'));\n", i, i%3, strings.Join(nums, ","))
	}
	if _, err := sqlitecli.Run(ctx, path, sql.String()); err != nil {
		t.Fatal(err)
	}
	return path
}

// specLine is one line of reporter.mjs: a test's result, or an error of the whole run.
type specLine struct {
	Check    string `json:"check"`
	OK       bool   `json:"ok"`
	Error    string `json:"error"`
	Spec     string `json:"spec"`
	RunError string `json:"runError"`
}

// group names the subtest the checks of a spec go under: the PostgreSQL and SQLite specs'
// under PostgreSQL/ and SQLite/, as when they were scripts of their own; the others' at the
// top.
func group(spec string) string {
	switch {
	case strings.Contains(spec, "postgres"):
		return "PostgreSQL"
	case strings.Contains(spec, "sqlite"):
		return "SQLite"
	}
	return ""
}

// runSpecs runs the Playwright specs (all, or those matching the filters) with env, and makes
// each test a subtest, as reporter.mjs reports it.
func runSpecs(ctx context.Context, t *testing.T, root string, filters []string, logTail func() string, env []string) {
	t.Helper()
	run := exec.CommandContext(ctx, "node", append([]string{filepath.Join("node_modules", "@playwright", "test", "cli.js"), "test"}, specFilters(filters)...)...)
	run.Dir = filepath.Join(root, "tests", "e2e")
	run.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	start := time.Now()
	out, runErr := run.Output()
	what := "(all specs)"
	if len(filters) > 0 {
		what = strings.Join(filters, " ")
	}
	t.Logf("playwright test %s: %s (%v)", what, time.Since(start).Round(time.Second), runErr)
	var checks []specLine
	var runErrors []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var l specLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch {
		case l.Check != "":
			checks = append(checks, l)
		case l.RunError != "":
			runErrors = append(runErrors, l.RunError)
		}
	}
	if len(checks) == 0 {
		t.Fatalf("playwright test %s reported no checks (%v)\nstdout: %s\nstderr: %s\nwails dev log:\n%s", what, runErr, out, stderr.String(), logTail())
	}
	for _, e := range runErrors {
		t.Errorf("playwright test: %s", e)
	}
	for _, g := range []string{"", "PostgreSQL", "SQLite"} {
		var mine []specLine
		for _, c := range checks {
			if group(c.Spec) == g {
				mine = append(mine, c)
			}
		}
		subtests := func(t *testing.T) {
			for _, c := range mine {
				t.Run(c.Check, func(t *testing.T) {
					if !c.OK {
						t.Fatalf("%s (%s)", c.Error, c.Spec)
					}
				})
			}
		}
		switch {
		case len(mine) == 0:
		case g == "":
			subtests(t)
		default:
			t.Run(g, subtests)
		}
	}
	switch {
	case t.Failed():
		t.Logf("playwright test's stderr (the last 8 KB):\n%s", tail(stderr.String(), 8<<10))
	case runErr != nil:
		t.Fatalf("playwright test: %v\nstderr: %s", runErr, stderr.String())
	default:
		// What the tests print (not the runner's progress lines) is worth keeping: a measure or two.
		for _, l := range strings.Split(stderr.String(), "\n") {
			if l != "" && !strings.HasPrefix(l, "ok   ") {
				t.Log(l)
			}
		}
	}
}

// holdServers writes env to the file path as shell exports and keeps the servers and the dev
// app running until that file is removed: APP_E2E_HOLD=FILE, for running `npx playwright test`
// by hand on them again and again (README.md).
func holdServers(t *testing.T, path string, env []string) {
	var b strings.Builder
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("the servers and the dev app run until %s is removed: . %s; cd tests/e2e; npx playwright test [spec]", path, path)
	for {
		if _, err := os.Stat(path); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// specFilters turns the words of APP_E2E_ONLY into `playwright test`'s file filters: a word
// of letters, digits, "-", "_" and "." selects the specs whose file name holds it (grid:
// 03-grid.spec.mjs; playwright's own filter is a regular expression on the whole path);
// ui.mjs, postgres.mjs and sqlite.mjs select what those scripts checked before the specs (ui:
// the specs numbered below 20, on the Weaviate nodes); anything else is passed on as it is.
func specFilters(words []string) []string {
	plainWord := regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	var out []string
	for _, w := range words {
		switch name := strings.TrimSuffix(w, ".mjs"); {
		case name == "ui":
			out = append(out, `/\/[01][0-9]-[^/]*\.spec\.mjs$/`)
		case plainWord.MatchString(name):
			out = append(out, `/\/[^/]*`+regexp.QuoteMeta(name)+`[^/]*$/i`)
		default:
			out = append(out, w)
		}
	}
	return out
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// startPostgres starts the PostgreSQL servers of the PostgreSQL checks (20-postgres.spec.mjs): a
// PostgreSQL 15 cluster holding a shop's items and a view of them, and PGlite (PostgreSQL 18
// with pgvector) holding 300 documents with a vector(768) column in three topics.
func startPostgres(t *testing.T) (shop, vectors *pgnode.Node) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	shop, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(shop.Stop)
	if _, err := shop.Psql(ctx, "", `CREATE TABLE public.items (id bigint PRIMARY KEY, title text NOT NULL, price numeric(10,2), tags text[], seen timestamptz);
INSERT INTO public.items SELECT i, 'item ' || i, i * 1.5, ARRAY['t' || (i % 3)], '2026-01-01T00:00:00Z'::timestamptz + i * interval '1 hour' FROM generate_series(1, 40) i;
CREATE VIEW public.cheap AS SELECT id, title, price FROM public.items WHERE price < 10;
ANALYZE public.items`); err != nil {
		t.Fatal(err)
	}
	vectors, err = pgnode.StartPGlite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vectors.Stop)
	if _, err := vectors.Psql(ctx, "", `CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE public.docs (id int PRIMARY KEY, topic text NOT NULL, emb vector(768));
INSERT INTO public.docs SELECT i, 'topic ' || (i % 3),
  (SELECT array_agg((CASE WHEN j % 3 = i % 3 THEN 1.0 ELSE 0.0 END + sin(i * j) * 0.05)::real ORDER BY j) FROM generate_series(1, 768) j)::vector
FROM generate_series(1, 300) i`); err != nil {
		t.Fatal(err)
	}
	return shop, vectors
}

// postgresEnv passes a node to 20-postgres.spec.mjs as APP_E2E_PG_<NAME>=user@host:port/database.
func postgresEnv(name string, n *pgnode.Node) string {
	return fmt.Sprintf("APP_E2E_PG_%s=%s@%s:%d/%s", name, n.User, n.Host, n.Port, n.Database)
}
