#!/usr/bin/env node
// Committed launcher: package managers link a bin at install time, before `pnpm build` has
// produced dist/, so the bin must not point into dist/ directly.
import('../dist/cli.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('cli.js')) {
    process.stderr.write('[zerda-mcp] @zerda/mcp is not built yet: run `pnpm build` first\n');
    process.exit(1);
  }
  throw err;
});
