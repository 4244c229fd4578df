#!/usr/bin/env bash
# The test command: installs what it needs (pnpm deps, Debian Chromium, Firefox ESR, WebKitGTK, PostgreSQL 15 + pgvector),
# builds, type-checks, builds the API reference (TypeDoc), then runs the unit suite (Node; the @zerda/postgres suites against a
# throwaway PostgreSQL server, then again on a throwaway Citus cluster) and the browser suites (real Chromium, the sync spec on
# that same PostgreSQL; a cross-engine subset on
# Firefox ESR and WebKitGTK). Prints "N passed, N failed"
# last and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
PNPM=(npx -y pnpm@10.34.9)
mkdir -p .tmp

if [ "${CI:-}" = "true" ]; then
  "${PNPM[@]}" install --frozen-lockfile || exit 1
else
  "${PNPM[@]}" install || exit 1
fi

# Browsers: Debian's Chromium (deep suites), Firefox ESR and WebKitGTK (the cross-engine subset,
# test/e2e/engines). Installed with apt-get when root; otherwise Chromium is required and the other
# two are skipped with a message saying how to install them.
apt_pkgs=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || apt_pkgs+=(chromium)
[ -x "${FIREFOX_PATH:-/usr/bin/firefox-esr}" ] || apt_pkgs+=(firefox-esr)
[ -x "${WEBKIT_DRIVER_PATH:-/usr/bin/WebKitWebDriver}" ] || apt_pkgs+=(webkit2gtk-driver)
command -v xvfb-run >/dev/null || apt_pkgs+=(xvfb)
if [ ${#apt_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "Installing browsers for the browser suites: ${apt_pkgs[*]}…"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_pkgs[@]}" >/dev/null) || exit 1
  elif [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
    echo "!! Chromium not found at /usr/bin/chromium; install it (sudo apt-get install chromium) or set CHROMIUM_PATH" >&2
    exit 1
  else
    echo "!! Not root: the Firefox/WebKit subsets are skipped for what is missing (sudo apt-get install -y ${apt_pkgs[*]})" >&2
  fi
fi

status=0
echo "== build"; "${PNPM[@]}" run build || status=1
echo "== typecheck"; "${PNPM[@]}" run typecheck || status=1
echo "== lint and format (Biome)"; "${PNPM[@]}" exec biome ci --colors=off . || status=1
# The API reference from TSDoc (typedoc.json: every public name documented, links resolved; a
# warning fails the run). Written to docs/api/ (not committed); docs/api.md says how to read it.
echo "== API reference (TypeDoc)"; "${PNPM[@]}" exec typedoc || status=1

run_project() {
  local project=$1
  echo "== tests: $project"
  npx vitest run --project "$project" --reporter=default --reporter=json --outputFile=".tmp/vitest-$project.json" || status=1
}
# A throwaway PostgreSQL 15 + pgvector server for @zerda/postgres (installed and built when
# missing, as root); without one those suites are skipped and say why. A server given through
# ZERDA_TEST_DATABASE_URL is used as it is.
pg_started=0
if [ -z "${ZERDA_TEST_DATABASE_URL:-}" ]; then
  echo "== postgres: starting a throwaway server"
  if url=$(bash scripts/pg-test-server.sh start); then
    export ZERDA_TEST_DATABASE_URL=${url##*$'\n'}
    pg_started=1
    trap 'bash scripts/pg-test-server.sh stop' EXIT
  else
    echo "!! PostgreSQL suites will be skipped (see the reason above)" >&2
  fi
fi
run_project unit
# The same server stays up for the browser suites (test/e2e/sync.spec.ts runs its sync server on it).
stop_pg() { if [ "$pg_started" = 1 ]; then bash scripts/pg-test-server.sh stop; pg_started=0; fi; }
# The same @zerda/postgres suites on a Citus cluster (coordinator + 2 workers + a spare node for the
# rebalance test, on private ports). Citus is built from shared/vendor when missing (as root) and
# cached by archive hash (~/.cache/zerda/citus: a warm machine skips the ~6 min build). Without it
# the cluster run is skipped and says why. ZERDA_TEST_CITUS_DATABASE_URL uses a given cluster.
reports=(.tmp/vitest-unit.json)
citus_url=${ZERDA_TEST_CITUS_DATABASE_URL:-}
citus_port=${ZERDA_PG_CITUS_PORT:-55442}
if [ -z "$citus_url" ]; then
  echo "== postgres: starting a throwaway Citus cluster"
  if url=$(ZERDA_PG_PORT=$citus_port bash scripts/pg-test-server.sh start-citus); then
    citus_url=${url##*$'\n'}
    trap 'ZERDA_PG_PORT=$citus_port bash scripts/pg-test-server.sh stop; stop_pg' EXIT
  else
    echo "!! The Citus cluster run will be skipped (see the reason above)" >&2
  fi
fi
if [ -n "$citus_url" ]; then
  single_url=${ZERDA_TEST_DATABASE_URL-}
  export ZERDA_TEST_DATABASE_URL=$citus_url
  run_project postgres-citus
  export ZERDA_TEST_DATABASE_URL=$single_url
  reports+=(.tmp/vitest-postgres-citus.json)
  if [ -z "${ZERDA_TEST_CITUS_DATABASE_URL:-}" ]; then
    ZERDA_PG_PORT=$citus_port bash scripts/pg-test-server.sh stop
    trap stop_pg EXIT
  fi
fi
run_project e2e
stop_pg
trap - EXIT
run_project e2e-firefox
run_project e2e-webkit

node scripts/summarize-tests.mjs "${reports[@]}" .tmp/vitest-e2e.json .tmp/vitest-e2e-firefox.json .tmp/vitest-e2e-webkit.json || status=1
exit $status
