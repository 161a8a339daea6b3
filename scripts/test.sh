#!/usr/bin/env bash
# test.sh — every test of the project, as `make test` runs it.
# Starts throwaway Redis and PostgreSQL servers on loopback (scripts/services.sh) so the durable
# backends run their contract suite against real servers; in CI (CI set) a missing server fails
# those tests instead of skipping them.
# Every go test has an explicit -timeout (go test's default of 10 minutes once cut the browser
# suite off mid-run): a hung test fails with its goroutine dump well before a CI job limit.
set -euo pipefail
cd "$(dirname "$0")/.."

eval "$(bash scripts/services.sh)"
export WEBCODING_REDIS_URL WEBCODING_POSTGRES_URL

# Core packages: with the race detector.
go test -race -count=1 -timeout 900s -tags conformance ./wasm/...
# Hosts (wazero, CLI, backends): the guest module is not instrumented by -race anyway.
go test -count=1 -timeout 900s -tags conformance ./host/...
# Real-browser suites (one Chromium per test binary; e2e/browser runs its tests in parallel
# tabs, see e2e/browser/main_test.go). The browser suite's budget is 5 minutes on 2 cores; the
# timeout (25 min) leaves room for a loaded machine; the whole `make test` stays within CI's 90.
go test -count=1 -timeout 1500s -tags conformance ./e2e/browser
go test -count=1 -timeout 900s -tags conformance $(go list ./e2e/... | grep -v '/e2e/browser$')
