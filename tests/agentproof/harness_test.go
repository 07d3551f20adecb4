// Package agentproof is issue 44's adversarial suite: what an AI client might try against the
// person's policy, each attempt an MCP exchange with the real app (`app --headless`, built
// here, its three driver plugins installed from a signed registry) over real databases (a
// weaviate-server, a PostgreSQL 15 cluster whose user is its superuser, a SQLite file). The
// person is at the app's terminal (a real pseudo-terminal through script(1)) and approves
// only the statements a case says they approve.
//
// Each case asserts the answer the spec names, and the harness asserts around every case that
// what each database holds, read with its own tool (psql, sqlite3, Weaviate's REST API), and
// the app's policy files are what they were, except what the person approved; at the end,
// that the activity log (read with `app activity list`) records every attempt.
package agentproof

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/sqlitecli"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// The saved connections the cases use. Each database has one connection an agent may write
// through (readWrite, ask for writes) and the PostgreSQL cluster has one of each other policy.
const (
	connWV      = "wv"
	connPG      = "pg"
	connLite    = "lite"
	connPGRO    = "pg-readonly"  // external access readOnly
	connPGBlock = "pg-blocked"   // external access blocked: invisible to AI clients
	connPGNever = "pg-never"     // AI policy neverForWrites
	connPGAlway = "pg-alwaysask" // AI policy alwaysAsk: reads wait for the person too
)

// The tokens: one of each level, a second fullAccess one, one allowed only the SQLite
// connection, and one revoked before the cases run.
const (
	tokRO      = "ro"
	tokRW      = "rw"
	tokFull    = "full"
	tokFull2   = "full2"
	tokLite    = "lite-only"
	tokRevoked = "revoked"
)

// harness is the running app, its databases and the person at its terminal.
type harness struct {
	bin, dir string
	// bridgeBin is app-mcp, the stdio bridge, built from the tree.
	bridgeBin string
	port      int
	// offered are the tools tools/list offers a fullAccess token, read from the app; prompts
	// the prompts prompts/list offers, with their arguments.
	offered  []string
	prompts  []promptDef
	bridges  map[string]*bridgeProc // app-mcp processes by kind of client (bridge_test.go)
	appPID   int                    // the app under script, from its handshake
	tokens   map[string]string      // name -> bearer token
	tokenIDs map[string]string      // name -> id
	connIDs  map[string]string      // connection name -> id
	wv       *weaviatenode.Node
	pg       *pgnode.Node
	lite     string // the SQLite file
	liteDir  string
	person   *person
	term     *lockedBuffer
	app      *exec.Cmd
	stdin    io.WriteCloser

	mu    sync.Mutex
	cases []*caseRecord
	// settled is what states read at the end of the last case: the cases run one after
	// another and nothing but a case changes a database or a policy file, so it is also what
	// they hold when the next case begins (a change between two cases would show as that
	// case's, failing it, never hide one).
	settled []state
}

// caseRecord is what the final check of the activity log needs of one case.
type caseRecord struct {
	group, name string
	traceID     string
	sent        int            // requests sent with the case's trace id
	untraced    map[string]int // requests that cannot carry a trace (no JSON), by the outcome logged
}

func env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "APP_") || strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, append([]string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=agentproof"}, extra...)...)
}

