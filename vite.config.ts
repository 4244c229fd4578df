import { defineConfig } from 'vitest/config';

// Root config: resolves workspace packages to their TypeScript sources (the
// `@zerda/source` export condition) so tests never need a prior build, and
// defines the test projects that `scripts/test.sh` runs.
export default defineConfig({
  resolve: { conditions: ['@zerda/source'] },
  ssr: { resolve: { conditions: ['@zerda/source'], externalConditions: ['@zerda/source'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      // The @zerda/postgres suites again on a Citus cluster (scripts/test.sh starts one with
      // scripts/pg-test-server.sh start-citus and points ZERDA_TEST_DATABASE_URL at its coordinator).
      {
        extends: true,
        test: {
          name: 'postgres-citus',
          include: ['packages/postgres/src/**/*.test.ts'],
          environment: 'node',
          env: { ZERDA_TEST_CITUS: '1' },
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.spec.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      // The cross-engine subset (test/e2e/engines) on Firefox ESR and WebKitGTK; the `e2e` project
      // above runs it on Chromium along with the deep suites.
      ...(['firefox', 'webkit'] as const).map((engine) => ({
        extends: true as const,
        test: {
          name: `e2e-${engine}`,
          include: ['test/e2e/engines/*.spec.ts'],
          environment: 'node' as const,
          env: { ZERDA_ENGINE: engine },
          testTimeout: 240_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      })),
    ],
  },
});
