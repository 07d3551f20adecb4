#!/usr/bin/env bash
# bench-compare.sh (`make bench-compare REV=<commit>`): the MCP throughput of this tree
# against an older commit, measured side by side in one run: both bench binaries are built,
# then run in turn ROUNDS times (old, new, old, new, ...) so that whatever else the machine
# does weighs on both alike. It prints each run and the median ratio new/old per level.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
REV="${REV:-${1:-}}"
[ -n "$REV" ] || die "name the commit to compare with: make bench-compare REV=<commit>"
ROUNDS="${ROUNDS:-3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")"
trap 'git worktree remove --force "$WORK/old" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

step "building bench/mcp at $REV and at the working tree"
git worktree add --detach "$WORK/old" "$REV" >/dev/null
(cd "$WORK/old" && go build -o "$WORK/bench-old" ./bench/mcp)
go build -o "$WORK/bench-new" ./bench/mcp

step "$ROUNDS rounds, old and new in turn (app only)"
for i in $(seq 1 "$ROUNDS"); do
  for side in old new; do
    "$WORK/bench-$side" -only app -d "${DUR:-3s}" | awk -v side="$side" '$1=="app" {print side, $3, $4}' | tee -a "$WORK/runs"
  done
done

step "median req/s per level, new / old"
median() { sort -n | awk '{ x[NR] = $1 } END { print x[int((NR + 1) / 2)] }'; }
for level in $(awk '{ print $2 }' "$WORK/runs" | sort -n -u); do
  old=$(awk -v l="$level" '$1 == "old" && $2 == l { print $3 }' "$WORK/runs" | median)
  new=$(awk -v l="$level" '$1 == "new" && $2 == l { print $3 }' "$WORK/runs" | median)
  awk -v l="$level" -v o="$old" -v n="$new" 'BEGIN { printf "  %3s conns: old %8.0f  new %8.0f  new/old %.3f\n", l, o, n, n / o }'
done