// cli runs the app's command line on the harness's config dir.
func (h *harness) cli(t testing.TB, extraEnv []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, append([]string{"--config-dir", h.dir}, args...)...)
	cmd.Env = env(extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("app %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// start builds and configures everything; the returned harness is stopped when t ends.
func start(t *testing.T) *harness {
	t.Helper()
	testenv.Require(t, testenv.Tool("script"))
	weaviatetest.RequireBinary(t)
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	h := &harness{bin: filepath.Join(tmp, "app"), bridgeBin: filepath.Join(tmp, "app-mcp"), dir: filepath.Join(tmp, "config"), tokens: map[string]string{}, tokenIDs: map[string]string{}, connIDs: map[string]string{}, bridges: map[string]*bridgeProc{}}
	for bin, pkg := range map[string]string{h.bin: "app", h.bridgeBin: "app/cmd/app-mcp"} {
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}

	h.wv = weaviatetest.Start(t, weaviatenode.Anonymous)
	if err := fixtures.CreateNotes(ctx, h.wv); err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"first", "second", "third"} {
		if err := h.wv.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": fixtures.Notes, "id": fmt.Sprintf("00000000-0000-4000-8000-00000000000%d", i+1),
			"properties": map[string]any{"body": body}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	pg, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	h.pg = pg
	if _, err := pg.Psql(ctx, "", pgSeed); err != nil {
		t.Fatal(err)
	}
	h.liteDir = filepath.Join(tmp, "sqlite")
	if err := os.Mkdir(h.liteDir, 0o755); err != nil {
		t.Fatal(err)
	}
	h.lite = filepath.Join(h.liteDir, "lite.db")
	if _, err := sqlitecli.Run(ctx, h.lite, liteSeed); err != nil {
		t.Fatal(err)
	}

	// Every shipped plugin, from a registry signed here, as the app installs them.
	dev, err := pluginpub.PublishDev(ctx, filepath.Join(tmp, "registry"), "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pluginpub.Shipped {
		if p.Plugin.Name != pluginpub.Weaviate.Name {
			if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: dev.Dir, Version: "1.0.0", Key: dev.Signer, Plugin: p.Plugin, Package: p.Package}); err != nil {
				t.Fatal(err)
			}
		}
		h.cli(t, dev.Env(), "plugin", "install", p.Plugin.Name)
	}
	h.cli(t, nil, "connection", "add", "--name", connWV, "--type", "weaviate", "--host", h.wv.Host, "--port", strconv.Itoa(h.wv.Port),
		"--grpc-port", strconv.Itoa(h.wv.GRPCPort), "--external-access", "readWrite")
	pgConn := func(name string, extra ...string) {
		h.cli(t, []string{"AP_PG_PASSWORD=" + pg.Password}, append([]string{"connection", "add", "--name", name, "--type", "postgres",
			"--set", "host=" + pg.Host, "--set", "port=" + strconv.Itoa(pg.Port), "--set", "database=" + pg.Database, "--set", "user=" + pg.User,
			"--set", "sslmode=disable", "--secret-env", "password=AP_PG_PASSWORD"}, extra...)...)
	}
	pgConn(connPG, "--external-access", "readWrite")
	pgConn(connPGRO, "--external-access", "readOnly")
	pgConn(connPGBlock, "--external-access", "blocked")
	pgConn(connPGNever, "--external-access", "readWrite", "--ai-policy", "neverForWrites")
	pgConn(connPGAlway, "--external-access", "readWrite", "--ai-policy", "alwaysAsk")
	h.cli(t, nil, "connection", "add", "--name", connLite, "--type", "sqlite", "--set", "path="+h.lite, "--external-access", "readWrite")
	// Saved connections whose file is the app's own (escalation_test.go): someone saved them;
	// no driver may open them.
	if err := os.Symlink(h.dir, filepath.Join(h.liteDir, "link")); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{connInSettings: filepath.Join(h.dir, "settings.json"), connInLog: filepath.Join(h.dir, "activity.db"),
		connViaLink: filepath.Join(h.liteDir, "link", "connections.json")} {
		h.cli(t, nil, "connection", "add", "--name", name, "--type", "sqlite", "--set", "path="+path, "--external-access", "readWrite")
	}
	// No rate limit but for the case that tests it: a suite of hundreds of calls is not an
	// agent that keeps going.
	h.cli(t, nil, "settings", "set", "mcp.rateLimitPerMinute", "0")
	for name, args := range map[string][]string{
		tokRO: {"--level", "readOnly"}, tokRW: {"--level", "readWrite"}, tokFull: {"--level", "fullAccess"},
		tokFull2: {"--level", "fullAccess"}, tokLite: {"--level", "fullAccess", "--connections", connLite},
		tokRevoked: {"--level", "readWrite"},
	} {
		var c struct{ ID, Token string }
		out := h.cli(t, nil, append([]string{"token", "create", "--json", "--yes", "--name", name}, args...)...)
		if err := json.Unmarshal([]byte(out), &c); err != nil || c.Token == "" {
			t.Fatalf("token create printed %q: %v", out, err)
		}
		h.tokens[name], h.tokenIDs[name] = c.Token, c.ID
	}
	h.cli(t, nil, "token", "revoke", tokRevoked)
	var conns []struct{ ID, Name string }
	if err := json.Unmarshal([]byte(h.cli(t, nil, "--json", "connection", "list")), &conns); err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		h.connIDs[c.Name] = c.ID
	}

	h.startApp(t)
	// The first question of the form flow makes the requestState key in the keyring: made
	// here, so no case sees the keyring change.
	warm := &attempt{T: t, h: h, rec: &caseRecord{traceID: strings.Repeat("0", 32)}}
	if r := warm.elicit(tokFull, "execute_query", map[string]any{"connection": connLite, "query": "DELETE FROM notes WHERE id = 0"}); r.stateOf() == "" {
		t.Fatalf("no input_required to warm the keyring: %s", r)
	}
	// What the app offers, read from it (the scope matrix and the prompt cases are built on
	// it, not on a list of our own), every page.
	for _, page := range warm.pages(tokFull, "tools/list", "tools") {
		h.offered = append(h.offered, page["name"].(string))
	}
	for _, page := range warm.pages(tokFull, "prompts/list", "prompts") {
		p := promptDef{name: page["name"].(string)}
		args, _ := page["arguments"].([]any)
		for _, arg := range args {
			p.args = append(p.args, arg.(map[string]any)["name"].(string))
		}
		h.prompts = append(h.prompts, p)
	}
	if len(h.offered) == 0 || len(h.prompts) == 0 {
		t.Fatalf("the app offers %d tools and %d prompts", len(h.offered), len(h.prompts))
	}
	return h
}

