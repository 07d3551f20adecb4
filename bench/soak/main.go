// Command soak is `make soak` (issue 25, "Faults and load"; issue 44 adds the SQL drivers):
// the real app, headless, under 64 concurrent MCP clients for an hour (-d), each client on one
// of three real databases through its driver plugin (a weaviate-server, a PostgreSQL 15
// cluster, a SQLite file), with weaviate-server restarted in the middle and PostgreSQL at
// three quarters, and then the checks that nothing was lost or leaked:
//
//   - the clients mix reads (tools/list, list_tables, browse_table, two execute_query reads in
//     each database's language), inserts approved through the elicitation flow
//     (input_required, then the same call with the requestState and an accepted form), inserts
//     declined the same way, requests cancelled mid-flight (the HTTP request's context, or
//     notifications/cancelled) and connections closed mid-request. Every insert writes a
//     unique marker into body;
//   - each restarted database is stopped (its clients see failures: counted, not errors of
//     the soak) and started again on the same port and data;
//   - at the end: every approved insert whose call returned success is in its database and no
//     declined one is (read back with the database's own tools: Weaviate's REST API, psql,
//     sqlite3); the activity log's chain verifies and holds exactly one entry per request the
//     clients wrote out; and the app's resident memory, goroutines and open files are back
//     within 10% of what they were after the warm-up, both measured idle, after a garbage
//     collection. The app exposes no goroutine count, so they are counted from its runtime's
//     own scheduler trace (GODEBUG=schedtrace,scheddetail: one line per goroutine), which
//     needs no change to it.
//
// A violated condition exits 1 after the table of figures. Only loopback is used.
//
// Usage: go run ./bench/soak [-d 1h] [-clients 64] [-per-token 2] [-think 20ms] [-keep]
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"app/internal/testkit/pgnode"
	"app/internal/testkit/weaviatenode"
)

type config struct {
	duration, warmup, think, settle time.Duration
	clients, perToken               int
	limit                           float64 // allowed growth of the footprint, as a fraction
	keep                            bool
}

