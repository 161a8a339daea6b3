#!/usr/bin/env bash
# fuzz.sh — run every Go fuzz target of the project for FUZZTIME each (default 60s), one at a
# time. New crashers land in the package's testdata/fuzz/ and must become named regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-60s}
grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]+\(f \*testing\.F\)' wasm host | sort | while read -r file; do
  pkg="./$(dirname "$file")"
  grep -oE '^func Fuzz[A-Za-z0-9_]+' "$file" | sed 's/^func //' | while read -r target; do
    echo "== $pkg $target ($FUZZTIME)"
    go test -timeout 3600s -tags conformance -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -parallel 1 "$pkg" 2>&1 | tail -n 3
  done
done
