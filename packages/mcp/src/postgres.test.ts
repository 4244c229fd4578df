import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveServerConfig } from './config.js';
import { startServer, tempDir, type Harness } from './test-harness.js';

// Two real MCP servers (stdio, official SDK client) on one PostgreSQL database share one memory:
// what one remembers, the other finds. Needs ZERDA_TEST_DATABASE_URL (scripts/test.sh starts a
// throwaway PostgreSQL 15 + pgvector server when run as root).
const url = process.env.ZERDA_TEST_DATABASE_URL?.trim();
const reason =
  'skipped: ZERDA_TEST_DATABASE_URL is not set (bash scripts/test.sh starts a PostgreSQL server when run as root)';
if (!url) console.warn(`[@zerda/mcp] MCP server on PostgreSQL: ${reason}`);

describe('ZERDA_DATABASE_URL selects PostgreSQL storage', () => {
  it('config: the URL selects postgres; contradicting or malformed settings are rejected', () => {
    const c = resolveServerConfig({ ZERDA_DATABASE_URL: 'postgresql://app:secret@db/zerda' }, '/home/u');
    expect(c.storage).toBe('postgres');
    expect(c.databaseUrl).toBe('postgresql://app:secret@db/zerda');
    expect(resolveServerConfig({}, '/home/u').storage).toBe('sqlite');
    expect(() => resolveServerConfig({ ZERDA_DATABASE_URL: 'mysql://x' }, '/home/u')).toThrow(/ZERDA_DATABASE_URL/);
    expect(() =>
      resolveServerConfig({ ZERDA_DATABASE_URL: 'postgresql://db/z', ZERDA_STORAGE: 'memory' }, '/home/u'),
    ).toThrow(/ZERDA_STORAGE/);
    expect(() => resolveServerConfig({ ZERDA_STORAGE: 'postgres' }, '/home/u')).toThrow(/ZERDA_DATABASE_URL/);
  });
});

describe.skipIf(!url)(`two MCP servers on one PostgreSQL database${url ? '' : ` (${reason})`}`, () => {
  const dirs: string[] = [];
  const servers: Harness[] = [];
  const tenant = `mcp-${globalThis.crypto.randomUUID()}`;
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('what one server remembers, the other finds; what one deletes, the other no longer finds', async () => {
    for (let i = 0; i < 2; i++) {
      const dataDir = tempDir();
      dirs.push(dataDir);
      servers.push(
        await startServer({
          ZERDA_DATA_DIR: dataDir,
          ZERDA_DATABASE_URL: url!,
          // The throwaway server's owner role (scripts/pg-test-server.sh): it migrates the schema.
          ZERDA_DATABASE_OWNER_URL:
            process.env.ZERDA_TEST_OWNER_DATABASE_URL ?? url!.replace('zerda_app@', 'zerda_owner@'),
          ZERDA_TENANT: tenant,
        }),
      );
    }
    const [a, b] = servers as [Harness, Harness];
    const saved = await a.call('remember', {
      title: 'Espresso',
      content: 'Mia drinks her espresso with oat milk',
      tags: 'coffee',
    });
    expect(saved.isError, saved.text).toBe(false);
    const id = saved.json.memory_id as string;
    const found = await b.call('search_memories', { query: 'espresso oat milk', search_type: 'keyword' });
    expect(found.json.results?.map((r) => r.id)).toEqual([id]);
    const stats = await b.call('get_memory_stats');
    expect(stats.json.total_memories).toBe(1);
    expect((stats.json.storage as { kind: string }).kind).toBe('postgres');
    expect(await b.call('delete_memory', { memory_id: id })).toMatchObject({ isError: false });
    expect((await a.call('search_memories', { query: 'espresso', search_type: 'keyword' })).json.results).toEqual([]);
  }, 120_000);
});
