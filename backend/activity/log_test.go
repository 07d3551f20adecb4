package activity

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"app/backend/mcp"
	"app/backend/redact"
)

// ARCHITECTURE.md 3 "Embedded database": activity.db in the config dir, 0600, and the
// entries read back as written.
func TestAppendWritesAChain(t *testing.T) {
	l := openLog(t, Options{})
	appendN(t, l, 3, t0)
	t.Run("entries read back newest first, chained from the genesis hash", func(t *testing.T) {
		got, err := l.List(context.Background(), Filter{})
		if err != nil || len(got) != 3 {
			t.Fatalf("%d entries, %v", len(got), err)
		}
		if got[2].ID != 1 || got[2].PrevHash != GenesisHash || got[1].PrevHash != got[2].Hash || got[0].PrevHash != got[1].Hash {
			t.Fatalf("not chained: %+v", got)
		}
		if !got[2].Time.Equal(t0) || got[2].ClientName != "claude-code" || got[2].Statement != "{Get{Article{title}}}" {
			t.Fatalf("read back %+v", got[2])
		}
	})
	t.Run("an intact chain verifies", func(t *testing.T) {
		if v := verify(t, l); !v.Intact() || v.Entries != 3 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("the database files are private (0600)", func(t *testing.T) {
		matches, _ := filepath.Glob(l.Path() + "*")
		if len(matches) < 2 { // the database and its -wal at least
			t.Fatalf("files %v", matches)
		}
		for _, m := range matches {
			st, err := os.Stat(m)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("%s: %v %v", m, st.Mode().Perm(), err)
			}
		}
	})
	t.Run("the database refuses an update (append-only)", func(t *testing.T) {
		_, err := l.db.Exec(`UPDATE blocks SET entries = '[]'`)
		if err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the database refuses a delete that is not pruning", func(t *testing.T) {
		_, err := l.db.Exec(`DELETE FROM blocks`)
		if err == nil || !strings.Contains(err.Error(), "pruning") {
			t.Fatalf("got %v", err)
		}
	})
}

// Issue 11 "Done when": editing one byte of a stored entry is detected, and Verify names the
// first broken link. Each case edits the database file through the sqlite driver, as anyone
// with the file could, after dropping the triggers. The log holds three blocks of three
// entries: 1-3, 4-6, 7-9.
func TestVerifyFindsTheFirstBrokenLink(t *testing.T) {
	flip := func(path string) string { // one hex digit of a hash changed
		return `CASE substr(` + path + `, 1, 1) WHEN '0' THEN '1' ELSE '0' END || substr(` + path + `, 2)`
	}
	cases := []struct {
		rule   string
		stmt   string
		wantID int64
		reason string
	}{
		{"one byte of the statement changed", `UPDATE blocks SET entries = replace(entries, 'q2', 'q3') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of the time changed", `UPDATE blocks SET entries = replace(entries, '12:01:00', '12:02:00') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of the client name changed", `UPDATE blocks SET entries = json_set(entries, '$[1].client', 'claude-codf') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of the token name changed", `UPDATE blocks SET entries = json_set(entries, '$[1].token', 'laptoq') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of the outcome changed", `UPDATE blocks SET entries = json_set(entries, '$[1].outcome', 'oj') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"the duration changed", `UPDATE blocks SET entries = json_set(entries, '$[1].ms', 13) WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"the connection changed", `UPDATE blocks SET entries = json_set(entries, '$[1].connection', 'c2') WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of the stored hash changed", `UPDATE blocks SET entries = json_set(entries, '$[1].hash', ` + flip(`entries ->> '$[1].hash'`) + `) WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"one byte of a block's prev_hash changed", `UPDATE blocks SET prev_hash = ` + flip(`prev_hash`) + ` WHERE first_id = 4`, 4, "prev_hash does not match the hash of entry 3"},
		{"one byte of the first block's prev_hash changed", `UPDATE blocks SET prev_hash = ` + flip(`prev_hash`) + ` WHERE first_id = 1`, 1, "prev_hash does not match the hash of the start of the log"},
		{"an entry removed from the middle of a block", `UPDATE blocks SET entries = json_remove(entries, '$[1]') WHERE first_id = 1`, 1, "the block of entries 1 to 3 holds 2"},
		{"an entry removed and the block's ids moved up", `UPDATE blocks SET entries = json_remove(entries, '$[1]'), last_id = 2 WHERE first_id = 1`, 2, "hash does not match its contents"},
		{"a block removed from the middle", `DELETE FROM blocks WHERE first_id = 4`, 7, "prev_hash does not match the hash of entry 3"},
		{"the first block removed", `DELETE FROM blocks WHERE first_id = 1`, 4, "prev_hash does not match the hash of the start of the log"},
		{"the newest block removed", `DELETE FROM blocks WHERE first_id = 7`, 9, "newest entries were removed"},
		{"a block's ids changed", `UPDATE blocks SET first_id = 10, last_id = 12 WHERE first_id = 4`, 7, "prev_hash does not match the hash of entry 3"},
		{"an entry added to the newest block", `UPDATE blocks SET entries = json_insert(entries, '$[#]', entries -> '$[2]'), last_id = 10 WHERE first_id = 7`, 10, "hash does not match its contents"},
		{"a block inserted", `INSERT INTO blocks SELECT 10, 12, min_time, max_time, prev_hash, entries FROM blocks WHERE first_id = 7`, 10, "prev_hash does not match the hash of entry 9"},
		{"a block's text cut short", `UPDATE blocks SET entries = substr(entries, 1, 100) WHERE first_id = 4`, 4, "does not read as entries"},
		{"a second statement key before the real one", `UPDATE blocks SET entries = replace(entries, '"statement":"q5"', '"statement":"DROP TABLE users","statement":"q5"') WHERE first_id = 4`, 5, "not what the app writes"},
		{"a key the app does not write", `UPDATE blocks SET entries = replace(entries, '"statement":"q5"', '"statement":"q5","note":"x"') WHERE first_id = 4`, 5, "not what the app writes"},
		{"text after the entries", `UPDATE blocks SET entries = entries || ' ' WHERE first_id = 4`, 6, "text after its entries"},
		{"a block's max_time moved back (it would be pruned early)", `UPDATE blocks SET max_time = '2000-01-01T00:00:00.000000Z' WHERE first_id = 4`, 4, "says its times are"},
		{"a block's min_time moved on (a time filter would skip it)", `UPDATE blocks SET min_time = '2100-01-01T00:00:00.000000Z' WHERE first_id = 4`, 4, "says its times are"},
		{"a block's ids made empty", `UPDATE blocks SET last_id = 3 WHERE first_id = 4`, 4, "is empty"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			l := openLog(t, Options{})
			writeBlocks(t, l, 3, 3, 3)
			if v := verify(t, l); !v.Intact() || v.Entries != 9 {
				t.Fatalf("before the edit: %+v", v)
			}
			if err := l.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			tamper(t, l.Path(), c.stmt)
			ro, err := OpenReadOnly(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close(context.Background())
			v := verify(t, ro)
			if v.Intact() || v.Broken.ID != c.wantID || !strings.Contains(v.Broken.Reason, c.reason) {
				t.Fatalf("got %+v (broken %+v), want entry %d: %s", v, v.Broken, c.wantID, c.reason)
			}
		})
	}
}

// Issue 11: kept 90 days (configurable), pruned in the background without breaking the
// chain's verifiability.
func TestPruneKeepsTheChainVerifiable(t *testing.T) {
	ctx := context.Background()
	day := 24 * time.Hour
	t.Run("entries older than the cutoff go, the anchor keeps the chain verifiable", func(t *testing.T) {
		l := openLog(t, Options{})
		for i := range 5 { // days 0..4
			appendN(t, l, 2, t0.Add(time.Duration(i)*day))
		}
		n, err := l.Prune(ctx, t0.Add(2*day))
		if err != nil || n != 4 {
			t.Fatalf("pruned %d, %v", n, err)
		}
		v := verify(t, l)
		if !v.Intact() || v.Entries != 6 || v.AnchorID != 4 {
			t.Fatalf("%+v %+v", v, v.Broken)
		}
		t.Run("and new entries continue the chain", func(t *testing.T) {
			appendN(t, l, 2, t0.Add(6*day))
			if v := verify(t, l); !v.Intact() || v.Entries != 8 {
				t.Fatalf("%+v %+v", v, v.Broken)
			}
		})
		t.Run("a second prune with the same cutoff removes nothing", func(t *testing.T) {
			if n, err := l.Prune(ctx, t0.Add(2*day)); n != 0 || err != nil {
				t.Fatalf("%d %v", n, err)
			}
		})
		t.Run("an edit to the first entry after the anchor is still detected", func(t *testing.T) {
			_ = l.Close(ctx)
			tamper(t, l.Path(), `UPDATE blocks SET prev_hash = ? WHERE first_id = 5`, GenesisHash)
			ro, err := OpenReadOnly(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close(ctx)
			v := verify(t, ro)
			if v.Intact() || v.Broken.ID != 5 || !strings.Contains(v.Broken.Reason, "pruning anchor (entry 4)") {
				t.Fatalf("%+v %+v", v, v.Broken)
			}
		})
	})
	t.Run("pruning everything leaves an empty, intact chain that goes on", func(t *testing.T) {
		l := openLog(t, Options{})
		appendN(t, l, 3, t0)
		if n, err := l.Prune(ctx, t0.Add(day)); n != 3 || err != nil {
			t.Fatalf("%d %v", n, err)
		}
		if v := verify(t, l); !v.Intact() || v.Entries != 0 || v.AnchorID != 3 {
			t.Fatalf("%+v", v)
		}
		appendN(t, l, 1, t0.Add(2*day))
		got, _ := l.List(ctx, Filter{})
		if v := verify(t, l); !v.Intact() || v.Entries != 1 || len(got) != 1 || got[0].ID != 4 {
			t.Fatalf("%+v %+v", v, got)
		}
	})
	t.Run("an entry recorded out of time order stops the prune there", func(t *testing.T) {
		l := openLog(t, Options{})
		appendN(t, l, 1, t0)
		appendN(t, l, 1, t0.Add(3*day)) // a long request started later but answered first
		appendN(t, l, 1, t0)
		if n, err := l.Prune(ctx, t0.Add(day)); n != 1 || err != nil {
			t.Fatalf("%d %v", n, err)
		}
		if v := verify(t, l); !v.Intact() || v.Entries != 2 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("pruning refuses to remove a broken part of the chain", func(t *testing.T) {
		l := openLog(t, Options{})
		appendN(t, l, 3, t0)
		tamper(t, l.Path(), `UPDATE blocks SET entries = json_set(entries, '$[' || (2 - first_id) || '].statement', 'x') WHERE first_id <= 2 AND last_id >= 2`)
		n, err := l.Prune(ctx, t0.Add(day))
		if n != 0 || err == nil || !strings.Contains(err.Error(), "entry 2") {
			t.Fatalf("%d %v", n, err)
		}
		if v := verify(t, l); v.Intact() || v.Broken.ID != 2 {
			t.Fatalf("evidence gone: %+v", v)
		}
	})
	t.Run("background pruning runs at start with the retention it is given", func(t *testing.T) {
		l := openLog(t, Options{})
		appendN(t, l, 2, time.Now().Add(-100*day))
		appendN(t, l, 1, time.Now())
		if err := l.StartPruning(func() time.Duration { return DefaultRetention }); err != nil {
			t.Fatal(err)
		}
		flush(t, l) // the first prune was queued before StartPruning returned
		if v := verify(t, l); !v.Intact() || v.Entries != 1 || v.AnchorID != 2 {
			t.Fatalf("%+v", v)
		}
	})
}

// The Observer never blocks a request for long: with the writer held up, a full queue makes
// one append wait appendWait for room, then entries are dropped at once, counted, logged and
// the count written to the chain.
func TestQueueFullDropsAndNeverBlocks(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	l := openLog(t, Options{QueueSize: 2, Logger: logger})
	// Another connection holds the write lock, so the writer waits in its transaction.
	db, err := sql.Open("sqlite", "file:"+l.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	// More than the writer takes into one batch before it tries to write (and waits on the lock).
	const n = 2*maxBatch + 1000
	accepted := 0
	start := time.Now()
	for i := range n {
		if l.Append(FromRecord(call("execute_query", map[string]any{"query": fmt.Sprint(i)}, t0))) {
			accepted++
		}
	}
	elapsed := time.Since(start)
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if elapsed > busyTimeout/2 {
		t.Fatalf("appends took %v while the writer was held up: they blocked", elapsed)
	}
	flush(t, l)
	if got := l.Dropped(); got != uint64(n-accepted) || got == 0 {
		t.Fatalf("dropped %d, accepted %d of %d", got, accepted, n)
	}
	all, _ := l.List(context.Background(), Filter{})
	notes, _ := l.List(context.Background(), Filter{Outcome: OutcomeDropped})
	if len(all) != accepted+1 || len(notes) != 1 || !strings.Contains(notes[0].Statement, fmt.Sprintf("%d requests were not recorded", n-accepted)) {
		t.Fatalf("%d entries, drop notes %+v", len(all), notes)
	}
	if v := verify(t, l); !v.Intact() {
		t.Fatalf("%+v", v.Broken)
	}
	warned := false
	for _, e := range hook.AllEntries() {
		warned = warned || (e.Level == logrus.WarnLevel && strings.Contains(e.Message, "queue was full"))
	}
	if !warned {
		t.Fatal("no warning logged")
	}
}

// ARCHITECTURE.md 3: the CLI reads the database too, read-only, while the app writes it and
// after the app has closed it.
func TestReadOnlyWhileTheAppWrites(t *testing.T) {
	ctx := context.Background()
	l := openLog(t, Options{})
	appendN(t, l, 2, t0)
	ro, err := OpenReadOnly(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	t.Run("the reader sees what the writer wrote, and more as it comes", func(t *testing.T) {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // the reader verifies while the writer goes on
			defer wg.Done()
			for range 5 {
				if v, err := ro.Verify(ctx); err != nil || !v.Intact() {
					t.Errorf("%+v %v", v, err)
				}
			}
		}()
		appendN(t, l, 50, t0.Add(time.Hour))
		wg.Wait()
		if n, err := ro.Count(ctx, Filter{}); err != nil || n != 52 {
			t.Fatalf("%d %v", n, err)
		}
	})
	t.Run("the reader cannot write", func(t *testing.T) {
		if ro.Append(Entry{}) {
			t.Fatal("append accepted")
		}
		if _, err := ro.db.Exec(`INSERT INTO meta(key, value) VALUES ('x', 'y')`); err == nil {
			t.Fatal("write accepted")
		}
		if err := ro.Flush(ctx); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("the reader opens a database nobody has open", func(t *testing.T) {
		if err := l.Close(ctx); err != nil {
			t.Fatal(err)
		}
		ro2, err := OpenReadOnly(l.Path())
		if err != nil {
			t.Fatal(err)
		}
		defer ro2.Close(ctx)
		if v := verify(t, ro2); !v.Intact() || v.Entries != 52 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("a missing database is reported as not existing", func(t *testing.T) {
		_, err := OpenReadOnly(Path(t.TempDir()))
		if !IsNotExist(err) {
			t.Fatalf("got %v", err)
		}
	})
}

// Issue 11 "Done when": no secret appears in any file of the config dir.
func TestSecretsNeverReachTheDatabase(t *testing.T) {
	const key = "sk-live-0123456789abcdefXYZ"
	r := redact.New(key)
	l, err := Open(Path(t.TempDir()), Options{Redactor: r})
	if err != nil {
		t.Fatal(err)
	}
	rec := call("execute_query", map[string]any{"connection": key, "query": "Authentication failed: key " + key + " rejected"}, t0)
	rec.Client.Name = "client " + key
	l.Observe(rec)
	flush(t, l)
	got, _ := l.List(context.Background(), Filter{})
	if len(got) != 1 || strings.Contains(fmt.Sprintf("%+v", got[0]), key) {
		t.Fatalf("%+v", got)
	}
	dir := filepath.Dir(l.Path())
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, []byte(key)) {
			t.Fatalf("%s holds the secret", f)
		}
	}
}

func TestCloseAndFlush(t *testing.T) {
	ctx := context.Background()
	t.Run("Close writes what is queued", func(t *testing.T) {
		l := openLog(t, Options{})
		for range 10 {
			l.Append(FromRecord(call("x", nil, t0)))
		}
		if err := l.Close(ctx); err != nil {
			t.Fatal(err)
		}
		ro, err := OpenReadOnly(l.Path())
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close(ctx)
		if n, _ := ro.Count(ctx, Filter{}); n != 10 {
			t.Fatalf("%d entries", n)
		}
	})
	t.Run("after Close, appends are refused and Close again is fine", func(t *testing.T) {
		l := openLog(t, Options{})
		_ = l.Close(ctx)
		if l.Append(Entry{}) || l.Close(ctx) != nil || l.Flush(ctx) == nil {
			t.Fatal("closed log accepted work")
		}
	})
	t.Run("concurrent appends, flushes and a close are race-free", func(t *testing.T) {
		l := openLog(t, Options{})
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					l.Append(FromRecord(call(fmt.Sprint(g), nil, t0)))
					if i%10 == 0 {
						_ = l.Flush(ctx)
					}
				}
			}()
		}
		wg.Wait()
		if err := l.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkWriter is the writer's cost per entry (redacted, chained, written in batches):
// each op appends 1,000 entries and waits for them.
func BenchmarkWriter(b *testing.B) {
	l, err := Open(Path(b.TempDir()), Options{QueueSize: 1000})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close(context.Background())
	e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article(limit:10){title}}}"}, t0))
	for b.Loop() {
		for range 1000 {
			if !l.Append(e) {
				b.Fatal("dropped")
			}
		}
		if err := l.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromRecord is what the request goroutine pays before the entry is queued.
func BenchmarkFromRecord(b *testing.B) {
	rec := call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article(limit:10){title}}}"}, t0)
	for b.Loop() {
		_ = FromRecord(rec)
	}
}

func TestAppendWithoutTimeIsNow(t *testing.T) {
	l := openLog(t, Options{})
	before := time.Now().Add(-time.Second)
	l.Append(Entry{Method: "settings/set", Name: "mcp.requireAuth", ClientName: "app CLI (pid 42)", Outcome: OutcomeOK})
	flush(t, l)
	got, _ := l.List(context.Background(), Filter{})
	if len(got) != 1 || got[0].Time.Before(before) || got[0].Name != "mcp.requireAuth" {
		t.Fatalf("%+v", got)
	}
}

// legacySchema is the layout of schemas 1 and 2 (one row per entry; 2 added trace).
const legacySchema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE entries (
	id INTEGER PRIMARY KEY, time TEXT NOT NULL, client_name TEXT NOT NULL, client_version TEXT NOT NULL,
	principal TEXT NOT NULL, token_name TEXT NOT NULL, level TEXT NOT NULL, method TEXT NOT NULL, name TEXT NOT NULL,
	connection TEXT NOT NULL, statement TEXT NOT NULL, outcome TEXT NOT NULL, duration_ms INTEGER NOT NULL,
	prev_hash TEXT NOT NULL, hash TEXT NOT NULL) STRICT;
CREATE INDEX entries_time ON entries(time);
CREATE TRIGGER entries_append_only BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'activity entries are append-only'); END;
CREATE TRIGGER entries_prune_only BEFORE DELETE ON entries
WHEN old.id > COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'anchor_id'), 0)
BEGIN SELECT RAISE(ABORT, 'activity entries are removed only by pruning'); END;`

// legacyDatabase writes a database as an app of schema 1 or 2 wrote it: n chained entries,
// the second one traced in schema 2.
func legacyDatabase(t *testing.T, path string, schema, n int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)") // as those apps kept it: switching a file to WAL while another process opens it can fail with SQLITE_BUSY at once
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ddl := legacySchema
	if schema == 2 {
		ddl += `ALTER TABLE entries ADD COLUMN trace TEXT NOT NULL DEFAULT '';`
	}
	ddl += fmt.Sprintf(`INSERT INTO meta(key, value) VALUES ('schema', '%d');`, schema)
	if _, err := db.Exec(ddl); err != nil {
		t.Fatal(err)
	}
	prev := GenesisHash
	for i := 1; i <= n; i++ {
		e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": fmt.Sprintf("q%d", i)}, t0.Add(time.Duration(i)*time.Minute)))
		if schema == 2 && i == 2 {
			e.Trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
		}
		e.ID, e.PrevHash = int64(i), prev
		e.Hash = computeHash(&e)
		prev = e.Hash
		args := []any{e.ID, formatTime(e.Time), e.ClientName, e.ClientVersion, e.Principal, e.TokenName, e.Level, e.Method,
			e.Name, e.Connection, e.Statement, e.Outcome, e.DurationMS, e.PrevHash, e.Hash}
		insert := `INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?`
		if schema == 2 {
			insert += `,?`
			args = append(args, e.Trace)
		}
		if _, err := db.Exec(insert+`)`, args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO meta(key, value) VALUES ('head_id', ?), ('head_hash', ?)`, fmt.Sprint(n), prev); err != nil {
		t.Fatal(err)
	}
}

