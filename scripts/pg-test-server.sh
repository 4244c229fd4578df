#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + pgvector server for the @zerda/postgres suite.
#
#   scripts/pg-test-server.sh start          install what is missing (as root), start a fresh server;
#                                            prints the app's connection URL on stdout (last line)
#   scripts/pg-test-server.sh start-citus    the same on a Citus cluster: a coordinator on the port,
#                                            two workers on port+1 and port+2, and a spare node on
#                                            port+3 (started, not added: the rebalance test adds it);
#                                            builds Citus first when missing (scripts/citus-install.sh,
#                                            cached)
#   scripts/pg-test-server.sh stop           stop it (or the cluster) and delete its files
#   scripts/pg-test-server.sh crash|resume [N]
#                                            stop the server like a crash (pg_ctl stop -m immediate)
#                                            and start it again on the same files, with the same
#                                            settings: the connection-loss tests; on a cluster N is
#                                            the node (0 the coordinator, the default; 1, 2 workers)
#
# The server runs as the `postgres` user from a data directory under .tmp/pg-<port> (or a private
# directory under /tmp when the checkout is not reachable by that user), listens on a private Unix
# socket in that directory (a cluster's nodes also on 127.0.0.1 at their ports, to reach each
# other), and holds one database `zerda_test` with the `vector` extension and two roles, neither a
# superuser (row-level security applies to both):
#   zerda_owner  owns the database; migrates Zerda's schema (PostgresStorage.migrate or
#                open({ ownerConnectionString }))
#   zerda_app    LOGIN and CONNECT only: gets DML on Zerda's tables from the migration
# The URL printed is zerda_app's; zerda_owner's is the same with the user name replaced.
# Debian 12 ships PostgreSQL 15 but no pgvector package: pgvector is built from the vendored
# source archive (shared/vendor/pgvector-*.tar.gz beside the repository) when the extension is
# missing. Exits 2 with a reason on stderr when the server cannot be provided (not root and
# PostgreSQL/pgvector not installed, no vendored archive, …).
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

# Make a data directory under $DIR/$1 and start it on port $2 ($3: extra settings).
start_node() {
  local name=$1 port=$2 extra=${3:-}
  as_postgres "$PGBIN/initdb" -D "$DIR/$name" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$DIR/initdb-$name.log" 2>&1 ||
    unavailable "initdb failed (see $DIR/initdb-$name.log)"
  # Kept for resume: a node crashed by the tests starts again with the same settings.
  echo "-p $port -k $DIR -c max_connections=200 -c shared_buffers=256MB $extra" >"$DIR/options-$name"
  pg_start "$name" || unavailable "the server did not start (see $DIR/server-$name.log)"
}

pg_start() {
  as_postgres "$PGBIN/pg_ctl" -D "$DIR/$1" -l "$DIR/server-$1.log" -w -t 60 -o "$(cat "$DIR/options-$1")" start >/dev/null
}

psql_as() {
  local port=$1 db=$2
  shift 2
  as_postgres "$PGBIN/psql" -h "$DIR" -p "$port" -U postgres -d "$db" -v ON_ERROR_STOP=1 -q "$@" >/dev/null
}

prepare_dir() {
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
}

ROLES_SQL="CREATE ROLE zerda_owner LOGIN; CREATE ROLE zerda_app LOGIN"

start() {
  ensure_installed
  id postgres >/dev/null 2>&1 || unavailable "no postgres user (install postgresql-15)"
  prepare_dir
  start_node data "$PORT" "-c listen_addresses=''"
  psql_as "$PORT" postgres -c "$ROLES_SQL" -c "CREATE DATABASE zerda_test OWNER zerda_owner" ||
    unavailable "cannot create the test database"
  psql_as "$PORT" zerda_test -c "CREATE EXTENSION vector" || unavailable "CREATE EXTENSION vector failed"
  echo "postgresql://zerda_app@localhost/zerda_test?host=$DIR&port=$PORT"
}

start_citus() {
  ensure_installed
  bash "$ROOT/scripts/citus-install.sh" || unavailable "Citus is not available (see above)"
  id postgres >/dev/null 2>&1 || unavailable "no postgres user (install postgresql-15)"
  prepare_dir
  # citus.shard_count=4 (default 32): a small test cluster migrates, moves and rebalances faster.
  local citus="-c listen_addresses=127.0.0.1 -c shared_preload_libraries=citus -c citus.shard_count=4 -c max_worker_processes=16 -c wal_level=logical -c max_wal_senders=10 -c max_replication_slots=10"
  local i
  for i in 0 1 2 3; do
    start_node "node$i" $((PORT + i)) "$citus"
    psql_as $((PORT + i)) postgres -c "CREATE DATABASE zerda_test" || unavailable "cannot create the test database on node $i"
    psql_as $((PORT + i)) zerda_test -c "CREATE EXTENSION citus" -c "CREATE EXTENSION vector" ||
      unavailable "CREATE EXTENSION citus, vector failed on node $i"
  done
  psql_as "$PORT" zerda_test -c "SELECT citus_set_coordinator_host('127.0.0.1', $PORT)" \
    -c "SELECT citus_add_node('127.0.0.1', $((PORT + 1)))" -c "SELECT citus_add_node('127.0.0.1', $((PORT + 2)))" ||
    unavailable "cannot form the Citus cluster"
  # Roles after the workers joined, on the coordinator: Citus propagates them (and later the spare).
  psql_as "$PORT" zerda_test -c "$ROLES_SQL" -c "ALTER DATABASE zerda_test OWNER TO zerda_owner" \
    -c "GRANT CREATE ON SCHEMA public TO zerda_owner" || unavailable "cannot create the roles on the cluster"
  echo "$((PORT + 3))" >"$DIR/spare-port"
  echo "postgresql://zerda_app@localhost/zerda_test?host=$DIR&port=$PORT"
}

stop_quietly() {
  if [ -z "${ZERDA_PG_DIR:-}" ] && [ -f "$STATE" ]; then DIR=$(cat "$STATE"); fi
  rm -f "$STATE"
  local d
  for d in "$DIR"/data "$DIR"/node*; do
    if [ -f "$d/postmaster.pid" ]; then as_postgres "$PGBIN/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1; fi
  done
  rm -rf "$DIR"
}

crash_or_resume() {
  [ -f "$STATE" ] || unavailable "no server on port $PORT"
  DIR=$(cat "$STATE")
  local name=data
  [ -d "$DIR/data" ] || name="node${2:-0}"
  [ -f "$DIR/options-$name" ] || unavailable "no node ${2:-0} on port $PORT"
  if [ "$1" = crash ]; then
    as_postgres "$PGBIN/pg_ctl" -D "$DIR/$name" -m immediate -w stop >/dev/null || unavailable "pg_ctl stop failed"
  else
    pg_start "$name" || unavailable "the server did not start again (see $DIR/server-$name.log)"
  fi
}

case "${1:-}" in
  start) start ;;
  crash | resume) crash_or_resume "$1" "${2:-}" ;;
  start-citus) start_citus ;;
  stop) stop_quietly ;;
  *)
    echo "usage: $0 start|start-citus|stop|crash [node]|resume [node]" >&2
    exit 64
    ;;
esac
