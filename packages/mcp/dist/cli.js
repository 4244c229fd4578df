#!/usr/bin/env node
// Committed launcher (not a build output): desktop apps are configured with
// `node <checkout>/packages/mcp/dist/cli.js`, which must work, or say what to do, before and
// after `pnpm build`. The build writes the server to dist/main.js next to it.
import('./main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('main.js')) {
    process.stderr.write(
      '[zerda-mcp] @zerda/mcp is not built yet: run `npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 build` in the repository first\n',
    );
    process.exit(1);
  }
  throw err;
});