// Schema 3 keeps the entries in blocks (block.go): a database an older app wrote (schema 1,
// one row per entry; schema 2 added the trace) is read as it is by the CLI, moved into blocks
// when the app opens it, and its chain still verifies with the new entries after the old.
func TestAnOlderDatabaseIsReadAndUpgraded(t *testing.T) {
	ctx := context.Background()
	for _, schema := range []int{1, 2} {
		t.Run(fmt.Sprintf("schema %d", schema), func(t *testing.T) {
			path := Path(t.TempDir())
			legacyDatabase(t, path, schema, 3)

			ro, err := OpenReadOnly(path)
			if err != nil {
				t.Fatal(err)
			}
			all, err := ro.List(ctx, Filter{})
			if err != nil || len(all) != 3 || all[0].ID != 3 || all[0].Statement != "q3" || all[2].PrevHash != GenesisHash {
				t.Fatalf("read by the CLI before the upgrade: %+v, %v", all, err)
			}
			if v := verify(t, ro); !v.Intact() || v.Entries != 3 {
				t.Fatalf("verified by the CLI before the upgrade: %+v %+v", v, v.Broken)
			}
			if n, err := ro.Count(ctx, Filter{Search: "Q2"}); n != 1 || err != nil {
				t.Fatalf("count %d, %v", n, err)
			}
			ro.Close(ctx)

			up, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer up.Close(ctx)
			rec := call("list_tables", nil, t0.Add(time.Hour))
			rec.Traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
			up.Observe(rec)
			flush(t, up)
			all, err = up.List(ctx, Filter{})
			if err != nil || len(all) != 4 || all[0].ID != 4 || all[0].PrevHash != all[1].Hash || all[3].Statement != "q1" {
				t.Fatalf("after the upgrade: %+v, %v", all, err)
			}
			if v := verify(t, up); !v.Intact() || v.Entries != 4 {
				t.Fatalf("%+v %+v", v, v.Broken)
			}
			wantTraced := map[int]int{1: 1, 2: 2}[schema]
			traced := 0
			for _, e := range all {
				if e.Trace != "" {
					traced++
				}
			}
			if traced != wantTraced {
				t.Fatalf("%d entries carry a trace, want %d", traced, wantTraced)
			}
			var tables int
			if err := up.db.QueryRow(`SELECT COUNT(*) FROM sqlite_master WHERE name IN ('entries', 'entries_time', 'entries_append_only')`).Scan(&tables); err != nil || tables != 0 {
				t.Fatalf("the old table is still there (%d), %v", tables, err)
			}
			var blocks, legacyBlock int
			if err := up.db.QueryRow(`SELECT COUNT(*), SUM(first_id = 1 AND last_id = 3) FROM blocks`).Scan(&blocks, &legacyBlock); err != nil || blocks != 2 || legacyBlock != 1 {
				t.Fatalf("%d blocks (want the old entries in one, the new in another), %v", blocks, err)
			}
			if n, err := up.Prune(ctx, t0.Add(30*time.Minute)); n != 3 || err != nil {
				t.Fatalf("pruned %d, %v", n, err)
			}
			if v := verify(t, up); !v.Intact() || v.Entries != 1 || v.AnchorID != 3 {
				t.Fatalf("after a prune: %+v %+v", v, v.Broken)
			}
		})
	}
}