func main() {
	var cfg config
	flag.DurationVar(&cfg.duration, "d", time.Hour, "how long the clients run, warm-up included")
	flag.DurationVar(&cfg.warmup, "warmup", 0, "warm-up before the footprint's baseline (0: a sixth of -d, between 20s and 5m)")
	flag.DurationVar(&cfg.think, "think", 20*time.Millisecond, "mean pause of a client between two operations (uniform, 0 to twice this)")
	flag.DurationVar(&cfg.settle, "settle", 5*time.Minute, "how long the idle app may take at the end to come back within the limit")
	flag.IntVar(&cfg.clients, "clients", 64, "concurrent MCP clients")
	flag.IntVar(&cfg.perToken, "per-token", 2, "clients sharing one token (the app lets one token have 8 requests in flight)")
	flag.Float64Var(&cfg.limit, "limit", 0.10, "allowed growth of RSS, threads and open files from the warm-up to the end")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the temporary directory (logs, config dir, weaviate data) after a run that passed")
	flag.Parse()
	if cfg.warmup == 0 {
		cfg.warmup = min(max(cfg.duration/6, 20*time.Second), 5*time.Minute)
	}
	if cfg.warmup >= cfg.duration || cfg.clients < 1 || cfg.perToken < 1 {
		fmt.Fprintln(os.Stderr, "soak: -warmup must be shorter than -d, and -clients and -per-token at least 1")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// run is the whole soak; it returns an error when something could not be done or a
// condition does not hold.
func run(ctx context.Context, cfg config) (err error) {
	tmp, err := os.MkdirTemp("", "app-soak-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil || cfg.keep {
			say("logs, config dir and weaviate data kept in %s", tmp)
			return
		}
		os.RemoveAll(tmp)
	}()

	step("build the app (go build, as `make headless` does)")
	bin, err := buildApp(ctx, tmp)
	if err != nil {
		return err
	}

	step("start weaviate-server " + weaviatenode.Version() + " on loopback")
	wlog, err := os.Create(filepath.Join(tmp, "weaviate.log"))
	if err != nil {
		return err
	}
	defer wlog.Close()
	node, err := startWeaviate(ctx, filepath.Join(tmp, "weaviate-data"), wlog)
	if err != nil {
		return err
	}
	defer func() { node.Stop() }() // node is the restarted one by then
	say("%s (data in %s)", node.URL, node.DataDir)

	step("start PostgreSQL (Debian's, as make test's) and make the SQLite file")
	pg, err := startPostgres(ctx)
	if err != nil {
		return err
	}
	defer pg.Stop()
	say("PostgreSQL %s on 127.0.0.1:%d", pg.Version, pg.Port)
	sqlitePath, err := makeSQLite(ctx, tmp)
	if err != nil {
		return err
	}
	say("SQLite %s", sqlitePath)
	dbs := []*database{weaviateDB(&node), postgresDB(pg), sqliteDB(sqlitePath)}

	nTokens := (cfg.clients + cfg.perToken - 1) / cfg.perToken
	step(fmt.Sprintf("configure: the three driver plugins, a connection to each database, rate limit off, %d fullAccess tokens", nTokens))
	cli := newAppCLI(bin, filepath.Join(tmp, "config"))
	tokens, err := configure(ctx, cli, node, filepath.Join(tmp, "registry"), nTokens)
	if err != nil {
		return err
	}
	if err := addSQLConnections(ctx, cli, pg, sqlitePath); err != nil {
		return err
	}
	before, err := verifyActivity(ctx, cli)
	if err != nil {
		return err
	}

	step("start app --headless")
	alog, err := os.Create(filepath.Join(tmp, "app.log"))
	if err != nil {
		return err
	}
	defer alog.Close()
	trace := newTraceWatch()
	app, err := startApp(ctx, cli, io.MultiWriter(alog, trace))
	if err != nil {
		return err
	}
	defer func() {
		select {
		case <-app.exited:
		default:
			_ = app.cmd.Process.Kill()
			<-app.exited
		}
	}()
	say("pid %d, MCP on 127.0.0.1:%d, log %s", app.pid, app.port, alog.Name())

	res, err := soak(ctx, cfg, app, trace, dbs, &node, pg, tokens)
	if err != nil {
		return err
	}

	step("stop the app (SIGTERM), verify its activity log, read the inserts back with each database's own tool")
	res.exitErr = app.stop(ctx)
	if res.after, res.verifyErr = verifyActivity(ctx, cli); res.verifyErr == nil && res.after.Entries-before.Entries != res.sent {
		// Which requests the log misses, or which entries it has for nothing sent: by the
		// traceparent every request carried.
		if res.unlogged, res.unknownEntries, err = matchActivity(ctx, cli, res.traceID, res.sentList); err != nil {
			return err
		}
	}
	res.before = before
	found := map[string]int{}
	for _, d := range dbs {
		m, err := d.markers(ctx, res.runID)
		if err != nil {
			return err
		}
		// Each marker names its client, and each client one database: the union is exact.
		for k, n := range m {
			found[k] += n
		}
	}
	res.writes = checkWrites(res.total, found)
	return report(os.Stdout, cfg, res)
}

// result is everything the report needs.
type result struct {
	runID, traceID      string
	total               *tally
	sent                int
	sentList            []sentRequest
	unlogged            map[string]int // requests sent with no entry in the log, by operation
	unknownEntries      int            // entries of the log for no request sent
	dbs                 []*database
	restartErr          map[string]error // by database kind, for the restarted ones
	loadTime            time.Duration
	baseline, end, peak sample
	samples             int
	settledIn           time.Duration
	exitErr, verifyErr  error
	before, after       verification
	writes              writes
}

// soak runs the load: the warm-up, the idle baseline, the rest with weaviate-server restarted
// in its middle and PostgreSQL at three quarters, and the idle end. Client i uses database
// i mod 3.
func soak(ctx context.Context, cfg config, app *appProcess, trace *traceWatch, dbs []*database, node **weaviatenode.Node, pg *pgnode.Node, tokens []string) (_ *result, err error) {
	// An app that dies ends the soak at once, saying so, rather than at the next timeout.
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-app.exited:
			cancel(fmt.Errorf("app --headless exited during the soak (%v): see its log", app.err))
		case <-ctx.Done():
		}
	}()
	defer func() {
		if err != nil && context.Cause(ctx) != nil {
			err = context.Cause(ctx)
		}
	}()
	res := &result{runID: time.Now().UTC().Format("150405"), traceID: randomHex(16), dbs: dbs, total: newTally(), restartErr: map[string]error{}}
	// One pool for every client, kept under the app's 64 connections (a 65th waits to be
	// accepted until one closes, and kept-alive connections close only when idle for 30 s):
	// the cancelling and dropping clients open connections of their own besides it.
	transport := &http.Transport{DialContext: dialTracked, MaxConnsPerHost: cfg.clients * 13 / 16, MaxIdleConnsPerHost: cfg.clients, IdleConnTimeout: 20 * time.Second}
	hc := &http.Client{Transport: transport}
	workers := make([]*worker, cfg.clients)
	clients := make([]*mcpClient, cfg.clients)
	for i := range workers {
		clients[i] = newMCPClient(app.port, tokens[i/cfg.perToken], fmt.Sprintf("soak-%02d", i), res.traceID, int64(i+1)*1_000_000_000, hc)
		workers[i] = newWorker(i, dbs[i%len(dbs)], clients[i], res.runID, cfg.think)
	}
	smp := &sampler{}
	sctx, stopSampler := context.WithCancel(ctx)
	defer stopSampler()
	go smp.run(sctx, app.pid, trace, 5*time.Second)

	step(fmt.Sprintf("warm-up: %d clients for %s", cfg.clients, cfg.warmup))
	start := time.Now()
	phase(ctx, cfg.warmup, func(p context.Context) { runLoad(ctx, p, workers) })
	res.loadTime = time.Since(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	step("baseline: the app idle after the warm-up, after a garbage collection")
	if res.baseline, err = idle(ctx, app, trace, transport); err != nil {
		return nil, err
	}
	say("RSS %s, goroutines %d, open files %d, threads %d, live heap %.0f MB",
		kb(res.baseline.rssKB), res.baseline.goroutines, res.baseline.fds, res.baseline.threads, res.baseline.liveMB)

	rest := cfg.duration - cfg.warmup
	step(fmt.Sprintf("load: %d clients for %s, weaviate-server restarted after %s, PostgreSQL after %s", cfg.clients, rest, rest/2, rest*3/4))
	weaviateBack, pgBack := make(chan error, 1), make(chan error, 1)
	start = time.Now()
	phase(ctx, rest, func(p context.Context) {
		go func() {
			weaviateBack <- restartAfter(ctx, p, rest/2, dbs[0].out, "weaviate-server", weaviateRestart(node))
		}()
		go func() { pgBack <- restartAfter(ctx, p, rest*3/4, dbs[1].out, "PostgreSQL", pgRestart(pg)) }()
		runLoad(ctx, p, workers)
	})
	res.loadTime += time.Since(start)
	res.restartErr[dbs[0].kind], res.restartErr[dbs[1].kind] = <-weaviateBack, <-pgBack
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}

	step("end: the app idle again, until within the limit of the baseline")
	stopSampler()
	res.peak, res.samples, err = smp.result()
	if err != nil {
		return nil, err
	}
	settleStart := time.Now()
	if res.end, err = settle(ctx, app, trace, transport, res.baseline, cfg); err != nil {
		return nil, err
	}
	res.settledIn = time.Since(settleStart)
	for _, w := range workers {
		res.total.merge(w.t)
	}
	for _, c := range clients {
		res.sentList = append(res.sentList, c.sentRequests()...)
	}
	res.sent = len(res.sentList)
	return res, nil
}

