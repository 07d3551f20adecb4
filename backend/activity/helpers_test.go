package activity

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"app/backend/mcp"
	"app/backend/redact"
)

// t0 is a fixed time the entries are recorded at.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// openLog opens a writable log in a fresh temp dir and closes it when the test ends.
func openLog(t *testing.T, opts Options) *Log {
	t.Helper()
	if opts.Redactor == nil {
		opts.Redactor = redact.New()
	}
	l, err := Open(Path(t.TempDir()), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close(context.Background()) })
	return l
}

func flush(t *testing.T, l *Log) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// call is a tools/call record of a client with a token.
func call(tool string, args any, at time.Time) mcp.Record {
	raw, _ := json.Marshal(args)
	return mcp.Record{
		Start: at, Duration: 12 * time.Millisecond,
		Principal: mcp.Principal{ID: "token:t1", Name: "laptop", Level: "readOnly"},
		Client:    &mcp.ClientInfo{Name: "claude-code", Version: "2.1.0"},
		Method:    "tools/call", Name: tool, Arguments: raw,
	}
}

// appendN appends n entries one minute apart from start and waits for them.
func appendN(t *testing.T, l *Log, n int, start time.Time) {
	t.Helper()
	for i := range n {
		if !l.Append(FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article{title}}}"}, start.Add(time.Duration(i)*time.Minute)))) {
			t.Fatal("append refused")
		}
	}
	flush(t, l)
}

// tamper opens the database file as anyone could, with the sqlite driver, drops the
// triggers that refuse edits and runs stmt.
func tamper(t *testing.T, path, stmt string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{`DROP TRIGGER IF EXISTS blocks_append_only`, `DROP TRIGGER IF EXISTS blocks_prune_only`, stmt} {
		if _, err := db.Exec(s, args...); err != nil && s == stmt {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

func verify(t *testing.T, l *Log) Verification {
	t.Helper()
	v, err := l.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// writeBlocks writes blocks of the given sizes, one transaction each, as the writer writes a
// batch: entry i (from 1) is a query "q<i>" at t0 plus i-1 minutes. The writer batches what
// arrives within its window, so a test that needs blocks of known sizes writes them itself,
// between flushes, while the writer waits for work (the flush orders its state before ours).
func writeBlocks(t *testing.T, l *Log, sizes ...int) {
	t.Helper()
	flush(t, l)
	i := 0
	for _, n := range sizes {
		batch := make([]*Entry, n)
		for j := range batch {
			i++
			e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": fmt.Sprintf("q%d", i)}, t0.Add(time.Duration(i-1)*time.Minute)))
			batch[j] = &e
		}
		if err := l.insert(batch); err != nil {
			t.Fatal(err)
		}
	}
}
