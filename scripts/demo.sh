#!/usr/bin/env bash
# Run the Zerda playground (apps/demo). Installs dependencies (the npm registry is the only network
# access), builds the demo and serves it, printing its URL. The embedding model and every WASM file
# ship with the repository and are served from the demo's own origin; after the first visit a
# service worker keeps the whole app working offline. The same server answers the Sync panel's
# sync protocol at /sync (apps/demo/sync-plugin.ts: records in memory while it runs).
#   DEMO_PORT=5173   DEMO_HOST=localhost (0.0.0.0 to expose it)
#   DEMO_MODE=preview (default: production build, offline-capable) | dev (Vite dev server with HMR;
#   no service worker)
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM=(npx -y pnpm@10.34.9)
"${PNPM[@]}" install
# vite.config.ts loads the zerda() plugin from the built @zerda/browser.
"${PNPM[@]}" run build
port="${DEMO_PORT:-5173}"
host="${DEMO_HOST:-localhost}"
mode="${DEMO_MODE:-preview}"
if [ "$mode" = "dev" ]; then
  echo; echo "Zerda demo (dev server): http://${host}:${port}/"; echo
  exec "${PNPM[@]}" --filter @zerda/demo exec vite --host "$host" --port "$port" --strictPort
fi
"${PNPM[@]}" --filter @zerda/demo run build
echo; echo "Zerda demo: http://${host}:${port}/"; echo
exec "${PNPM[@]}" --filter @zerda/demo exec vite preview --host "$host" --port "$port" --strictPort
