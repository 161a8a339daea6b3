#!/usr/bin/env bash
# services.sh — install (if missing) and start throwaway Redis and PostgreSQL servers on loopback
# for the durable-store contract tests and benchmarks (host/redisstore, host/pgstore).
#
# Usage:  eval "$(scripts/services.sh)"
#
# Idempotent: a server already answering on its port is left alone; packages already installed are
# not reinstalled, and `apt-get update` runs only when something must be installed.
#   Redis       127.0.0.1:63790, no persistence (--save '' --appendonly no), dir /tmp/webcoding-redis
#   PostgreSQL  127.0.0.1:54329, data dir /tmp/webcoding-pg/data, trust auth on loopback, run as the
#               `postgres` user when invoked as root (PostgreSQL refuses to run as root), database webcoding
# stdout carries only the two `export` lines; every other message goes to stderr.
set -euo pipefail

REDIS_PORT=63790
PG_PORT=54329
REDIS_DIR=/tmp/webcoding-redis
PG_ROOT=/tmp/webcoding-pg
PG_DATA=$PG_ROOT/data
PG_DB=webcoding

log() { printf 'services: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else
    die "need root to run: $*"; fi
}

pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$d" ] && [ -x "$d/pg_ctl" ] && printf '%s\n' "$d"
}

# --- install -----------------------------------------------------------------------------------
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
[ -n "$(pg_bin || true)" ] || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! as_root apt-get install -y --no-install-recommends "${missing[@]}" >&2 2>&1; then
    log "install failed; running apt-get update first"
    as_root apt-get update >&2 2>&1
    as_root apt-get install -y --no-install-recommends "${missing[@]}" >&2 2>&1
  fi
fi
PGBIN=$(pg_bin) || die "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin"

# --- Redis -------------------------------------------------------------------------------------
if [ "$(redis-cli -h 127.0.0.1 -p $REDIS_PORT ping 2>/dev/null || true)" = PONG ]; then
  log "redis already answering on 127.0.0.1:$REDIS_PORT"
else
  mkdir -p "$REDIS_DIR"
  redis-server --bind 127.0.0.1 --port $REDIS_PORT --save '' --appendonly no --daemonize yes \
    --dir "$REDIS_DIR" --logfile "$REDIS_DIR/redis.log" --pidfile "$REDIS_DIR/redis.pid" >&2
  for _ in $(seq 1 50); do
    [ "$(redis-cli -h 127.0.0.1 -p $REDIS_PORT ping 2>/dev/null || true)" = PONG ] && break
    sleep 0.1
  done
  [ "$(redis-cli -h 127.0.0.1 -p $REDIS_PORT ping 2>/dev/null || true)" = PONG ] ||
    die "redis did not start; see $REDIS_DIR/redis.log"
  log "redis started on 127.0.0.1:$REDIS_PORT"
fi

# --- PostgreSQL --------------------------------------------------------------------------------
# pg_run runs a PostgreSQL program as the postgres user when we are root (initdb and postgres refuse root).
pg_run() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_ready() { "$PGBIN/pg_isready" -q -h 127.0.0.1 -p $PG_PORT >/dev/null 2>&1; }

if pg_ready; then
  log "postgres already answering on 127.0.0.1:$PG_PORT"
else
  mkdir -p "$PG_ROOT"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$PG_ROOT"; fi
  if [ ! -s "$PG_DATA/PG_VERSION" ]; then
    rm -rf "$PG_DATA"
    pg_run "$PGBIN/initdb" -D "$PG_DATA" -U postgres --auth=trust -E UTF8 --no-locale >&2
  fi
  pg_run "$PGBIN/pg_ctl" -D "$PG_DATA" -l "$PG_ROOT/postgres.log" -w -t 60 start \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_ROOT -c fsync=off -c full_page_writes=off" >&2 ||
    die "postgres did not start; see $PG_ROOT/postgres.log"
  log "postgres started on 127.0.0.1:$PG_PORT (data $PG_DATA)"
fi
if [ "$("$PGBIN/psql" -h 127.0.0.1 -p $PG_PORT -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'" postgres)" != 1 ]; then
  "$PGBIN/createdb" -h 127.0.0.1 -p $PG_PORT -U postgres "$PG_DB" >&2
  log "database $PG_DB created"
fi

echo "export WEBCODING_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
echo "export WEBCODING_POSTGRES_URL=postgres://postgres@127.0.0.1:$PG_PORT/$PG_DB?sslmode=disable"