// The upgrade keeps the evidence of an older log as it was: a break in its chain is the same
// break after the move into blocks.
func TestTheUpgradeKeepsABrokenChainBroken(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		rule   string
		stmt   string
		wantID int64
		reason string
	}{
		{"an entry removed", `DELETE FROM entries WHERE id = 3`, 4, "prev_hash does not match the hash of entry 2"},
		{"a statement changed", `UPDATE entries SET statement = 'x' WHERE id = 3`, 3, "hash does not match its contents"},
		{"a prev_hash changed", `UPDATE entries SET prev_hash = hash WHERE id = 4`, 4, "prev_hash does not match the hash of entry 3"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			path := Path(t.TempDir())
			legacyDatabase(t, path, 2, 5)
			tamper(t, path, `DROP TRIGGER entries_append_only`)
			tamper(t, path, `DROP TRIGGER entries_prune_only`)
			tamper(t, path, c.stmt)
			for _, when := range []string{"before", "after"} {
				var l *Log
				var err error
				if when == "before" {
					l, err = OpenReadOnly(path)
				} else {
					l, err = Open(path, Options{})
				}
				if err != nil {
					t.Fatal(err)
				}
				v := verify(t, l)
				l.Close(ctx)
				if v.Intact() || v.Broken.ID != c.wantID || !strings.Contains(v.Broken.Reason, c.reason) {
					t.Fatalf("%s the upgrade: %+v %+v, want entry %d: %s", when, v, v.Broken, c.wantID, c.reason)
				}
			}
		})
	}
}

