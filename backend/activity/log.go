// Package activity is the MCP activity log: an append-only, tamper-evident record of every
// request an AI client made, in SQLite in the config dir (activity.db, 0600), and the
// in-memory table of connected clients fed by the same records.
//
// Every entry carries the SHA-256 of the previous entry's hash and its own fields (a hash
// chain), so Verify finds the first entry that was changed, removed or inserted. Writes go
// through a bounded queue and one writer goroutine: the MCP Observer only enqueues and never
// blocks a request; when the queue is full the entry is dropped, counted, logged, and the
// count itself is written to the chain. Old entries are pruned without breaking the chain:
// the hash of the last pruned entry is kept as the anchor the verification starts from.
//
// The app opens the database once (Open); the CLI opens it read-only (OpenReadOnly) and works
// while the app runs (WAL mode, busy timeout).
package activity

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
	_ "modernc.org/sqlite" // pure Go SQLite: the headless and CLI builds stay free of cgo

	"app/backend/redact"
)

// FileName is the database's name in the config dir.
const FileName = "activity.db"

// Path is the database path of a config dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// DefaultQueueSize is how many entries may wait for the writer before Append waits for room
// (and, after appendWait, drops): about a second of the busiest server measured.
const DefaultQueueSize = 8192

// maxBatch is how many queued entries one transaction (one block) writes, and batchWindow how
// long the writer waits for more after the first: an entry is on disk within 50 ms, and a
// busy server's entries share transactions. A transaction costs about 250 us of its own
// (begin, reading the chain's head, the commit), an entry in it about 3 us: at 25,000
// requests a second a 50 ms window makes the first a tenth of the second (docs/testing.md).
const (
	maxBatch    = 4096
	batchWindow = 50 * time.Millisecond
)

// busyTimeout is how long a connection waits for another process's lock.
const busyTimeout = 5 * time.Second

// schema is the database layout, version 3: the entries in blocks (block.go), one row per
// batch the writer commits. Tables are STRICT (no type coercion), and triggers refuse updates
// and any delete above the pruning anchor, so an accidental edit fails loudly; the hash
// chain is what detects a deliberate one.
const schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS blocks (
	first_id  INTEGER PRIMARY KEY,
	last_id   INTEGER NOT NULL,
	min_time  TEXT    NOT NULL,
	max_time  TEXT    NOT NULL,
	prev_hash TEXT    NOT NULL,
	entries   TEXT    NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS blocks_append_only BEFORE UPDATE ON blocks
BEGIN
	SELECT RAISE(ABORT, 'activity entries are append-only');
END;
CREATE TRIGGER IF NOT EXISTS blocks_prune_only BEFORE DELETE ON blocks
WHEN old.last_id > COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'anchor_id'), 0)
BEGIN
	SELECT RAISE(ABORT, 'activity entries are removed only by pruning');
