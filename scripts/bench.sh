#!/usr/bin/env bash
# bench.sh (`make bench`): every benchmark, each measured side by side with its peer in one
# run, printing the ratios the issues set as targets.
#   driver   Browse of a 1,000-row page with 768-dim vectors vs a bare GET + JSON decode
#            of the same URL on a real weaviate-server (target: at most 1.2x); and the
#            read paths of issue 19 on a second server with GraphQL off: a filtered 1,000-row
#            page over gRPC vs over GraphQL, and over gRPC vs the bare REST GET + decode
#            (target: gRPC at most 0.5x the bare REST time); and the driver's gRPC page
#            (Weaviate's own stubs) vs the official Go client v5's gRPC Search (reported: the
#            measurement behind the choice in docs/architecture.md)
#   plugin   the same page through the plugin boundary (cmd/weaviate-driver over gRPC) vs the
#            bare GET + decode and the driver in process (target: at most 1.2x the bare one)
#   mcp      tools/list at 1, 16 and 64 connections vs the official Go SDK's stateless
#            streamable HTTP server and a bare net/http handler (targets: >= 1.5x the SDK's
#            throughput, within 1.5x of the bare handler), and the same server with bearer
#            authentication on (backend/auth; target: auth costs at most 10%), and with the
#            activity log on as the app runs it (target: the log costs at most 10%); the size of
#            tools/list (budget 16 KB); and tools/call browse_table of 100 rows on a real
#            weaviate-server at 1, 16 and 64 connections vs the Go SDK serving the same tool
#            with the same driver (reported, no target); and the latency the stdio bridge
#            app-mcp adds to a request against a direct HTTP call (target: under 1 ms at the
#            median); and tools/call list_tables at 50 connections on the real pipeline (auth,
#            activity log, the driver on a real weaviate-server), each server in its own
#            process, vs the Go SDK serving the same tool (issue 42 target: >= 5,000 req/s,
#            p99 under 5 ms, the server's RSS under 60 MB)
#   transfer export of every object (100,000 x 768-dim vectors) to Parquet through the driver
#            plugin vs a bare gRPC cursor walk (targets: at most 1.25x, at least 10,000
#            objects a second), import of that file vs a bare batch writer (target: 1.25x)
#   mapread  the Map tab's read of 100,000 objects x 768 dims (vectormap.Read of one of two
#            named vectors through the driver plugin) vs a bare gRPC read of the same objects
#            and vector (target: at most 1.3x); the walk as before (every vector asked) and the
#            bytes a row across the plugin boundary either way
#   map      the Map tab's layouts in plain Go: the PCA frame of 100,000 x 768-dim vectors
#            (target: under 3 s), the finished UMAP layout of 10,000 (target: under 15 s), and
#            UMAP of all 100,000 (reported)
#   grid     the app's grid in headless Chromium (wails dev with the compiler's optimizations
#            on, as the app ships, + tests/e2e/e2eharness) with
#            10,000 rows x 1,536-dim vectors: time to first rows, scroll frame time at a fast
#            wheel speed (target p95 under 16.7 ms, 60 fps) and as a fling (reported), and the
#            page's JS heap after GC vs the raw JSON of the
#            same objects (target: at most 1.0x); then the Map tab in the same window with
#            100,000 x 768-dim vectors (MapBench): Map to the vectors read against a bare gRPC
#            read of the same objects (reported), to the first frame drawn (target: under 3 s
#            after the vectors arrived) and to the finished layout (reported), and the frame
#            time while panning and while zooming all the points with software WebGL (issue 42
#            target: p95 under 16.7 ms each; the picture drawn moves and scales, the points are
#            drawn again once the gesture ends: that wait is reported);
#            a missed target is printed, not a failure
#   wide     (in the grid run, `-only wide` alone) a table of 50 columns x 10,000 rows
#            (WideBench on the same weaviate-server) scrolled down 120 px a frame and across
#            all the columns and back 30 px a frame in headless Chromium (issue 42 target:
#            p95 under 16.7 ms, no main-thread task over 50 ms from 'longtask' entries), and
#            the same scroll in the app's WebKitGTK window under Xvfb through WebKit's remote
#            inspector (reported)
#   coldstart the built app (scripts/build-app.sh) from the process start to its connection list
#            answering a key press in the real window on a private Xvfb, against a bare Wails
#            window built here that paints one list of the same saved connections (issue 42,
#            targets: median of 5 at most 500 ms, at most 1.5x the bare window); a miss is
#            printed, not a failure
#   postgres page 5,000 of a 500,000-row table read on against page 1 through the PostgreSQL
#            driver (keyset paging; target at most 1.5x), beside page 5,000 by OFFSET with a
#            bare pgx query (the peer); on PostgreSQL 18 with pgvector (PGlite), a 1,000-row page of
#            vector(768) rows and a top-10 search through the plugin protocol against the bare
#            pgx query (targets: at most 1.2x each), and the export of 100,000 x vector(768) to
#            Parquet through the plugin (transfer.Export) against a bare COPY (SELECT …) TO
#            STDOUT of the same rows (targets: at most 1.25x, at least 10,000 rows a second)
#   sqlite   a 1,000-row page of float[768] rows through the plugin protocol against the same
#            driver in the process (target at most 1.3x), page 5,000 of a 500,000-row table
#            against page 1 (target at most 1.5x), and the export of 100,000 x float[768] to
#            Parquet through the plugin (target at least 10,000 rows a second)
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
failed=()

