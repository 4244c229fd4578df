#!/usr/bin/env bash
# Run the Zerda playground (apps/demo): installs dependencies (npm registry only), then starts
# the Vite dev server and prints its URL. Everything else runs in the browser: the embedding model
# and WASM ship with the repository, so no further network access is needed.
#   DEMO_PORT=5173 (default)   DEMO_HOST=localhost (default; 0.0.0.0 to expose it)
#   DEMO_MODE=dev (default) | preview (production build + preview: service worker, offline)
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM=(npx -y pnpm@10.34.9)
"${PNPM[@]}" install
port="${DEMO_PORT:-5173}"
host="${DEMO_HOST:-localhost}"
echo
echo "Zerda demo: http://${host}:${port}/"
echo
if [ "${DEMO_MODE:-dev}" = "preview" ]; then
  "${PNPM[@]}" --filter @zerda/demo run build
  exec "${PNPM[@]}" --filter @zerda/demo exec vite preview --host "$host" --port "$port" --strictPort
fi
exec "${PNPM[@]}" --filter @zerda/demo exec vite --host "$host" --port "$port" --strictPort
