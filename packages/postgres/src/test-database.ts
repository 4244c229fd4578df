import { describe } from 'vitest';

/**
 * The PostgreSQL server the suites run against: `ZERDA_TEST_DATABASE_URL`, which `scripts/test.sh`
 * sets after starting a throwaway PostgreSQL 15 + pgvector server (scripts/pg-test-server.sh).
 * Without it the suites are skipped, and the skip says why.
 */
export const DATABASE_URL = process.env.ZERDA_TEST_DATABASE_URL?.trim() || undefined;

/**
 * The owner (migrator) role of that database: `ZERDA_TEST_OWNER_DATABASE_URL`, else the app URL
 * with its user `zerda_app` replaced by `zerda_owner` (the two roles scripts/pg-test-server.sh makes).
 */
export function ownerUrl(url: string): string {
  return process.env.ZERDA_TEST_OWNER_DATABASE_URL?.trim() || url.replace('zerda_app@', 'zerda_owner@');
}

/** The superuser of the throwaway server (`postgres`), or `undefined` when the URL is not its. */
export function adminUrl(url: string): string | undefined {
  const admin = url.replace('zerda_app@', 'postgres@');
  return admin === url ? undefined : admin;
}

const SKIP_REASON =
  'skipped: ZERDA_TEST_DATABASE_URL is not set (bash scripts/test.sh starts a PostgreSQL 15 + pgvector server when run as root; ' +
  'or run scripts/pg-test-server.sh start and export the URL it prints)';

/** `describe` when a server is configured; otherwise a skipped block whose name gives the reason. */
export function describePostgres(name: string, fn: (url: string) => void): void {
  if (DATABASE_URL) describe(name, () => fn(DATABASE_URL));
  else {
    console.warn(`[@zerda/postgres] ${name}: ${SKIP_REASON}`);
    describe.skip(`${name} (${SKIP_REASON})`, () => fn(''));
  }
}

/** A fresh schema name, so each test file migrates its own tables. */
export function freshSchema(prefix: string): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
}
