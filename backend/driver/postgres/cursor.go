package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"app/backend/driver"
)

// A relation without a key (a view, a materialized view, a table or partitioned table without
// a primary key) has nothing a walk could resume after: a view has no ctid, and a row's ctid
// moves when it is updated, so it would be read twice or not at all. Such a relation is walked
// by a server-side cursor over one snapshot, which hands out every row once whatever changes
// meanwhile, each step FETCHing the next page. The cursor lives in a READ ONLY REPEATABLE
// READ transaction on a connection the walk holds between steps. With a pool of one (PGlite)
// that connection is all the driver has, and PGlite's wire server runs no other client's
// statement while a transaction is open, so there the cursor is declared WITH HOLD and
// committed at once: the server keeps its rows in the session, and the connection goes back
// to the pool between steps (docs/decisions.md).

const (
	// walkIdle is how long a walk waits for its next step before it is released: one given up
	// between steps (an export that failed writing, a read-ahead nobody claimed) gives back
	// its connection and its snapshot, which holds back VACUUM, within this time.
	walkIdle = 2 * time.Minute
	// walkPrefix starts a walk's token, which no keyset position (JSON text) does.
	walkPrefix = "walk:"
	// releaseTimeout bounds giving back a walk nobody waits for.
	releaseTimeout = 10 * time.Second
)

// walkToken is a step's place in a cursor walk: the walk's id, random so that a walk is
// stepped only by whoever it was given to, and how many of its rows were read before.
type walkToken struct {
	id  string
	pos int64
}

func (k walkToken) String() string { return walkPrefix + k.id + ":" + strconv.FormatInt(k.pos, 10) }

func parseWalkToken(s string) (walkToken, bool) {
	rest, ok := strings.CutPrefix(s, walkPrefix)
	if !ok {
		return walkToken{}, false
	}
	id, pos, ok := strings.Cut(rest, ":")
	n, err := strconv.ParseInt(pos, 10, 64)
	if !ok || err != nil || n < 0 || len(id) != 32 {
		return walkToken{}, false
	}
	return walkToken{id: id, pos: n}, true
}

// walks are a driver's cursor walks in progress. Lock order: a walk's mu, then walks.mu.
type walks struct {
	mu   sync.Mutex
	byID map[string]*cursorWalk
	// closed: the driver was closed, and no walk opens until it connects again.
	closed bool
	// idle is walkIdle unless a test shortens it.
	idle time.Duration
}

// cursorWalk is one walk by a cursor.
type cursorWalk struct {
	mu         sync.Mutex // one step at a time
	id, cursor string
	// name and ask are the table as named and the filters and vectors the first step asked
	// for: the cursor holds them, so every step must ask the same.
	name, ask  string
	t          *table
	cols, vecs []column
	vectors    bool
	vals       filterValues
	pool       *pgxpool.Pool
	// held: the walk holds conn and tx between steps; else its cursor is WITH HOLD in the
	// session of a pool of one, and declared once its transaction committed (so release
	// closes it there).
	held     bool
	conn     *pgxpool.Conn
	tx       pgx.Tx
	declared bool
	// ctx ends when the walk is released, and with it a step in progress (Close).
	ctx  context.Context
	stop context.CancelFunc
	pos  int64 // rows fetched
	// last is the page read before pos, answered again to a step that asks for it again
	// (the plugin's read-ahead may read a page whose answer is then lost).
	last    *driver.ScanPage
	lastPos int64
	// gen counts steps, so an idle timer armed before the latest step does nothing.
	gen   int
	timer *time.Timer
	done  bool
}