// pages lists every item of a list method for token, following nextCursor.
func (a *attempt) pages(token, method, field string) []map[string]any {
	a.Helper()
	var out []map[string]any
	params := map[string]any{}
	for range 100 {
		r := a.call(req{token: token, method: method, params: params})
		items, ok := r.result[field].([]any)
		if !ok {
			a.Fatalf("%s: %s", method, r)
		}
		for _, it := range items {
			out = append(out, it.(map[string]any))
		}
		next, _ := r.result["nextCursor"].(string)
		if next == "" {
			return out
		}
		params = map[string]any{"cursor": next}
	}
	a.Fatalf("%s: more than 100 pages", method)
	return nil
}

// startApp runs `app --headless` in a pseudo-terminal (script(1)), the person at it.
func (h *harness) startApp(t *testing.T) {
	t.Helper()
	_ = os.Remove(filepath.Join(h.dir, "mcp-handshake.json"))
	cmd := exec.Command("script", "-q", "-f", "-c", shellQuote(h.bin)+" --headless --mcp-port 0 --config-dir "+shellQuote(h.dir), "/dev/null")
	cmd.Env = env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.term = &lockedBuffer{}
	h.person = newPerson(h.term, in)
	cmd.Stdout, cmd.Stderr = h.person, h.person
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h.app, h.stdin = cmd, in
	t.Cleanup(func() { h.closeBridges(); h.stopApp() })
	deadline := time.Now().Add(30 * time.Second)
	for h.port == 0 {
		var hs struct {
			Port int `json:"port"`
			PID  int `json:"pid"`
		}
		if b, err := os.ReadFile(filepath.Join(h.dir, "mcp-handshake.json")); err == nil && json.Unmarshal(b, &hs) == nil {
			h.port, h.appPID = hs.Port, hs.PID
		}
		if time.Now().After(deadline) {
			t.Fatalf("no handshake from app --headless; terminal:\n%s", h.term.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopApp ends the app as a terminal's ^C does: SIGINT to the app itself, the foreground
// process of script's pseudo-terminal (script runs it in a session of its own, so a signal to
// script's group would reach script alone, which may close the terminal under the app while
// it still writes its log). script exits once the app has, so the wait covers the app's
// clean exit: the activity log has written what it held queued.
func (h *harness) stopApp() {
	if h.app == nil || h.app.Process == nil {
		return
	}
	if h.appPID > 0 {
		_ = syscall.Kill(h.appPID, syscall.SIGINT)
	} else {
		_ = syscall.Kill(-h.app.Process.Pid, syscall.SIGINT)
	}
	done := make(chan struct{})
	go func() { _ = h.app.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-h.app.Process.Pid, syscall.SIGKILL)
		<-done
	}
	h.app, h.appPID = nil, 0
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// lockedBuffer is the terminal's text, read while the app writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// person sits at the app's terminal. Each question the app prints ends in "[y/N"; the person
// answers y only when the question shows the statement a case approves, word for word, and n
// to everything else.
type person struct {
	term *lockedBuffer
	in   io.Writer

	mu        sync.Mutex
	approve   string // the statement the person approves; "" approves nothing
	gone      bool   // away from the terminal: questions wait
	pending   int    // questions asked while away, answered n on return
	asked     []string
	seen      int // bytes of the terminal already read for questions
	lastStart int
}

func newPerson(term *lockedBuffer, in io.Writer) *person { return &person{term: term, in: in} }

// Write is the terminal's output: the person reads it as it comes.
func (p *person) Write(b []byte) (int, error) {
	n, err := p.term.Write(b)
	p.read()
	return n, err
}

func (p *person) read() {
	p.mu.Lock()
	defer p.mu.Unlock()
	all := p.term.String()
	for {
		i := strings.Index(all[p.seen:], "[y/N")
		if i < 0 {
			return
		}
		q := all[p.lastStart : p.seen+i]
		p.seen += i + len("[y/N")
		p.lastStart = p.seen
		p.asked = append(p.asked, q)
		if p.gone {
			p.pending++
			continue
		}
		answer := "n\n"
		if p.approve != "" && strings.Contains(q, p.approve) {
			answer = "y\n"
		}
		_, _ = io.WriteString(p.in, answer)
	}
}

// away makes the person leave the terminal (questions wait) or come back (each waiting one
// is answered n).
func (p *person) away(gone bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gone = gone
	for ; !gone && p.pending > 0; p.pending-- {
		_, _ = io.WriteString(p.in, "n\n")
	}
}

// will sets what the person approves from now on ("" for nothing) and forgets the questions.
func (p *person) will(statement string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.approve, p.asked = statement, nil
}

// questions are the questions asked since will.
func (p *person) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.asked)
}

// The seed data. PostgreSQL: a table with a sequence, a vector-less notes table, a view.
const pgSeed = `CREATE TABLE items (id serial PRIMARY KEY, title text NOT NULL, n int);
INSERT INTO items (title, n) VALUES ('one', 1), ('two', 2), ('three', 3);
CREATE TABLE notes (id bigint PRIMARY KEY, body text);
INSERT INTO notes VALUES (1, 'a'), (2, 'b');
CREATE VIEW item_titles AS SELECT title FROM items;
CREATE SEQUENCE counter;`

// SQLite: the same shapes.
const liteSeed = `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, n INTEGER);
INSERT INTO items (title, n) VALUES ('one', 1), ('two', 2), ('three', 3);
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO notes VALUES (1, 'a'), (2, 'b');
CREATE VIEW item_titles AS SELECT title FROM items`

// pgState is everything an agent could change in the cluster, read with psql as its
// superuser: the rows of the seeded tables, every relation, function, role, database,
// extension, sequence value, large object and prepared transaction, the server's settings
// file (ALTER SYSTEM) and each setting of the app's own role and database.
const pgState = `SELECT md5(string_agg(x, '|' ORDER BY x)) FROM (
  SELECT 'row items ' || t::text AS x FROM items t
  UNION ALL SELECT 'row notes ' || t::text FROM notes t
  UNION ALL SELECT 'rel ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || c.relpersistence::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
  UNION ALL SELECT 'fn ' || n.nspname || '.' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'role ' || rolname || rolsuper::text || rolcanlogin::text || coalesce(rolpassword, '') FROM pg_authid
  UNION ALL SELECT 'db ' || datname || datallowconn::text FROM pg_database
  UNION ALL SELECT 'ext ' || extname FROM pg_extension
  UNION ALL SELECT 'seq ' || schemaname || '.' || sequencename || ' ' || coalesce(last_value, 0)::text FROM pg_sequences
  UNION ALL SELECT 'lo ' || oid::text FROM pg_largeobject_metadata
  UNION ALL SELECT 'xact ' || gid::text FROM pg_prepared_xacts
  UNION ALL SELECT 'conf ' || name || '=' || coalesce(setting, '') FROM pg_file_settings WHERE sourcefile LIKE '%auto.conf'
  UNION ALL SELECT 'dbrole ' || coalesce(array_to_string(setconfig, ','), '') FROM pg_db_role_setting
  UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'rule ' || rulename FROM pg_rules WHERE schemaname = 'public'
  UNION ALL SELECT 'policy ' || polname FROM pg_policy
  UNION ALL SELECT 'pub ' || pubname FROM pg_publication
  UNION ALL SELECT 'evt ' || evtname FROM pg_event_trigger
) s`

// state is a fingerprint of what one database holds, or of the app's policy files.
type state struct{ name, sum string }

// states reads every fingerprint, each database with its own tool at the same time (they are
// read twice a case, 834 cases: one after the other they were half the suite's time).
func (h *harness) states(t testing.TB) []state {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var pg, lite, pragmas, wv string
	var pgErr, liteErr, pragmasErr, wvErr error
	var wg sync.WaitGroup
	wg.Go(func() { pg, pgErr = h.pg.Psql(ctx, "", pgState) })
	wg.Go(func() {
		lite, liteErr = sqlitecli.Run(ctx, h.lite, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name; SELECT 'items', * FROM items ORDER BY id; SELECT 'notes', * FROM notes ORDER BY id")
		if liteErr == nil {
			pragmas, pragmasErr = sqlitecli.Run(ctx, h.lite, "PRAGMA user_version; PRAGMA application_id; PRAGMA journal_mode; PRAGMA page_size")
		}
	})
	wg.Go(func() { wv, wvErr = h.weaviateState(ctx) })
	wg.Wait()
	for _, err := range []error{pgErr, liteErr, pragmasErr, wvErr} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return []state{
		{"postgres (psql)", pg},
		{"sqlite (sqlite3: schema, rows and pragmas)", sum(lite + "\n" + pragmas)},
		{"the SQLite file's directory", h.listing(h.liteDir)},
		{"weaviate (REST)", wv},
		{"policy (the app's settings, connections, tokens and keyring in its config dir)", h.policyState(t)},
	}
}

func sum(s string) string {
	b := sha256.Sum256([]byte(s))
	return hex.EncodeToString(b[:8])
}

// listing is the names and sizes of the files in dir (the SQLite file's own WAL and shared
// memory files aside, which the app's connection keeps): a file made by ATTACH or VACUUM INTO
// shows.
func (h *harness) listing(dir string) string {
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "-wal") || strings.HasSuffix(e.Name(), "-shm") || strings.HasSuffix(e.Name(), "-journal") {
			continue
		}
		fmt.Fprintf(&b, "%s\n", e.Name())
	}
	return b.String()
}

// weaviateState is the schema and every object, read over Weaviate's REST API.
func (h *harness) weaviateState(ctx context.Context) (string, error) {
	var schema struct {
		Classes []struct {
			Class string `json:"class"`
		} `json:"classes"`
	}
	var raw json.RawMessage
	if err := h.wv.DoJSON(ctx, http.MethodGet, "/v1/schema", nil, &raw); err != nil {
		return "", err
	}
	_ = json.Unmarshal(raw, &schema)
	all := string(raw)
	for _, c := range schema.Classes {
		var objs struct {
			Objects []struct {
				ID         string         `json:"id"`
				Properties map[string]any `json:"properties"`
			} `json:"objects"`
		}
		if err := h.wv.DoJSON(ctx, http.MethodGet, "/v1/objects?limit=1000&class="+c.Class, nil, &objs); err != nil {
			return "", err
		}
		b, _ := json.Marshal(objs)
		all += "\n" + c.Class + " " + string(b)
	}
	return sum(all), nil
}

// policyState is every file of the config dir but those the app rewrites as it runs (the
// activity log, checked at the end; its handshake; its lock; the plugins' own files),
// by name and content.
func (h *harness) policyState(t testing.TB) string {
	t.Helper()
	var files []string
	_ = filepath.WalkDir(h.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(h.dir, p)
		top := strings.Split(rel, string(filepath.Separator))[0]
		if d.IsDir() {
			if top == "activity" || top == "plugins" || top == "logs" {
				return filepath.SkipDir
			}
			return nil
		}
		// The seal holds copies of the files (the tokens' last use among them): they are compared
		// themselves.
		if rel == "policy-seal.json" || rel == "mcp-handshake.json" || strings.HasSuffix(rel, ".tmp") || strings.HasSuffix(rel, ".lock") || strings.HasPrefix(rel, "activity.db") || !d.Type().IsRegular() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if rel == "mcp-tokens.json" {
			b = withoutLastUse(b)
		}
		files = append(files, rel+" "+sum(string(b)))
		return nil
	})
	sort.Strings(files)
	return strings.Join(files, "\n")
}

