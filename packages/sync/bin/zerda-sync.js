#!/usr/bin/env node
// Committed launcher: the server's entry point is compiled to dist/ by `pnpm run build`.
import('../dist/server/cli.js').catch((e) => {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND')
    console.error('zerda-sync: @zerda/sync is not built; run `pnpm run build` first');
  else console.error(e);
  process.exit(1);
});