// Two processes opening an older database at once: one moves the entries, the other waits
// for its lock and finds nothing left to move; both open, and nothing is moved twice.
func TestTwoProcessesUpgradeOnce(t *testing.T) {
	ctx := context.Background()
	for round := range 10 {
		path := Path(t.TempDir())
		legacyDatabase(t, path, 2, 50)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		logs := make([]*Log, 2)
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				logs[i], errs[i] = Open(path, Options{})
			}()
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("round %d: open %d: %v", round, i, errs[i])
			}
		}
		if v := verify(t, logs[0]); !v.Intact() || v.Entries != 50 {
			t.Fatalf("round %d: %+v %+v", round, v, v.Broken)
		}
		for _, l := range logs {
			l.Close(ctx)
		}
	}
}

// An older app opened after this one finds schema 3 and adds its own (empty) entries table
// beside the blocks: the CLI still reads the whole log, and this app moves the table away.
func TestAnOlderAppsTableBesideTheBlocks(t *testing.T) {
	ctx := context.Background()
	l := openLog(t, Options{})
	appendN(t, l, 2, t0)
	l.Close(ctx)
	tamper(t, l.Path(), legacySchema)
	ro, err := OpenReadOnly(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if v := verify(t, ro); !v.Intact() || v.Entries != 2 {
		t.Fatalf("the CLI: %+v %+v", v, v.Broken)
	}
	ro.Close(ctx)
	up, err := Open(l.Path(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close(ctx)
	if v := verify(t, up); !v.Intact() || v.Entries != 2 {
		t.Fatalf("the app: %+v %+v", v, v.Broken)
	}
}

// A block that does not read hides nothing else: List shows it as one entry that says so,
// whatever the filter, with the entries around it.
func TestAnUnreadableBlockIsListed(t *testing.T) {
	ctx := context.Background()
	l := openLog(t, Options{})
	writeBlocks(t, l, 2, 2, 2)
	tamper(t, l.Path(), `UPDATE blocks SET entries = substr(entries, 1, 50) WHERE first_id = 3`)
	got, err := l.List(ctx, Filter{Client: "claude-code"})
	if err != nil || len(got) != 5 || got[2].Outcome != OutcomeUnreadable || !strings.Contains(got[2].Statement, "entries 3 to 4 cannot be read") {
		t.Fatalf("%+v %v", got, err)
	}
	var csv bytes.Buffer
	if err := l.WriteCSV(ctx, &csv, Filter{}); err != nil || strings.Count(csv.String(), "\n") != 6 {
		t.Fatalf("%q %v", csv.String(), err)
	}
}

// BenchmarkInsert is one transaction of the writer (redaction, the chain, the block, the
// commit) for tools/list entries, per entry, at three batch sizes: the difference is a
// transaction's own cost (docs/testing.md, "The activity log under load").
func BenchmarkInsert(b *testing.B) {
	rec := mcp.Record{Start: t0, Method: "tools/list", Principal: mcp.Principal{ID: "token:t1", Name: "bench", Level: "readOnly"},
		Client: &mcp.ClientInfo{Name: "bench", Version: "1"}}
	for _, n := range []int{100, 500, 2000} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			l, err := Open(Path(b.TempDir()), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close(context.Background())
			if err := l.Flush(context.Background()); err != nil { // the writer is idle from here
				b.Fatal(err)
			}
			batch := make([]*Entry, n)
			for b.Loop() {
				for j := range batch {
					e := FromRecord(rec)
					e.Time = time.Now()
					batch[j] = &e
				}
				if err := l.insert(batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}