// withoutLastUse is the tokens file without each token's last use, which every request moves.
func withoutLastUse(b []byte) []byte {
	var f map[string]any
	if json.Unmarshal(b, &f) != nil {
		return b
	}
	if list, ok := f["tokens"].([]any); ok {
		for _, t := range list {
			if m, ok := t.(map[string]any); ok {
				delete(m, "lastUsedAt")
			}
		}
	}
	out, _ := json.Marshal(f)
	return out
}

// attempt is one exchange's client: each request carries the case's trace id in _meta, so
// the activity log's entry can be found again.
type attempt struct {
	*testing.T
	h   *harness
	rec *caseRecord
}

// reply is what came back.
type reply struct {
	status int
	header http.Header
	body   []byte
	result map[string]any
	err    *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
}

func (r reply) code() int {
	if r.err == nil {
		return 0
	}
	return r.err.Code
}

// toolError is a tool result's error code ("denied", ...), "" for a success or a protocol
// error.
func (r reply) toolError() string {
	if r.result == nil || r.result["isError"] != true {
		return ""
	}
	code, _, _ := strings.Cut(r.text(), ":")
	return code
}

func (r reply) text() string {
	c, _ := r.result["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	m, _ := c[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}

func (r reply) String() string {
	s := string(r.body)
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return fmt.Sprintf("HTTP %d %s", r.status, s)
}

// req is one request as a client of the stateless revision sends it.
type req struct {
	token  string // a token's name in h.tokens; "" sends no Authorization
	method string
	params map[string]any
	// caps are the client's capabilities (elicitation for the form flow).
	caps map[string]any
	// header changes the request's headers after they are set.
	header func(http.Header)
	// raw, when set, is the body as sent (no trace can be carried: untraced names the
	// outcome the log must show for it).
	raw      []byte
	untraced string
	// legacy sends a request of the 2025-11-25 revision (no protocol version in _meta).
	legacy bool
	// onLine, when set, sees each line of the answer as it arrives.
	onLine func(string)
}

// call sends r and reads the whole answer.
func (a *attempt) call(r req) reply {
	a.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return a.callCtx(ctx, r)
}

// callCtx is call within ctx; an answer cut by ctx keeps what came.
func (a *attempt) callCtx(ctx context.Context, r req) reply {
	a.Helper()
	body := r.raw
	if body == nil {
		meta := map[string]any{
			"io.modelcontextprotocol/clientCapabilities": orEmpty(r.caps),
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "agentproof", "version": "1.0"},
			"traceparent":                                a.traceparent(),
		}
		if !r.legacy {
			meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
		}
		params := map[string]any{"_meta": meta}
		for k, v := range r.params {
			if k == "_meta" {
				maps.Copy(meta, v.(map[string]any))
			} else {
				params[k] = v
			}
		}
		body, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": r.method, "params": params})
	} else if r.untraced != "" {
		a.h.mu.Lock()
		if a.rec.untraced == nil {
			a.rec.untraced = map[string]int{}
		}
		a.rec.untraced[r.untraced]++
		a.h.mu.Unlock()
	}
	hr, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/mcp", a.h.port), bytes.NewReader(body))
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json, text/event-stream")
	if !r.legacy {
		hr.Header.Set("MCP-Protocol-Version", "2026-07-28")
		hr.Header.Set("Mcp-Method", r.method)
		if name, ok := r.params["name"].(string); ok {
			hr.Header.Set("Mcp-Name", name)
		}
		if uri, ok := r.params["uri"].(string); ok && r.method == "resources/read" {
			hr.Header.Set("Mcp-Name", uri)
		}
	}
	if r.token != "" {
		tok, ok := a.h.tokens[r.token]
		if !ok {
			tok = r.token // a made-up token, sent as is
		}
		hr.Header.Set("Authorization", "Bearer "+tok)
	}
	if r.header != nil {
		r.header(hr.Header)
	}
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		a.Fatalf("%s: %v", r.method, err)
	}
	defer resp.Body.Close()
	var raw []byte
	if r.onLine == nil {
		raw, _ = io.ReadAll(resp.Body)
	} else {
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			raw = append(raw, line...)
			if line != "" {
				r.onLine(strings.TrimSuffix(line, "\n"))
			}
			if err != nil {
				break
			}
		}
	}
	out := reply{status: resp.StatusCode, header: resp.Header, body: raw}
	// An event stream's last data line is the answer.
	doc := raw
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(d, `"id"`) {
				doc = []byte(d)
			}
		}
	}
	var env struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(doc, &env) == nil {
		out.result = env.Result
		if env.Error != nil {
			_ = json.Unmarshal(env.Error, &out.err)
		}
	}
	a.untrace(r, out)
	return out
}

