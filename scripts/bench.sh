#!/usr/bin/env bash
# bench.sh — the benchmark figures quoted in the README, from one run on this machine.
# Speed targets live here, never in unit tests. Output: raw `go test -bench` lines, then the
# ratio table for tools/call (issue 2: native ≤ 1.5× floor and ≤ 100 allocs; wazero ≤ 10× native).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT

BENCHTIME=${BENCHTIME:-2s}
echo "== tools/call: native registry, floor, wazero module, MCP Go SDK, mcp-go"
go test -tags conformance -run '^$' -bench 'BenchmarkCallTool' -benchtime "$BENCHTIME" -count 1 ./host/conformance | tee -a "$out"

echo
echo "== workspace, preview, agent, audit"
go test -run '^$' -bench . -benchtime 10x -count 1 ./wasm/workspace ./wasm/preview ./wasm/planner ./wasm/audit 2>&1 | grep -E '^(Benchmark|ok|FAIL)' | tee -a "$out" || true

if eval "$(bash scripts/services.sh 2>/dev/null)"; then
  export WEBCODING_REDIS_URL WEBCODING_POSTGRES_URL
  echo
  echo "== durable backends (claim+complete pairs/s beside each server's floor)"
  go test -run '^$' -bench . -benchtime "$BENCHTIME" -count 1 ./wasm/durable/... ./host/redisstore ./host/pgstore 2>&1 | grep -E '^(Benchmark|ok|FAIL)' | tee -a "$out" || true
fi

echo
echo "== MCP server: tools/call over stdio beside in process (µs per workspace.readFile)"
go test -run '^$' -bench 'BenchmarkMCP' -benchtime "$BENCHTIME" -count 1 ./host/mcpserver 2>&1 | grep -E '^(Benchmark|ok|FAIL)' | tee -a "$out" || true

if command -v chromium >/dev/null 2>&1 || [ -n "${CHROME_PATH:-}" ]; then
  echo
  echo "== IndexedDB durable backend in Chromium (claim+complete pairs/s beside the raw transaction floor)"
  go test -run '^$' -bench ClaimCompleteIndexedDB -benchtime 1x -count 1 ./e2e/durableidb 2>&1 | grep -E '^(Benchmark|ok|FAIL)|pairs' | tee -a "$out" || true
  echo
  echo "== browser timing harness (cold start, warm reload, edit → ack, round trips, wasm size)"
  go test -run '^$' -bench . -benchtime 1x -count 1 ./e2e/browser 2>&1 | grep -E '^(Benchmark|ok|FAIL)' | tee -a "$out" || true
fi

echo
echo "== tools/call summary"
awk '
  /^BenchmarkCallTool\// {
    split($1, p, "/"); name = p[2]; sub(/-[0-9]+$/, "", name)
    for (i = 2; i <= NF; i++) { if ($(i+1) == "ns/op") ns[name] = $i; if ($(i+1) == "allocs/op") al[name] = $i }
  }
  END {
    printf "%-8s %14s %10s\n", "side", "ns/op", "allocs/op"
    split("native floor wazero wazero-abandon gosdk mcpgo", order, " ")
    for (k = 1; k <= 6; k++) { n = order[k]; if (n in ns) printf "%-15s %14.0f %10s\n", n, ns[n], al[n] }
    if (("native" in ns) && ("floor" in ns)) printf "native / floor  = %.2fx (target <= 1.5x)\n", ns["native"] / ns["floor"]
    if (("wazero" in ns) && ("native" in ns)) printf "wazero / native = %.1fx (target <= 10x; termination checks on)\n", ns["wazero"] / ns["native"]
    if (("wazero-abandon" in ns) && ("native" in ns)) printf "wazero-abandon / native = %.1fx (as the CLI and MCP server run it)\n", ns["wazero-abandon"] / ns["native"]
  }' "$out"