END;
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '3');
`

// schemaVersion is the layout this version writes; a database of a later one is refused
// unless it says this version may use it (format.go).
const schemaVersion = 3

// blockColumns is what a SELECT of a block source reads (scanBlock's order).
const blockColumns = `first_id, last_id, min_time, max_time, prev_hash, entries, written`

// legacyColumns are the entries table's columns of schemas 1 and 2 (scanLegacy's order).
func legacyColumns(hasTrace bool) string {
	trace := `'' AS trace`
	if hasTrace {
		trace = `trace`
	}
	return `id, time, client_name, client_version, principal, token_name, level, method, name, connection, statement,
	outcome, duration_ms, prev_hash, hash, ` + trace
}

// legacyBlocks reads the entries table of schemas 1 and 2 (one row per entry, trace added
// in 2) as blocks of one entry each, for the CLI reading a database no app of this version
// has opened yet (the app moves the entries into blocks: migrate). written is 0: the text is
// SQLite's, not the writer's.
func legacyBlocks(hasTrace bool) string {
	trace := `''`
	if hasTrace {
		trace = `trace`
	}
	return `SELECT id AS first_id, id AS last_id, time AS min_time, time AS max_time, prev_hash,
	json_array(json_object('time', time, 'client', client_name, 'clientVersion', client_version, 'principal', principal,
		'token', token_name, 'level', level, 'method', method, 'name', name, 'connection', connection,
		'statement', statement, 'outcome', outcome, 'ms', duration_ms, 'trace', ` + trace + `, 'hash', hash)) AS entries,
	0 AS written
	FROM entries`
}

// Meta keys: the newest entry written (head) and the last entry pruned (anchor).
const (
	metaHeadID     = "head_id"
	metaHeadHash   = "head_hash"
	metaAnchorID   = "anchor_id"
	metaAnchorHash = "anchor_hash"
)

// source is what readers select blocks from: the table, and an older database's entries
// read as blocks when the CLI finds them.
func (l *Log) source() string {
	const written = `SELECT first_id, last_id, min_time, max_time, prev_hash, entries, 1 AS written FROM blocks`
	switch {
	case l.legacy == "":
		return "(" + written + ")"
	case l.noBlocks:
		return "(" + l.legacy + ")"
	}
	return "(" + written + " UNION ALL " + l.legacy + ")"
}

// Options configure a writable Log.
type Options struct {
	// Logger receives warnings (dropped entries, failed writes); nil discards them.
	Logger logrus.FieldLogger
	// Redactor scrubs every text field before it is stored; nil means redact.Default().
	Redactor *redact.Redactor
	// QueueSize bounds the entries waiting for the writer; 0 means DefaultQueueSize.
	QueueSize int

	// segment is the entries a filter index segment gathers (tests: small segments); 0 means
	// segmentEntries.
	segment int
}

// Log is the activity database.
type Log struct {
	db       *sql.DB
	path     string
	readOnly bool
	logger   logrus.FieldLogger
	redactor *redact.Redactor

	mu      sync.RWMutex // guards closed against sends on queue
	closed  bool
	queue   chan item
	done    chan struct{}         // closed when the writer exits
	dropped atomic.Uint64         // not yet reported
	failing atomic.Pointer[error] // the last write's error while writes fail, else nil
	stalled atomic.Bool           // a full queue did not drain within appendWait
	total   atomic.Uint64         // ever dropped

	pruneStop context.CancelFunc
	pruneDone chan struct{}

	stmts *writeStmts // the writer's statements, prepared on first use
	buf   []byte      // the writer's block text
	// legacy is the SELECT that reads a read-only older database's entries as blocks, and
	// noBlocks says it has no blocks yet.
	legacy   string
	noBlocks bool

	// The filter index (index.go): segmentSize is the entries a segment gathers; indexed says
	// the database has the index (one no app of this version has opened has none); noIndex
	// makes readers decode every block (the benchmark's "before"); the indexer runs until
	// indexStop, signalled on reindex.
	segmentSize int
	indexed     bool
	noIndex     bool
	indexStop   context.CancelFunc
	indexDone   chan struct{}
	reindex     chan struct{}
	// decoded counts the blocks readers decoded (tests: a filter skips what cannot match).
	decoded atomic.Int64
}

// item is one job for the writer: an entry, a flush marker or a prune.
type item struct {
	entry *Entry
	flush chan error
	prune *pruneJob
}

type pruneJob struct {
	before func() time.Time
	result chan pruneResult
}

type pruneResult struct {
	n   int
	err error
}

// Open opens (creating if needed, with mode 0600) the database at path for writing and
// starts its writer.
func Open(path string, opts Options) (*Log, error) {
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	// The marker first, on a connection that changes nothing: a log of a later format is
	// refused as it is (format.go).
	if err := precheckFormat(context.Background(), path); err != nil {
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	if opts.Logger == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		opts.Logger = l
	}
	if opts.Redactor == nil {
		opts.Redactor = redact.Default()
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.segment <= 0 {
		opts.segment = segmentEntries
	}
	l := &Log{
		db: db, path: path, logger: opts.Logger, redactor: opts.Redactor,
		queue: make(chan item, opts.QueueSize), done: make(chan struct{}),
		segmentSize: opts.segment, indexed: true,
	}
	go l.write()
	l.startIndexer()
	return l, nil
}

// migrate refuses a database this version may not write (checkFormat), creates the tables
// of a new one and moves the entries of an older one (schema 1 or 2, one row per entry) into
// blocks of up to 1,024, in one transaction: ids, hashes and the chain stay as they were. A
// break in the old chain (an id gap, a prev_hash that is not the hash before it) starts a new
// block, so the evidence is kept as it was. The lock is taken first (BEGIN IMMEDIATE): a
// second process opening the same database waits, then finds nothing left to move. The
// format is checked before the tables are created, inside the lock, so a later version that
// upgraded the file since precheckFormat read it still finds it untouched.
func migrate(db *sql.DB) error {
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := checkFormat(ctx, tx, true); err != nil {
		return err
	}
	hasMeta, err := hasTable(ctx, tx, "meta")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, schema+indexSchema); err != nil {
		return fmt.Errorf("creating the tables: %w", err)
	}
	legacy, hasTrace, err := legacyTable(ctx, tx)
	if err != nil {
		return err
	}
	if !legacy {
		if !hasMeta { // a new log: this version put it in its format
			if err := setMeta(ctx, tx, metaSchemaApp, appVersion()); err != nil {
				return fmt.Errorf("recording the log's format: %w", err)
			}
		}
		return tx.Commit()
	}
	insert, err := tx.PrepareContext(ctx, insertBlock)
	if err != nil {
		return err
	}
	defer insert.Close()
	rows, err := tx.QueryContext(ctx, `SELECT `+legacyColumns(hasTrace)+` FROM entries ORDER BY id`)
	if err != nil {
		return fmt.Errorf("moving the entries into blocks (schema 3): %w", err)
	}
	defer rows.Close()
	var batch []*Entry
	var buf []byte
	write := func() error {
		if len(batch) == 0 {
			return nil
		}
		var err error
		buf, err = writeBlock(ctx, insert, batch, buf)
		batch = batch[:0]
		return err
	}
	for rows.Next() {
		e, err := scanLegacy(rows)
		if err != nil {
			return err
		}
		if n := len(batch); n > 0 && (n == legacyBlock || e.ID != batch[n-1].ID+1 || e.PrevHash != batch[n-1].Hash) {
			if err := write(); err != nil {
				return fmt.Errorf("moving the entries into blocks (schema 3): %w", err)
			}
		}
		batch = append(batch, &e)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if err := write(); err != nil {
		return fmt.Errorf("moving the entries into blocks (schema 3): %w", err)
	}
	rows.Close()
	// The schema is raised, never lowered: an older app's table beside the blocks of a later
	// format that allows this version to write (min_writer_schema) leaves that format as it is.
	if _, err := tx.ExecContext(ctx, `DROP TABLE entries`); err != nil {
		return fmt.Errorf("moving the entries into blocks (schema 3): %w", err)
	}
	res, err := tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = ? AND CAST(value AS INTEGER) < ?`, strconv.Itoa(schemaVersion), metaSchema, schemaVersion)
	if err != nil {
		return fmt.Errorf("moving the entries into blocks (schema 3): %w", err)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		if err := setMeta(ctx, tx, metaSchemaApp, appVersion()); err != nil {
			return fmt.Errorf("recording the log's format: %w", err)
		}
	}
	return tx.Commit()
}

