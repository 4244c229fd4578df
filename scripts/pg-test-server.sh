#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + pgvector server for the @zerda/postgres suite.
#
#   scripts/pg-test-server.sh start   install what is missing (as root), start a fresh server;
#                                     prints the app's connection URL on stdout (last line)
#   scripts/pg-test-server.sh stop    stop it and delete its files
#
# The server runs as the `postgres` user from a data directory under .tmp/pg-<port> (or a private
# directory under /tmp when the checkout is not reachable by that user), listens only on a
# private Unix socket in that directory (no TCP), and holds one database `zerda_test` owned by the
# role `zerda_app` (LOGIN, not a superuser: row-level security applies to it) with the `vector`
# extension created. Debian 12 ships PostgreSQL 15 but no pgvector package: pgvector is built from
# the vendored source archive (shared/vendor/pgvector-*.tar.gz beside the repository) when the
# extension is missing. Exits 2 with a reason on stderr when the server cannot be provided (not
# root and PostgreSQL/pgvector not installed, no vendored archive, …).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PGBIN=${ZERDA_PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=${ZERDA_PG_PORT:-55432}
DIR=${ZERDA_PG_DIR:-$ROOT/.tmp/pg-$PORT}
# Where the running server's directory is recorded (it moves to /tmp when .tmp is unreachable).
STATE="$ROOT/.tmp/pg-dir.$PORT"

unavailable() {
  echo "PostgreSQL test server unavailable: $*" >&2
  exit 2
}

as_postgres() {
  # From /, which the postgres user can always enter (the caller's directory may be private).
  if [ "$(id -un)" = "postgres" ]; then (cd / && "$@"); else (cd / && runuser -u postgres -- "$@"); fi
}

vendor_archive() {
  local d
  for d in "${ZERDA_VENDOR_DIR:-}" "$ROOT/../shared/vendor" "$ROOT/shared/vendor" "$ROOT/../../shared/vendor"; do
    [ -n "$d" ] || continue
    ls "$d"/pgvector-*.tar.gz 2>/dev/null | sort | tail -n 1 && return 0
  done
  return 1
}

ensure_installed() {
  local need=()
  [ -x "$PGBIN/postgres" ] || need+=(postgresql-15)
  local sharedir=""
  [ -x "$PGBIN/pg_config" ] && sharedir=$("$PGBIN/pg_config" --sharedir)
  if [ -z "$sharedir" ] || [ ! -f "$sharedir/extension/vector.control" ]; then
    [ -f "/usr/include/postgresql/15/server/postgres.h" ] || need+=(postgresql-server-dev-15)
    command -v make >/dev/null && command -v gcc >/dev/null || need+=(build-essential)
  fi
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null; then
      unavailable "missing ${need[*]}; run as root on Debian (apt-get install ${need[*]}) or set ZERDA_TEST_DATABASE_URL to a PostgreSQL 15 server with pgvector"
    fi
    echo "Installing ${need[*]} for the PostgreSQL suite…" >&2
    # Debian's postinst would create and start a default cluster on port 5432; the suite needs none.
    mkdir -p /etc/postgresql-common && [ -f /etc/postgresql-common/createcluster.conf ] ||
      echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null) >&2 ||
      unavailable "apt-get install ${need[*]} failed"
    sharedir=$("$PGBIN/pg_config" --sharedir)
  fi
  if [ ! -f "$sharedir/extension/vector.control" ]; then
    [ "$(id -u)" = "0" ] || unavailable "pgvector is not installed and installing it needs root"
    local archive
    archive=$(vendor_archive) || unavailable "pgvector is not installed and no shared/vendor/pgvector-*.tar.gz was found beside the repository (set ZERDA_VENDOR_DIR)"
    local build="$ROOT/.tmp/pgvector-build"
    rm -rf "$build" && mkdir -p "$build" && tar -xzf "$archive" -C "$build" || unavailable "cannot unpack $archive"
    local src
    src=$(ls -d "$build"/pgvector-* | head -n 1)
    echo "Building pgvector from $(basename "$archive")…" >&2
    # OPTFLAGS="" drops -march=native so the build runs on any x86-64 machine.
    (make -C "$src" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" -j"$(nproc)" && make -C "$src" PG_CONFIG="$PGBIN/pg_config" install) >"$build/build.log" 2>&1 ||
      unavailable "building pgvector failed (see $build/build.log)"
  fi
}

start() {
  ensure_installed
  id postgres >/dev/null 2>&1 || unavailable "no postgres user (install postgresql-15)"
  stop_quietly
  DIR=${ZERDA_PG_DIR:-$ROOT/.tmp/pg-$PORT}
  mkdir -p "$DIR" && chown postgres "$DIR" && chmod 700 "$DIR" || unavailable "cannot create $DIR"
  # The postgres user must be able to reach its directory; a checkout under a private home (/root)
  # is not reachable, so the server then lives in a private directory under /tmp instead.
  if ! as_postgres test -w "$DIR"; then
    [ -z "${ZERDA_PG_DIR:-}" ] || unavailable "the postgres user cannot write $DIR"
    rm -rf "$DIR"
    DIR=$(mktemp -d /tmp/zerda-pg.XXXXXX) && chown postgres "$DIR" && chmod 700 "$DIR" || unavailable "cannot create a directory under /tmp"
    as_postgres test -w "$DIR" || unavailable "the postgres user cannot write $DIR"
  fi
  mkdir -p "$ROOT/.tmp" && echo "$DIR" >"$STATE"
  as_postgres "$PGBIN/initdb" -D "$DIR/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$DIR/initdb.log" 2>&1 ||
    unavailable "initdb failed (see $DIR/initdb.log)"
  as_postgres "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-p $PORT -k $DIR -c listen_addresses='' -c max_connections=200 -c shared_buffers=256MB" start >/dev/null ||
    unavailable "the server did not start (see $DIR/server.log)"
  as_postgres "$PGBIN/psql" -h "$DIR" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
    -c "CREATE ROLE zerda_app LOGIN" -c "CREATE DATABASE zerda_test OWNER zerda_app" >/dev/null ||
    unavailable "cannot create the test database"
  as_postgres "$PGBIN/psql" -h "$DIR" -p "$PORT" -U postgres -d zerda_test -v ON_ERROR_STOP=1 -q -c "CREATE EXTENSION vector" >/dev/null ||
    unavailable "CREATE EXTENSION vector failed"
  echo "postgresql://zerda_app@localhost/zerda_test?host=$DIR&port=$PORT"
}

stop_quietly() {
  if [ -z "${ZERDA_PG_DIR:-}" ] && [ -f "$STATE" ]; then DIR=$(cat "$STATE"); fi
  rm -f "$STATE"
  if [ -f "$DIR/data/postmaster.pid" ]; then as_postgres "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1; fi
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop_quietly ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 64
    ;;
esac