# Each benchmark runs whatever became of the one before it.
step "MCP: tools/list, browse_table and list_tables throughput and latency vs the Go SDK (and a bare handler)"
bash scripts/ensure-weaviate.sh >/dev/null && go run ./bench/mcp || failed+=(mcp)

# The driver's figures for each release the harness runs (issue 40): today's oldest and newest.
for wv in v1.35.2 v1.39.0; do
  step "driver on weaviate-server $wv: Browse vs bare GET + decode, and gRPC vs GraphQL vs bare REST (1,000 objects x 768 dims)"
  if bash scripts/ensure-weaviate.sh "$wv"; then
    APP_WEAVIATE_VERSION=$wv go test -run='^$' -bench=. -benchtime=3s ./bench/driver/ || failed+=("driver-$wv")
    step "plugin on weaviate-server $wv: the same page through the plugin boundary vs bare GET + decode and in process"
    APP_WEAVIATE_VERSION=$wv go test -run='^$' -bench=BrowsePageThroughThePlugin -benchtime=20x ./backend/plugins/host/ || failed+=("plugin-$wv")
  else
    failed+=("driver-$wv" "plugin-$wv")
  fi
done

step "PostgreSQL: page 5,000 of a 500,000-row table read on against page 1 (keyset; target at most 1.5x), beside page 5,000 by OFFSET (issue 38)"
go test -run='^$' -bench=Page5000 -benchtime=50x ./bench/postgres/ || failed+=(postgres)
step "PostgreSQL 18 with pgvector (PGlite): a 1,000-row page of vector(768) rows and a top-10 search through the plugin protocol vs the bare pgx query (targets: at most 1.2x)"
go test -run='^$' -bench='VectorPage|Top10' -benchtime=30x ./bench/postgres/ || failed+=(postgres-vectors)
step "PostgreSQL 18 with pgvector (PGlite): export of 100,000 x vector(768) to Parquet through the plugin vs a bare COPY … TO STDOUT (targets: at most 1.25x, at least 10,000 rows a second)"
go test -run='^$' -bench=ExportToParquet -benchtime=2x -timeout=60m ./bench/postgres/ || failed+=(postgres-export)

step "SQLite: a 1,000-row page of float[768] through the plugin vs in the process (target at most 1.3x), page 5,000 vs page 1 (target at most 1.5x), export of 100,000 x float[768] to Parquet (target at least 10,000 rows a second) (issue 39)"
go test -run='^$' -bench='VectorPage|Page5000' -benchtime=20x ./bench/sqlite/ || failed+=(sqlite)
go test -run='^$' -bench=ExportToParquet -benchtime=2x -timeout=30m ./bench/sqlite/ || failed+=(sqlite-export)

step "transfer: export of 100,000 x 768-dim objects to Parquet vs a bare cursor walk, import vs a bare batch writer (issue 21)"
bash scripts/ensure-weaviate.sh >/dev/null && go run ./bench/transfer || failed+=(transfer)

step "map's read: 100,000 x 768-dim vectors (one of two named) through the driver plugin vs a bare gRPC read (issue 42, target at most 1.3x)"
bash scripts/ensure-weaviate.sh >/dev/null && go run ./bench/mapread || failed+=(mapread)

step "map: the PCA frame of 100,000 x 768-dim vectors, the finished UMAP layout of 10,000 (issue 22)"
go run ./bench/vectormap || failed+=(map)

step "grid and map in headless Chromium: 10,000 rows x 1,536 dims (first rows, scroll frames, JS heap vs raw JSON); the Map tab of 100,000 x 768 dims (read, first frame, layout, panning)"
bash scripts/ensure-weaviate.sh >/dev/null && go run ./bench/grid || failed+=(grid)

step "cold start: the app's window to its connection list answering a key press vs a bare Wails window painting one list (issue 42, target 4)"
go run ./bench/coldstart || failed+=(coldstart)

if [ ${#failed[@]} -gt 0 ]; then die "benchmarks that did not finish: ${failed[*]} (see above)"; fi