// phase runs f with a context that ends after d (or with ctx), and returns when f does.
func phase(ctx context.Context, d time.Duration, f func(context.Context)) {
	p, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	f(p)
}

// restarter halts a database and returns how to start it again on the same port and data.
type restarter func(ctx context.Context) (resume func(context.Context) error, err error)

func weaviateRestart(node **weaviatenode.Node) restarter {
	return func(context.Context) (func(context.Context) error, error) {
		h, err := (*node).Halt()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error {
			n, err := h.Restart(ctx)
			if err != nil {
				h.Discard()
				return err
			}
			*node = n
			return nil
		}, nil
	}
}

func pgRestart(pg *pgnode.Node) restarter {
	return func(ctx context.Context) (func(context.Context) error, error) {
		if err := pg.Halt(ctx); err != nil {
			return nil, err
		}
		return pg.Resume, nil
	}
}

// restartAfter halts a database after d, waits until a client has seen the outage (at most
// 30 s: a restart nobody noticed is still a restart), and starts it again on the same port
// and data.
func restartAfter(ctx, p context.Context, d time.Duration, out *outage, name string, halt restarter) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.Done():
		return fmt.Errorf("the load ended before the restart was due")
	case <-t.C:
	}
	// The outage starts with the stop, not when the process is gone: a stopping server
	// already refuses work.
	out.setHalted(time.Now())
	resume, err := halt(ctx)
	if err != nil {
		return fmt.Errorf("stop %s: %w", name, err)
	}
	say("%s stopped", name)
	noticed, cancel := context.WithTimeout(ctx, 30*time.Second)
	select {
	case <-out.noticed:
	case <-noticed.Done():
	}
	cancel()
	if err := resume(ctx); err != nil {
		return fmt.Errorf("restart %s: %w", name, err)
	}
	out.setReady(time.Now())
	say("%s ready again on the same port", name)
	return nil
}