// openWalk declares a cursor over t's rows matching req's filters and reads its first page.
func (d *Driver) openWalk(ctx context.Context, t *table, name string, req driver.ScanRequest) (*driver.ScanPage, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	var args []any
	where, vals, err := d.where(t, req.Filters, &args)
	if err != nil {
		return nil, err
	}
	cols, vecs, err := scanColumnsFor(t, req)
	if err != nil {
		return nil, err
	}
	list := selectList(cols)
	if req.Vectors {
		for i, v := range vecs {
			list += ", " + ident(v.Name) + "::text" + alias(len(cols)+i)
		}
	}
	id := randomID()
	maxConns := p.Config().MaxConns
	w := &cursorWalk{id: id, cursor: "app_walk_" + id, name: name, ask: askOf(req), t: t, cols: cols, vecs: vecs,
		vectors: req.Vectors, vals: vals, pool: p, held: maxConns > 1}
	w.ctx, w.stop = context.WithCancel(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := d.walks.add(w, maxConns, t); err != nil {
		w.stop()
		return nil, err
	}
	sctx, cancel := w.bind(ctx)
	defer cancel()
	if err := w.declare(sctx, "SELECT "+list+" FROM "+t.sql()+where, args); err != nil {
		return nil, d.walkFailed(ctx, w, err)
	}
	return d.fetch(ctx, w, req.Limit)
}

// stepWalk reads the page of the walk tok names.
func (d *Driver) stepWalk(ctx context.Context, name string, tok walkToken, req driver.ScanRequest) (*driver.ScanPage, error) {
	w := d.walks.get(tok.id)
	if w == nil {
		return nil, d.walkGone(name)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return nil, d.walkGone(name)
	}
	if w.name != name || w.ask != askOf(req) {
		return nil, errorf(driver.KindInvalidArgument, "a walk goes on over the table, with the filters and vectors, it began with (%s)", w.t.qualified())
	}
	w.gen++
	if w.timer != nil {
		w.timer.Stop()
	}
	switch {
	case tok.pos == w.pos:
		return d.fetch(ctx, w, req.Limit)
	case tok.pos == w.lastPos && w.last != nil:
		d.idleAfter(w)
		return w.last, nil
	}
	d.idleAfter(w)
	return nil, errorf(driver.KindInvalidArgument, "the walk of %s has read %d rows, not %d: ask for the page after the last one it gave", w.t.qualified(), w.pos, tok.pos)
}

// fetch reads the walk's next page, of up to limit rows. The walk is released after its last
// page, or a failure.
func (d *Driver) fetch(ctx context.Context, w *cursorWalk, limit int) (*driver.ScanPage, error) {
	if limit <= 0 {
		limit = scanStep
	}
	sctx, cancel := w.bind(ctx)
	defer cancel()
	page := newScanPage(w.cols, w.vecs, w.vectors, scanVectorCount(w.t))
	err := w.query(sctx, "FETCH FORWARD "+strconv.Itoa(limit)+" FROM "+w.cursor, func(rows pgx.Rows) error {
		_, err := scanRows(rows, w.t, w.cols, 0, w.vectors, page)
		return err
	})
	if err != nil {
		return nil, d.walkFailed(ctx, w, err)
	}
	if len(page.Rows) < limit {
		d.endWalk(w)
		return page, nil
	}
	w.last, w.lastPos = page, w.pos
	w.pos += int64(len(page.Rows))
	page.Next = walkToken{id: w.id, pos: w.pos}.String()
	d.idleAfter(w)
	return page, nil
}

// declare opens the walk's cursor: in a READ ONLY transaction, so a view over a function
// that writes is refused by the server, and REPEATABLE READ, one snapshot for the walk. In a
// pool of one the transaction commits at once, the cursor WITH HOLD.
func (w *cursorWalk) declare(ctx context.Context, query string, args []any) error {
	conn, err := w.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		conn.Release()
		return err
	}
	w.conn, w.tx = conn, tx // released with the walk, should anything below fail
	how := " NO SCROLL CURSOR FOR "
	if !w.held {
		how = " NO SCROLL CURSOR WITH HOLD FOR "
	}
	if _, err := tx.Exec(ctx, "DECLARE "+w.cursor+how+query, args...); err != nil {
		return err
	}
	if w.held {
		return nil
	}
	// The commit runs the query to its end and keeps its rows in the session.
	err = tx.Commit(ctx)
	w.conn, w.tx = nil, nil
	conn.Release()
	w.declared = err == nil
	return err
}

// query runs q on the walk's cursor: in the transaction it holds, or on the pool's one
// connection, given back at once.
func (w *cursorWalk) query(ctx context.Context, q string, read func(pgx.Rows) error) error {
	run := func(rows pgx.Rows, err error) error {
		if err != nil {
			return err
		}
		defer rows.Close()
		return read(rows)
	}
	if w.held {
		return run(w.tx.Query(ctx, q, pgx.QueryExecModeSimpleProtocol))
	}
	conn, err := w.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	return run(conn.Query(ctx, q, pgx.QueryExecModeSimpleProtocol))
}

