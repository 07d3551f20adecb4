package grpcdriver

import (
	"context"
	"slices"
	"sync"
	"time"

	"app/backend/driver"
)

// The host's end of a plugin is the one place every call the host makes on a connection
// passes, from the window and from AI clients alike, so it is where a schema read can be kept
// and known to be stale: every call that may change a schema (an edit, editor text, a new
// table, a tenant's status, a restore) drops what is kept, before it is sent and again after
// it answers. What it cannot see is a change made by another program; a caller bounds that
// by the age it accepts (CachedTables, CachedDescribe). ListTables and DescribeTable stay
// fresh reads: the window's sidebar and every other caller ask the database as before.

// maxKeptDescriptions bounds the descriptions kept per connection: past it the oldest
// generation is dropped whole (a schema of thousands of tables is read again, not grown
// without end).
const maxKeptDescriptions = 1024

// schemaCache keeps one connection's table list and table descriptions. A read is kept only
// when no schema-changing call began or ended while it ran (gen unchanged), and callers that
// miss at the same moment share one read.
type schemaCache struct {
	now func() time.Time // time.Now; a test's clock

	mu     sync.Mutex
	gen    uint64
	tables *schemaRead[[]driver.Table]
	infos  map[string]*schemaRead[*driver.TableInfo]
}

// schemaRead is one read of the schema, in flight until done is closed.
type schemaRead[T any] struct {
	gen  uint64
	at   time.Time // when the read was sent: its age counts from there
	done chan struct{}
	val  T
	err  error
}

// forget drops everything kept and makes reads in flight unkeepable.
func (s *schemaCache) forget() {
	s.mu.Lock()
	s.gen++
	s.tables, s.infos = nil, nil
	s.mu.Unlock()
}

// changing brackets a call that may change the schema: defer its result.
func (s *schemaCache) changing() func() {
	s.forget()
	return s.forget
}

func (s *schemaCache) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// kept answers from a read no older than maxAge, joining one in flight, or starts a read with
// fetch. get and put reach the read's place in s; both run under s.mu.
func kept[T any](ctx context.Context, s *schemaCache, maxAge time.Duration, get func() *schemaRead[T], put func(*schemaRead[T]), fetch func(context.Context) (T, error)) (T, error) {
	var zero T
	s.mu.Lock()
	for r := get(); r != nil && r.gen == s.gen; r = get() {
		select {
		case <-r.done:
			if r.err == nil && s.clock().Sub(r.at) <= maxAge {
				s.mu.Unlock()
				return r.val, nil
			}
		default:
			// A read in flight for the current generation: wait for it rather than send another.
			s.mu.Unlock()
			select {
			case <-r.done:
			case <-ctx.Done():
				return zero, driver.Wrap(driver.KindCancelled, ctx.Err(), "the schema read was cancelled")
			}
			// Its first caller gave up: this caller has not, and reads for itself.
			if r.err != nil && driver.IsKind(r.err, driver.KindCancelled) && ctx.Err() == nil {
				s.mu.Lock()
				continue
			}
			return r.val, r.err
		}
		break
	}
	r := &schemaRead[T]{gen: s.gen, at: s.clock(), done: make(chan struct{})}
	put(r)
	s.mu.Unlock()

	// The read runs on the first caller's context: callers joining it share its outcome, an
	// error included (an error is never kept past it).
	r.val, r.err = fetch(ctx)
	s.mu.Lock()
	if (r.err != nil || r.gen != s.gen) && get() == r {
		put(nil)
	}
	close(r.done)
	s.mu.Unlock()
	return r.val, r.err
}

// CachedTables is ListTables as read at most maxAge ago, unless App sent the connection
// anything that may change a schema since. The slice is the caller's own.
func (k *Conn) CachedTables(ctx context.Context, maxAge time.Duration) ([]driver.Table, error) {
	s := &k.schema
	t, err := kept(ctx, s, maxAge,
		func() *schemaRead[[]driver.Table] { return s.tables },
		func(r *schemaRead[[]driver.Table]) { s.tables = r },
		k.ListTables)
	if err != nil {
		return nil, err
	}
	return slices.Clone(t), nil
}

// CachedDescribe is DescribeTable as read at most maxAge ago, under the same rule. The
// TableInfo is the caller's own; its slices are shared and must not be changed.
func (k *Conn) CachedDescribe(ctx context.Context, table string, maxAge time.Duration) (*driver.TableInfo, error) {
	s := &k.schema
	info, err := kept(ctx, s, maxAge,
		func() *schemaRead[*driver.TableInfo] { return s.infos[table] },
		func(r *schemaRead[*driver.TableInfo]) {
			switch {
			case r == nil:
				delete(s.infos, table)
			case s.infos == nil:
				s.infos = map[string]*schemaRead[*driver.TableInfo]{}
			case len(s.infos) >= maxKeptDescriptions:
				clear(s.infos)
			}
			if r != nil {
				s.infos[table] = r
			}
		},
		func(ctx context.Context) (*driver.TableInfo, error) { return k.DescribeTable(ctx, table) })
	if err != nil {
		return nil, err
	}
	c := *info
	return &c, nil
}
