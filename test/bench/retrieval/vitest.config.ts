import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The evaluation harness' own tests (loader, evidence repair, metrics). They are not part of the
// root `unit` project; run them with `npx vitest run -c test/bench/retrieval/vitest.config.ts`.
export default defineConfig({
  resolve: { conditions: ['@zerda/source'] },
  test: { root: fileURLToPath(new URL('.', import.meta.url)), include: ['*.test.ts'], environment: 'node' },
});