// bind is ctx, ended also when the walk is released from elsewhere (Close).
func (w *cursorWalk) bind(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(w.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// release gives back what the walk holds: its transaction and connection, or its WITH HOLD
// cursor, whose rows the server keeps until it is closed. Called with w.mu held.
func (w *cursorWalk) release() {
	if w.done {
		return
	}
	w.done, w.last = true, nil
	w.stop()
	if w.timer != nil {
		w.timer.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	if w.conn != nil {
		// A rollback that fails leaves the connection in a transaction, which the pool then
		// closes rather than reuses.
		_ = w.tx.Rollback(ctx)
		w.conn.Release()
		w.conn, w.tx = nil, nil
	}
	if w.declared {
		if conn, err := w.pool.Acquire(ctx); err == nil {
			_, _ = conn.Exec(ctx, "CLOSE "+w.cursor)
			conn.Release()
		}
	}
}

// walkFailed ends the walk on its failure, and says it as the driver does, once the walk's
// connection is given back (failed may ask the server about the filters' values). Called
// with w.mu held.
func (d *Driver) walkFailed(ctx context.Context, w *cursorWalk, err error) error {
	closed := w.ctx.Err() != nil // released from elsewhere, before the end below releases it
	d.endWalk(w)
	var pe *pgconn.PgError
	switch {
	case driver.ContextError(ctx) != nil:
		return driver.ContextError(ctx)
	case errors.As(err, &pe) && pe.Code == "34000":
		return driver.Wrap(driver.KindQueryFailed, err, "the cursor walking %s is gone from the server's session (a statement run as a write resets the session; or the connection was replaced): start again", w.t.qualified())
	case closed && !errors.As(err, &pe):
		return driver.Wrap(driver.KindConnection, err, "the walk of %s ended: the connection was closed", w.t.qualified())
	}
	return d.readFailed(ctx, w.vals, err, w.t)
}

func (d *Driver) walkGone(name string) error {
	return errorf(driver.KindInvalidArgument, "the walk of %s is not open: it ended (read to its end, failed, cancelled, or idle for more than %s), or this connection never began it; start it again", name, d.walks.idleTime())
}

// idleAfter releases the walk after the idle time, unless another step comes first. Called
// with w.mu held.
func (d *Driver) idleAfter(w *cursorWalk) {
	gen := w.gen
	w.timer = time.AfterFunc(d.walks.idleTime(), func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.gen == gen {
			d.endWalk(w)
		}
	})
}

// endWalk releases w and forgets it. Called with w.mu held.
func (d *Driver) endWalk(w *cursorWalk) {
	d.walks.mu.Lock()
	if d.walks.byID[w.id] == w {
		delete(d.walks.byID, w.id)
	}
	d.walks.mu.Unlock()
	w.release()
}

// add registers w, unless the driver is closed, or walks holding connections would leave
// none of the pool's for anything else: they are refused rather than left to wait, since a
// walk given up between steps holds its connection until walkIdle.
func (ws *walks) add(w *cursorWalk, maxConns int32, t *table) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return errorf(driver.KindConnection, "not connected")
	}
	if w.held {
		n := 0
		for _, o := range ws.byID {
			if o.held {
				n++
			}
		}
		if n >= int(maxConns)-1 {
			return errorf(driver.KindUnsupported, "%s has no key, so reading it whole holds a server connection, and %d such reads (exports, maps) already hold all of this connection's %d but the one kept for everything else: let one finish (one given up ends after %s idle), or raise Connections",
				t.qualified(), n, maxConns, ws.idleLocked())
		}
	}
	if ws.byID == nil {
		ws.byID = map[string]*cursorWalk{}
	}
	ws.byID[w.id] = w
	return nil
}

func (ws *walks) get(id string) *cursorWalk {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.byID[id]
}

func (ws *walks) idleTime() time.Duration {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.idleLocked()
}

func (ws *walks) idleLocked() time.Duration {
	if ws.idle > 0 {
		return ws.idle
	}
	return walkIdle
}

// endAll releases every walk, stopping any step in progress, before the pool they hold
// connections of closes (its Close waits for them). closed keeps new walks out until the
// driver connects again.
func (ws *walks) endAll(closed bool) {
	ws.mu.Lock()
	all := ws.byID
	ws.byID, ws.closed = nil, closed
	ws.mu.Unlock()
	for _, w := range all {
		w.stop()
		w.mu.Lock()
		w.release()
		w.mu.Unlock()
	}
}

// askOf is what a step asks of a walk's rows beyond their page: its filters and vectors.
func askOf(req driver.ScanRequest) string {
	filters := req.Filters
	if len(filters) == 0 {
		filters = nil
	}
	b, _ := json.Marshal(struct {
		Filters     []driver.Filter
		Vectors     bool
		VectorNames []string `json:",omitempty"`
	}{filters, req.Vectors, req.VectorNames})
	return string(b)
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand does not fail (it crashes the program instead)
	return hex.EncodeToString(b)
}
