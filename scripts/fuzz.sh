#!/usr/bin/env bash
# fuzz.sh (`make fuzz`): run every Go fuzz target of the project for FUZZTIME each (default
# 15s). The seed corpora already run as ordinary tests in `make test`; this explores further.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
FUZZTIME="${FUZZTIME:-15s}"
status=0
while IFS=: read -r file _ decl; do
  name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' <<<"$decl")
  pkg="./$(dirname "$file")"
  step "fuzzing $name in $pkg for $FUZZTIME"
  go test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" "$pkg" || status=1
done < <(git ls-files '*_test.go' | xargs grep -n '^func Fuzz' | grep -v node_modules)
exit $status