// idle waits until the app holds no client connection, has run a garbage collection and
// then printed a scheduler trace, and samples it: the state the footprint is compared in.
func idle(ctx context.Context, app *appProcess, trace *traceWatch, transport *http.Transport) (sample, error) {
	transport.CloseIdleConnections()
	if err := waitNoConnections(ctx, app.port); err != nil {
		return sample{}, err
	}
	// The runtime forces a collection in a process idle for two minutes.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	now, _ := trace.state()
	st, err := trace.waitFor(ctx, "garbage collection", func(s traceState) bool { return s.gcs > now.gcs })
	if err != nil {
		return sample{}, err
	}
	if st, err = trace.waitFor(ctx, "scheduler trace", func(s traceState) bool { return s.scheds > st.scheds }); err != nil {
		return sample{}, err
	}
	return sampleApp(app.pid, st)
}

// sampleApp is the app's /proc figures with the runtime's last reports.
func sampleApp(pid int, st traceState) (sample, error) {
	s, err := readProc(pid)
	s.liveMB, s.goroutines = st.liveMB, st.goroutines
	return s, err
}

// settle samples the idle app as idle does, then again at each report of its runtime and
// every second (the runtime returns freed memory to the system in the background) until the
// footprint is within the limit of base, or cfg.settle has passed; it returns the last
// sample.
func settle(ctx context.Context, app *appProcess, trace *traceWatch, transport *http.Transport, base sample, cfg config) (sample, error) {
	s, err := idle(ctx, app, trace, transport)
	if err != nil {
		return s, err
	}
	deadline := time.NewTimer(cfg.settle)
	defer deadline.Stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !within(s, base, cfg.limit) {
		st, next := trace.state()
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-deadline.C:
			return s, nil
		case <-next:
			st, _ = trace.state()
		case <-tick.C:
		}
		if s, err = sampleApp(app.pid, st); err != nil {
			return s, err
		}
	}
	return s, nil
}

// within reports whether RSS, goroutines and open files of s are at most limit above base.
func within(s, base sample, limit float64) bool {
	return grew(s.rssKB, base.rssKB) <= limit && grew(s.goroutines, base.goroutines) <= limit && grew(s.fds, base.fds) <= limit
}

// grew is the relative change from base to v.
func grew(v, base int) float64 {
	if base == 0 {
		return 0
	}
	return float64(v-base) / float64(base)
}

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func step(s string) { fmt.Printf("\n==> %s\n", s) }

func say(format string, a ...any) { fmt.Printf("    "+format+"\n", a...) }

func kb(v int) string { return fmt.Sprintf("%.1f MB", float64(v)/1024) }
