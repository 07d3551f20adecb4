package resources

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/driver"
	"app/backend/mcp"
)

// PollEvery is how often the Watcher looks for changes while it runs.
const PollEvery = 2 * time.Second

// pollTimeout bounds the reads of one URI in one poll (and of a subscription's baseline).
const pollTimeout = 10 * time.Second

// Publisher is the part of *mcp.Server the Watcher talks to.
type Publisher interface {
	SubscribedResources() []string
	ResourceUpdated(uri string)
	ResourceListChanged()
}

// Watcher notices changes for subscriptions/listen, by polling; nothing else can see a change
// made outside the app (another process creating a collection on the database):
//
//   - the saved connections: when the store's file changes (connections.Store.Stamp) and the
//     connections AI clients may see differ (one added, removed, renamed, moved, or made
//     visible or invisible by its external access), it calls ResourceListChanged;
//   - each subscribed schema or table resource (Publisher.SubscribedResources, so nothing is
//     read while nobody listens): it reads what resources/read would return, opening the
//     connection when needed, and calls ResourceUpdated(uri) when its digest differs from the
//     last one. A connection that became invisible or was removed, or a table that was
//     dropped, is a change too (a read would now be -32602); a read that fails otherwise (the
//     database is unreachable) tells nothing and keeps the last digest.
//
// Subscribe is the server's mcp.Options.OnSubscribe: it keeps the URIs the caller may follow
// and takes their baseline before the subscription is acknowledged, so every change after the
// acknowledgement is reported within one poll.
type Watcher struct {
	d     Deps
	every time.Duration
	log   logrus.FieldLogger

	mu      sync.Mutex
	digests map[string]string // by URI; absent: no baseline yet

	runMu sync.Mutex
	stop  context.CancelFunc
	done  chan struct{}
}

// goneDigest is the digest of a resource that does not exist (any more).
const goneDigest = "gone"

// NewWatcher returns a Watcher over d polling every every (PollEvery when <= 0).
func NewWatcher(d Deps, every time.Duration, log logrus.FieldLogger) *Watcher {
	if every <= 0 {
		every = PollEvery
	}
	if log == nil {
		l := logrus.New()
		l.SetLevel(logrus.WarnLevel)
		log = l
	}
	return &Watcher{d: d, every: every, log: log, digests: map[string]string{}}
}

// Subscribe is mcp.Options.OnSubscribe: of uris it keeps the schema and table resources the
// request in ctx may read now (a visible connection the caller's token may use; the table
// need not exist yet: its creation is a change), and takes the baseline of each that has none.
func (w *Watcher) Subscribe(ctx context.Context, uris []string) []string {
	var out []string
	for _, uri := range uris {
		r, ok := parseWatched(uri)
		if !ok {
			continue
		}
		if _, err := w.d.saved(ctx, r.id); err != nil {
			continue
		}
		out = append(out, uri)
		w.mu.Lock()
		_, have := w.digests[uri]
		w.mu.Unlock()
		if have {
			continue
		}
		bctx, cancel := context.WithTimeout(ctx, pollTimeout)
		dg, ok := w.digest(bctx, r, nil)
		cancel()
		if ok {
			w.mu.Lock()
			if _, have := w.digests[uri]; !have {
				w.digests[uri] = dg
			}
			w.mu.Unlock()
		}
	}
	return out
}

// Start polls for p until Stop; a second Start does nothing.
func (w *Watcher) Start(p Publisher) {
	w.runMu.Lock()
	defer w.runMu.Unlock()
	if w.stop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.stop, w.done = cancel, make(chan struct{})
	var stamp config.Stamp
	list := ""
	if w.d.Store != nil {
		stamp = w.d.Store.Stamp()
		list, _ = w.listDigest(ctx)
	}
	go w.run(ctx, p, stamp, list, w.done)
}

