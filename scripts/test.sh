#!/usr/bin/env bash
# test.sh — every test of the project, as `make test` runs it.
# Starts throwaway Redis and PostgreSQL servers on loopback (scripts/services.sh) so the durable
# backends run their contract suite against real servers; in CI (CI set) a missing server fails
# those tests instead of skipping them.
set -euo pipefail
cd "$(dirname "$0")/.."

eval "$(bash scripts/services.sh)"
export WEBCODING_REDIS_URL WEBCODING_POSTGRES_URL

# Core packages: with the race detector.
go test -race -count=1 -tags conformance ./wasm/...
# Hosts (wazero, CLI, backends): the guest module is not instrumented by -race anyway.
go test -count=1 -tags conformance ./host/... ./e2e/...
