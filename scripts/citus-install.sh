#!/usr/bin/env bash
# Installs the Citus extension into PostgreSQL 15 from the vendored source, with a cached build.
#
#   scripts/citus-install.sh          install Citus when missing (as root); exits 0 when installed
#
# Debian 12 has no Citus package. The vendored archive (shared/vendor/citus-*.tar.gz beside the
# repository, plus its patch for Debian's PostgreSQL 15.14+) is built once into a staged install
# tree under $ZERDA_CITUS_CACHE (default ~/.cache/zerda/citus), keyed by the sha256 of the archive,
# the patch and the PostgreSQL version. A machine that already has that tree only copies it into
# PostgreSQL's directories (about a second); a cold machine builds it (about 2 min of CPU, ~6 min
# on two busy cores). Exits 2 with a reason on stderr when Citus cannot be provided.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PGBIN=${ZERDA_PG_BIN:-/usr/lib/postgresql/15/bin}
PG_CONFIG="$PGBIN/pg_config"
CACHE=${ZERDA_CITUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zerda/citus}

unavailable() {
  echo "Citus unavailable: $*" >&2
  exit 2
}

vendor_file() {
  local d
  for d in "${ZERDA_VENDOR_DIR:-}" "$ROOT/../shared/vendor" "$ROOT/shared/vendor" "$ROOT/../../shared/vendor"; do
    [ -n "$d" ] || continue
    ls "$d"/$1 2>/dev/null | sort | tail -n 1 && return 0
  done
  return 1
}

[ -x "$PG_CONFIG" ] || unavailable "no $PG_CONFIG (run scripts/pg-test-server.sh start first: it installs PostgreSQL 15)"
libdir=$("$PG_CONFIG" --pkglibdir)
sharedir=$("$PG_CONFIG" --sharedir)
archive=$(vendor_file 'citus-*.tar.gz') || unavailable "no shared/vendor/citus-*.tar.gz beside the repository (set ZERDA_VENDOR_DIR)"
patchfile=$(vendor_file 'citus-*.patch' || true)
version=$(basename "$archive" .tar.gz)
version=${version#citus-}
if [ -f "$sharedir/extension/citus.control" ] && [ -f "$libdir/citus.so" ] &&
  grep -q "default_version = '${version%.*}" "$sharedir/extension/citus.control"; then
  exit 0
fi
[ "$(id -u)" = "0" ] || unavailable "Citus is not installed and installing it needs root"

key=$( (sha256sum "$archive" ${patchfile:+"$patchfile"} | cut -d' ' -f1; "$PG_CONFIG" --version; uname -m) | sha256sum | cut -c1-16)
tree="$CACHE/$version-$key"
if [ ! -f "$tree/.complete" ]; then
  need=()
  [ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ] || need+=(postgresql-server-dev-15)
  for h in lz4.h zstd.h gssapi/gssapi.h; do [ -f "/usr/include/$h" ] || need+=("$h"); done
  if [ ${#need[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || unavailable "missing build dependencies ${need[*]}"
    echo "Installing Citus build dependencies…" >&2
    # postgresql-15 with the headers: the patch and the server binary must be the same minor version.
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-15 postgresql-server-dev-15 \
      build-essential liblz4-dev libzstd-dev libcurl4-openssl-dev libkrb5-dev >/dev/null) >&2 ||
      unavailable "apt-get install of the Citus build dependencies failed"
  fi
  build=$(mktemp -d "${TMPDIR:-/tmp}/zerda-citus.XXXXXX")
  tar -xzf "$archive" -C "$build" || unavailable "cannot unpack $archive"
  src="$build/citus-$version"
  if [ -n "$patchfile" ]; then patch -d "$src" -p1 -s <"$patchfile" || unavailable "the patch $patchfile does not apply"; fi
  echo "Building Citus $version (cached afterwards in $tree)…" >&2
  start=$(date +%s)
  # with_llvm=no: no LLVM bitcode (JIT inlining), which halves the build.
  (cd "$src" && PG_CONFIG="$PG_CONFIG" ./configure --without-libcurl -q &&
    make -s -j"$(nproc)" with_llvm=no && make -s install with_llvm=no DESTDIR="$build/stage") >"$build/build.log" 2>&1 ||
    unavailable "building Citus failed (see $build/build.log)"
  rm -rf "$tree" && mkdir -p "$tree" && cp -a "$build/stage/." "$tree/" || unavailable "cannot write the cache $tree"
  echo "$(($(date +%s) - start))" >"$tree/.build-seconds" && touch "$tree/.complete"
  echo "Built Citus in $(cat "$tree/.build-seconds") s" >&2
  rm -rf "$build"
fi
# The staged tree holds absolute paths (DESTDIR + PostgreSQL's own directories).
cp -a "$tree/usr/." /usr/ || unavailable "cannot copy $tree into PostgreSQL's directories"
[ -f "$sharedir/extension/citus.control" ] || unavailable "the cached tree $tree did not install citus.control"