// Stop ends the polling and waits for it; safe when not started.
func (w *Watcher) Stop() {
	w.runMu.Lock()
	stop, done := w.stop, w.done
	w.stop, w.done = nil, nil
	w.runMu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

func (w *Watcher) run(ctx context.Context, p Publisher, stamp config.Stamp, list string, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(w.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.d.Store != nil {
			if cur := w.d.Store.Stamp(); !cur.Same(stamp) {
				stamp = cur
				if dg, err := w.listDigest(ctx); err != nil {
					w.log.WithError(err).Warn("MCP resources: the saved connections cannot be read")
				} else if dg != list {
					list = dg
					p.ResourceListChanged()
				}
			}
		}
		w.pollSubscribed(ctx, p)
	}
}

// pollSubscribed reads every subscribed URI once (drivers shared within the poll) and reports
// the changed ones; baselines of URIs nobody follows any more are dropped.
func (w *Watcher) pollSubscribed(ctx context.Context, p Publisher) {
	uris := p.SubscribedResources()
	want := make(map[string]bool, len(uris))
	for _, u := range uris {
		want[u] = true
	}
	w.mu.Lock()
	for u := range w.digests {
		if !want[u] {
			delete(w.digests, u)
		}
	}
	w.mu.Unlock()
	schemas := map[string]*schemaCache{}
	for _, uri := range uris {
		r, ok := parseWatched(uri)
		if !ok {
			continue
		}
		if schemas[r.id] == nil {
			schemas[r.id] = &schemaCache{tables: map[string]*driver.TableInfo{}}
		}
		pctx, cancel := context.WithTimeout(ctx, pollTimeout)
		dg, ok := w.digest(pctx, r, schemas[r.id])
		cancel()
		if !ok || ctx.Err() != nil {
			continue
		}
		w.mu.Lock()
		old, had := w.digests[uri]
		w.digests[uri] = dg
		w.mu.Unlock()
		if had && old != dg {
			p.ResourceUpdated(uri)
		}
	}
}

// schemaCache keeps one poll's table descriptions of one connection, so a schema and its
// tables subscribed together are read once.
type schemaCache struct {
	tables map[string]*driver.TableInfo
}

func (s *schemaCache) describe(ctx context.Context, drv driver.Driver, table string) (*driver.TableInfo, error) {
	if s == nil {
		return drv.DescribeTable(ctx, table)
	}
	if t, ok := s.tables[table]; ok {
		return t, nil
	}
	t, err := drv.DescribeTable(ctx, table)
	if err == nil {
		s.tables[table] = t
	}
	return t, err
}

// digest is the digest of what resources/read would return for r now, without the caller's
// allowlist; ok false when it cannot be told (the database did not answer).
func (w *Watcher) digest(ctx context.Context, r watched, cache *schemaCache) (string, bool) {
	c, err := w.d.lookup(ctx, r.id)
	if errors.Is(err, mcp.ErrUnknownResource) {
		return goneDigest, true
	}
	if err != nil {
		return "", false
	}
	if w.d.Open == nil {
		return "", false
	}
	drv, _, err := w.d.Open.Open(ctx, c.ID)
	if err != nil {
		return "", false
	}
	var doc any
	if r.table == "" {
		doc, err = readSchema(ctx, cachedDescriber{drv, cache}, c)
	} else {
		doc, err = readTable(ctx, cachedDescriber{drv, cache}, c, r.table)
	}
	if driver.KindOf(err) == driver.KindNotFound {
		return goneDigest, true
	}
	if err != nil {
		return "", false
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(b)
	return string(sum[:]), true
}

// cachedDescriber is a driver whose DescribeTable goes through one poll's cache.
type cachedDescriber struct {
	driver.Driver
	cache *schemaCache
}

func (c cachedDescriber) DescribeTable(ctx context.Context, table string) (*driver.TableInfo, error) {
	return c.cache.describe(ctx, c.Driver, table)
}

// listDigest is the digest of the connections AI clients may see.
func (w *Watcher) listDigest(ctx context.Context) (string, error) {
	list, err := w.d.Store.ListVisibleToAI(ctx)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(list)
	sum := sha256.Sum256(b)
	return string(sum[:]), nil
}

// watched is a subscribable URI taken apart: a schema (table "") or a table.
type watched struct{ id, table string }

// parseWatched recognises app://connections/{id}/schema and
// app://connections/{id}/tables/{table}.
func parseWatched(uri string) (watched, bool) {
	rest, ok := strings.CutPrefix(uri, "app://connections/")
	if !ok {
		return watched{}, false
	}
	parts := strings.Split(rest, "/")
	switch {
	case len(parts) == 2 && parts[0] != "" && parts[1] == "schema":
		return watched{id: parts[0]}, true
	case len(parts) == 3 && parts[0] != "" && parts[1] == "tables":
		t, err := tableVar(map[string]string{"table": parts[2]})
		if err != nil {
			return watched{}, false
		}
		return watched{id: parts[0], table: t}, true
	}
	return watched{}, false
}