// legacyBlock is how many entries of an older database go into one block.
const legacyBlock = 1024

// scanLegacy reads a row of legacyColumns.
func scanLegacy(s scanner) (Entry, error) {
	var e Entry
	err := s.Scan(&e.ID, &e.rawTime, &e.ClientName, &e.ClientVersion, &e.Principal, &e.TokenName, &e.Level, &e.Method,
		&e.Name, &e.Connection, &e.Statement, &e.Outcome, &e.DurationMS, &e.PrevHash, &e.Hash, &e.Trace)
	e.Time, _ = parseTime(e.rawTime)
	return e, err
}

// legacyTable reports whether the database still has the entries table of schemas 1 and 2,
// and whether it has the trace column (schema 2).
func legacyTable(ctx context.Context, q querier) (legacy, hasTrace bool, err error) {
	if legacy, err := hasTable(ctx, q, "entries"); err != nil || !legacy {
		return false, false, err
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info('entries') WHERE name = 'trace'`).Scan(&n); err != nil {
		return true, false, err
	}
	return true, n > 0, nil
}

// hasTable reports whether the database has the table name.
func hasTable(ctx context.Context, q querier, name string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return n > 0, err
}

// OpenReadOnly opens an existing database for reading (the CLI), while the app may be
// writing it. A missing database is an error that matches fs.ErrNotExist.
func OpenReadOnly(path string) (*Log, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	l := &Log{db: db, path: path, readOnly: true, closed: true}
	// A database no app of this version has opened yet is read as it is; one an older app
	// opened again after this one (an empty entries table beside the blocks) is read whole.
	ctx := context.Background()
	if err := checkFormat(ctx, db, false); err != nil {
		db.Close()
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	legacy, hasTrace, err := legacyTable(ctx, db)
	if err == nil && legacy {
		l.legacy = legacyBlocks(hasTrace)
		var blocks bool
		blocks, err = hasTable(ctx, db, "blocks")
		l.noBlocks = !blocks
	}
	if err == nil {
		l.indexed, err = hasTable(ctx, db, "filter_index")
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("activity log %s: %w", path, err)
	}
	return l, nil
}

// dsn is the driver's name for path: WAL (readers never block the writer, and the CLI reads
// while the app writes), a busy timeout for the moments another process holds the lock,
// and BEGIN IMMEDIATE for write transactions so two writers queue instead of failing.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(int(busyTimeout/time.Millisecond))+")")
	if readOnly {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Set("_txlock", "immediate")
	}
	return (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}).String()
}

// createPrivate creates the database file with mode 0600 before SQLite does (SQLite gives
// its -wal and -shm files the database file's mode) and tightens an existing one.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("activity log: %w", err)
	}
	f.Close()
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("activity log: %w", err)
	}
	return nil
}

// IsNotExist reports whether err says the database does not exist yet.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Path is the database file.
func (l *Log) Path() string { return l.path }

// Append queues an entry (see FromRecord; a zero Time means now), waiting at most appendWait. Other
// events worth auditing (a CLI change that raised rights) are appended the same way, then
// flushed. It reports false when the entry was not queued: the queue was full (the drop is
// counted, logged and written to the chain by the writer) or the log is closed or read-only.
func (l *Log) Append(e Entry) bool {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return false
	}
	select {
	case l.queue <- item{entry: &e}:
		if l.stalled.Load() {
			l.stalled.Store(false)
		}
		return true
	default:
	}
	// Full: the writer is behind (a starved process, a slow disk). Wait a moment for room
	// rather than lose the entry; a writer that stays stuck that long is stalled, and until
	// the queue has room again entries are dropped at once, counted, so requests never wait
	// on a stuck disk.
	if !l.stalled.Load() {
		t := time.NewTimer(appendWait)
		defer t.Stop()
		select {
		case l.queue <- item{entry: &e}:
			return true
		case <-t.C:
			l.stalled.Store(true)
		}
	}
	l.dropped.Add(1)
	l.total.Add(1)
	return false
}

// appendWait is how long Append waits for room in a full queue before it drops the entry.
const appendWait = 250 * time.Millisecond

// Err is why the log cannot write now (the last write failed, e.g. the disk is full), or nil.
// The writer retries every half second; the first write that succeeds clears it.
func (l *Log) Err() error {
	if e := l.failing.Load(); e != nil {
		return *e
	}
	return nil
}

// maxPending bounds the entries a failing writer keeps for its next try; more are dropped and
// counted (the drop is written to the chain once writes succeed again).
const maxPending = 4 * maxBatch

// Dropped is how many entries were dropped because the queue was full, since Open.
func (l *Log) Dropped() uint64 { return l.total.Load() }

// send queues a job for the writer, waiting for room.
func (l *Log) send(ctx context.Context, it item) error {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		if l.readOnly {
			return errors.New("activity log: opened read-only")
		}
		return errors.New("activity log: closed")
	}
	select {
	case l.queue <- it:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Flush waits until every entry queued before it is written, and returns the error of the
// last write if it failed.
func (l *Log) Flush(ctx context.Context) error {
	ch := make(chan error, 1)
	if err := l.send(ctx, item{flush: ch}); err != nil {
		return err
	}
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops pruning, writes what is queued and closes the database. A second Close does
// nothing.
func (l *Log) Close(ctx context.Context) error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		if l.readOnly && l.db != nil {
			db := l.db
			l.db = nil
			return db.Close()
		}
		return nil
	}
	l.closed = true
	stop, pruneDone := l.pruneStop, l.pruneDone
	close(l.queue)
	l.mu.Unlock()
	if stop != nil {
		stop()
		<-pruneDone
	}
	l.indexStop()
	<-l.indexDone
	var err error
	select {
	case <-l.done:
	case <-ctx.Done():
		err = fmt.Errorf("activity log: closing before every queued entry was written: %w", ctx.Err())
	}
	return errors.Join(err, l.db.Close())
}

// write is the writer goroutine: it takes entries in batches of up to maxBatch, one
// transaction each, and runs flushes and prunes in queue order.
func (l *Log) write() {
	defer close(l.done)
	defer func() {
		if l.stmts != nil {
			l.stmts.close()
		}
	}()
	var lastErr error
	batch := make([]*Entry, 0, maxBatch)
	// A failed write (a full disk) keeps its entries for the next try, every tick, up to
	// maxPending; until a write succeeds Err reports the failure, and the app serves no
	// request it cannot record (core: mcp.Options.Available).
	commit := func() {
		if len(batch) > 0 {
			if err := l.insert(batch); err != nil {
				lastErr = err
				if l.failing.Swap(&err) == nil {
					l.logger.WithField("entries", len(batch)).Error("activity log: write failed, requests are refused until it can write again: " + l.redactor.Error(err))
				}
				if len(batch) > maxPending {
					l.dropped.Add(uint64(len(batch) - maxPending))
					l.total.Add(uint64(len(batch) - maxPending))
					batch = batch[:maxPending]
				}
				return
			}
			lastErr = nil
			if l.failing.Swap(nil) != nil {
				l.logger.Warn("activity log: writing again; requests are served")
			}
			batch = batch[:0]
		}
		if n := l.dropped.Swap(0); n > 0 {
			l.logger.WithField("dropped", n).Warn("activity log: the queue was full, requests were not recorded")
			note := Entry{Time: time.Now(), Method: "activity/dropped", Outcome: OutcomeDropped,
				Statement: fmt.Sprintf("%d requests were not recorded: the activity queue was full", n)}
			if err := l.insert([]*Entry{&note}); err != nil {
				lastErr = err
			}
		}
	}
	runs := refusalRuns{}
	add := func(e *Entry) {
		if !runs.take(e, time.Now()) {
			batch = append(batch, e)
		}
	}
	endRuns := func(all bool) {
		batch = append(batch, runs.end(time.Now(), all)...)
	}
	// A flush or a prune first writes everything before it, refusal runs included.
	job := func(it item) {
		endRuns(true)
		commit()
		l.run(it, lastErr)
	}
	tick := time.NewTicker(runQuiet / 2)
	defer tick.Stop()
	window := time.NewTimer(0)
	<-window.C
	for {
		var it item
		var ok bool
		select {
		case it, ok = <-l.queue:
		case <-tick.C:
			if endRuns(false); len(batch) > 0 {
				commit()
			}
			continue
		}
		if !ok {
			break
		}
		if it.entry == nil {
			job(it)
			continue
		}
		add(it.entry)
		// Take what else comes within batchWindow, up to a batch: under load one
		// transaction then carries many entries (issue 25: the log costs at most 10% of the
		// server's throughput), and an idle app still writes within milliseconds.
		window.Reset(batchWindow)
	more:
		for len(batch) < maxBatch {
			select {
			case next, open := <-l.queue:
				if !open {
					break more
				}
				if next.entry == nil {
					job(next)
					continue
				}
				add(next.entry)
			case <-window.C:
				break more
			}
		}
		window.Stop()
		commit()
	}
	endRuns(true)
	commit()
}

// run answers a flush or performs a prune.
func (l *Log) run(it item, lastErr error) {
	switch {
	case it.flush != nil:
		it.flush <- lastErr
	case it.prune != nil:
		n, err := l.prune(context.Background(), it.prune.before())
		it.prune.result <- pruneResult{n, err}
	}
}

// insert redacts, chains and writes entries in one transaction, as one block. The head (last
// id and hash) is read inside the transaction, so a second writing process continues the
// same chain.
func (l *Log) insert(batch []*Entry) error {
	ctx := context.Background()
	if l.stmts == nil {
		st, err := prepareWrite(ctx, l.db)
		if err != nil {
			return err
		}
		l.stmts = st
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, hash, err := l.stmts.head(ctx, tx)
	if err != nil {
		return err
	}
	// Short fields repeat from request to request (client, token, method, tool): each is
	// redacted once per batch.
	seen := map[string]string{}
	for _, e := range batch {
		redactEntryCached(e, l.redactor, seen)
		id++
		e.ID, e.PrevHash, e.rawTime = id, hash, formatTime(e.Time)
		e.Hash = computeHash(e)
		hash = e.Hash
	}
	if l.buf, err = writeBlock(ctx, tx.StmtContext(ctx, l.stmts.insert), batch, l.buf); err != nil {
		return err
	}
	if err := l.stmts.extendSegment(ctx, tx, batch, l.segmentSize); err != nil {
		return err
	}
	// A rare huge batch (long statements) does not keep its buffer for the log's lifetime.
	if cap(l.buf) > 4<<20 {
		l.buf = nil
	}
	if _, err := tx.StmtContext(ctx, l.stmts.setHead).ExecContext(ctx, metaHeadID, strconv.FormatInt(id, 10), metaHeadHash, hash); err != nil {
		return err
	}
	return tx.Commit()
}

// writeBlock inserts chained entries (id, prev_hash, hash and stored time set) as one block,
// encoded into buf, which it returns for the next block. The text goes to SQLite as bytes
// (CAST in insertBlock): a string of it would be a megabyte of garbage a batch, and the
// garbage collector's extra work showed in the bench at 64 connections.
func writeBlock(ctx context.Context, insert *sql.Stmt, batch []*Entry, buf []byte) ([]byte, error) {
	minTime, maxTime := batch[0].rawTime, batch[0].rawTime
	for _, e := range batch[1:] {
		minTime, maxTime = min(minTime, e.rawTime), max(maxTime, e.rawTime)
	}
	buf = appendBlock(buf[:0], batch)
	_, err := insert.ExecContext(ctx, batch[0].ID, batch[len(batch)-1].ID, minTime, maxTime, batch[0].PrevHash, buf)
	return buf, err
}

// writeStmts are the writer's statements, prepared once: under load a batch is written every
// few milliseconds, and parsing a statement costs more than writing a row.
type writeStmts struct {
	insert, links, setHead, lastSegment, upsertSegment *sql.Stmt
}

const (
	// insertBlock is the INSERT of one block.
	insertBlock = `INSERT INTO blocks(first_id, last_id, min_time, max_time, prev_hash, entries) VALUES (?,?,?,?,?,CAST(? AS TEXT))`
	// selectLinks reads the head and the anchor in one statement.
	selectLinks = `SELECT key, value FROM meta WHERE key IN ('` + metaHeadID + `','` + metaHeadHash + `','` + metaAnchorID + `','` + metaAnchorHash + `')`
	// upsertHead moves the head (id and hash) in one statement.
	upsertHead = `INSERT INTO meta(key, value) VALUES (?, ?), (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`
)

func prepareWrite(ctx context.Context, db *sql.DB) (*writeStmts, error) {
	st := &writeStmts{}
	for _, p := range []struct {
		to  **sql.Stmt
		sql string
	}{{&st.insert, insertBlock}, {&st.links, selectLinks}, {&st.setHead, upsertHead}, {&st.lastSegment, selectLastSegment}, {&st.upsertSegment, upsertSegment}} {
		s, err := db.PrepareContext(ctx, p.sql)
		if err != nil {
			st.close()
			return nil, fmt.Errorf("activity log: %w", err)
		}
		*p.to = s
	}
	return st, nil
}

func (st *writeStmts) close() {
	for _, s := range []*sql.Stmt{st.insert, st.links, st.setHead, st.lastSegment, st.upsertSegment} {
		if s != nil {
			s.Close()
		}
	}
}

// head is the newest entry's id and hash: the meta head, else the pruning anchor, else
// genesis, read in one prepared query.
func (st *writeStmts) head(ctx context.Context, tx *sql.Tx) (int64, string, error) {
	rows, err := tx.StmtContext(ctx, st.links).QueryContext(ctx)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return 0, "", err
		}
		m[k] = v
	}
	if err := rows.Err(); err != nil {
		return 0, "", err
	}
	for _, link := range [][2]string{{metaHeadID, metaHeadHash}, {metaAnchorID, metaAnchorHash}} {
		if idText := m[link[0]]; idText != "" {
			id, err := strconv.ParseInt(idText, 10, 64)
			if err != nil {
				return 0, "", fmt.Errorf("activity log: meta %s is %q, not a number", link[0], idText)
			}
			return id, m[link[1]], nil
		}
	}
	return 0, GenesisHash, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// anchor is the last pruned entry's id and hash, or (0, GenesisHash).
func anchor(ctx context.Context, q querier) (int64, string, error) {
	id, hash, ok, err := metaLink(ctx, q, metaAnchorID, metaAnchorHash)
	if err != nil || ok {
		return id, hash, err
	}
	return 0, GenesisHash, nil
}

func metaLink(ctx context.Context, q querier, idKey, hashKey string) (int64, string, bool, error) {
	idText, err := getMeta(ctx, q, idKey)
	if err != nil || idText == "" {
		return 0, "", false, err
	}
	hash, err := getMeta(ctx, q, hashKey)
	if err != nil {
		return 0, "", false, err
	}
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return 0, "", false, fmt.Errorf("activity log: meta %s is %q, not a number", idKey, idText)
	}
	return id, hash, true, nil
}

func getMeta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func setMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
