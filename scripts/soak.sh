#!/usr/bin/env bash
# soak.sh (`make soak`): the real app, headless, under 64 concurrent MCP clients against a
# real weaviate-server restarted in the middle, a PostgreSQL cluster restarted at three
# quarters and a SQLite file, each through its driver plugin (issues 25 and 44), for an hour by
# default (SOAK=5m make soak for a shorter run). The clients mix reads, inserts approved and
# declined through the elicitation flow, requests cancelled mid-flight and connections
# dropped mid-request. At the end it checks that every approved insert that returned success
# is on the server and no declined one is, that the activity log verifies and holds one entry
# per request sent, and that the app's RSS, threads and open files are back within 10% of
# their level after the warm-up; it prints the figures and exits 1 when a condition fails.
# Not part of `make test`. See docs/testing.md, "The soak test".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

step "weaviate-server, PostgreSQL 15 and sqlite3 for the soak (make test's set-up)"
bash scripts/setup.sh test || die "the set-up failed (see above)"

step "soak: ${SOAK:-1h} of load, 64 MCP clients on Weaviate, PostgreSQL and SQLite, two database restarts"
go run ./bench/soak -d "${SOAK:-1h}" || die "the soak failed (see above)"