// beforeMeta are the refusals the app gives before it reads a request's _meta: their entry in
// the activity log has the outcome and no trace.
var beforeMeta = map[int]bool{-33009: true, -33008: true, -33010: true, -33001: true, -32020: true, -32600: true, -32700: true, -33005: true}

// untrace moves a request the log cannot know by its trace to the entries known by outcome: a
// refusal before _meta is read, and a legacy request (its trace is not kept). A run of
// rate-limit refusals is folded into one entry.
func (a *attempt) untrace(r req, out reply) {
	traced := r.raw == nil || bytes.Contains(r.raw, []byte(a.rec.traceID))
	if !traced || !(beforeMeta[out.code()] || r.legacy) {
		return
	}
	outcome := "ok"
	switch {
	case out.code() != 0:
		outcome = strconv.Itoa(out.code())
	case out.toolError() != "":
		outcome = out.toolError()
	}
	a.h.mu.Lock()
	defer a.h.mu.Unlock()
	a.rec.sent--
	if a.rec.untraced == nil {
		a.rec.untraced = map[string]int{}
	}
	if outcome != "-33010" || a.rec.untraced[outcome] == 0 {
		a.rec.untraced[outcome]++
	}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// traceparent is a new span of the case's trace.
func (a *attempt) traceparent() string {
	a.h.mu.Lock()
	a.rec.sent++
	a.h.mu.Unlock()
	span := make([]byte, 8)
	_, _ = rand.Read(span)
	return "00-" + a.rec.traceID + "-" + hex.EncodeToString(span) + "-01"
}

// tool calls a tool with token.
func (a *attempt) tool(token, name string, args map[string]any) reply {
	a.Helper()
	return a.call(req{token: token, method: "tools/call", params: map[string]any{"name": name, "arguments": args}})
}

// elicit is the form flow's first call: a client that declared elicitation.
func (a *attempt) elicit(token, name string, args map[string]any) reply {
	a.Helper()
	return a.call(req{token: token, method: "tools/call", caps: map[string]any{"elicitation": map[string]any{}},
		params: map[string]any{"name": name, "arguments": args}})
}

// answer is the form flow's follow-up: the same call with the requestState and the form.
func (a *attempt) answer(token, name string, args map[string]any, state string, accept bool) reply {
	a.Helper()
	form := map[string]any{"action": "accept", "content": map[string]any{"approved": true}}
	if !accept {
		form = map[string]any{"action": "decline"}
	}
	return a.call(req{token: token, method: "tools/call", caps: map[string]any{"elicitation": map[string]any{}},
		params: map[string]any{"name": name, "arguments": args, "requestState": state,
			"inputResponses": map[string]any{"approve_statement": form}}})
}

// stateOf is the requestState of an input_required answer.
func (r reply) stateOf() string {
	if r.result == nil || r.result["resultType"] != "input_required" {
		return ""
	}
	s, _ := r.result["requestState"].(string)
	return s
}
