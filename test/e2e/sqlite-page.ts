/**
 * Driving the SQLite test page (test/e2e/pages/sqlite, which exposes `window.z`) the same way from
 * the Chromium deep spec (sqlite.spec.ts, Playwright pages) and from the cross-engine subset
 * (engines/engines.spec.ts, the driver's EnginePage): open a tab on it, name and open a database,
 * and fill one until the browser's quota refuses.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { pageReady, REPO_ROOT } from './harness.ts';
import { waitFor, type EnginePage } from './engines/driver.ts';
import type { SqlitePageApi } from './pages/sqlite/main.ts';

declare const z: SqlitePageApi;

/** The page's folder, for `servePage`. */
export const SQLITE_PAGE = join(REPO_ROOT, 'test/e2e/pages/sqlite');

/** What the helpers need of a tab: a Playwright Page and the driver's EnginePage both have it. */
export interface SqliteTab {
  goto(url: string): Promise<unknown>;
  evaluate: EnginePage['evaluate'];
}

/**
 * A new tab of `browser` (a Playwright context, or an EngineBrowser) on the page at `url`, once
 * `window.z` is there; with `db`, that database opened in it (see {@link openDb}).
 */
export async function openSqliteTab<T extends SqliteTab>(
  browser: { newPage(): Promise<T> },
  url: string,
  db?: string,
): Promise<T> {
  const page = await browser.newPage();
  await page.goto(url);
  await waitFor(page, pageReady);
  if (db !== undefined) await openDb(page, db);
  return page;
}

/** Database names no other test of the run uses: `<prefix>-<what>-<time>-<n>`. */
export function dbNamer(prefix: string): (what: string) => string {
  let n = 0;
  return (what) => `${prefix}-${what}-${Date.now()}-${n++}`;
}

/** Open the database `name` in the tab (`z.open`, not shared; encrypted with `passphrase` if given) and expect it to open. */
export async function openDb(page: SqliteTab, name: string, passphrase?: string): Promise<void> {
  const opened = await page.evaluate((o) => z.open(o), { name, ...(passphrase ? { passphrase } : {}) });
  expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
}

/**
 * In a tab with an open database: write 20 memories (`q-0`…`q-19`), then fill the database with
 * large entries until the storage refuses. Expects the refusal to be QUOTA_EXCEEDED after at least
 * one acknowledged fill, and the open store to hold exactly the 20 writes and the acknowledged
 * fills, still searchable. Resolves to what the fill reported.
 */
export async function fillUntilQuota(
  page: SqliteTab,
): Promise<{ acked: string[]; error: { code: string; message: string } | null }> {
  await page.evaluate(() => z.write(20, 'q'));
  const filled = await page.evaluate(() => z.fill('big', 60_000, 1000));
  const said = `${filled.acked.length} fills acknowledged, then ${JSON.stringify(filled.error)}`;
  expect(filled.error?.code, said).toBe('QUOTA_EXCEEDED');
  expect(filled.acked.length).toBeGreaterThan(0);
  // Readable, and exactly what was acknowledged.
  const ids = new Set(await page.evaluate(() => z.ids()));
  expect(ids.size).toBe(20 + filled.acked.length);
  expect(filled.acked.every((id) => ids.has(id))).toBe(true);
  expect(await page.evaluate(() => z.search('memory 7'))).toContain('q-7');
  return filled;
}
