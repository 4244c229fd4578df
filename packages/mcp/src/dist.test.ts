import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST_CLI, startServer, tempDir, type Harness } from './test-harness.js';

// The built server exactly as the README configures desktop apps: `node <path>/dist/cli.js`, no
// TypeScript loader, the default embedder (the bundled model). Runs once `pnpm build` has run.
const dataDir = tempDir();
const servers: Harness[] = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('dist/cli.js before a build', () => {
  it('says to build first (the launcher is committed; the build adds dist/main.js)', () => {
    const dir = tempDir();
    try {
      mkdirSync(join(dir, 'dist'));
      copyFileSync(DIST_CLI, join(dir, 'dist', 'cli.js'));
      const r = spawnSync(process.execPath, [join(dir, 'dist', 'cli.js')], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/not built yet: run .*pnpm.* build/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!existsSync(join(DIST_CLI, '..', 'main.js')))('built zerda-mcp (dist/cli.js)', () => {
  it('stores, recalls, and finds its memories after a restart', async () => {
    const first = await startServer({ ZERDA_DATA_DIR: dataDir, ZERDA_EMBEDDER: 'model' }, { dist: true });
    servers.push(first);
    const r = await first.call('remember', {
      title: 'Anniversary',
      content: 'Sam and Kim got married on 12 June 2019',
      importance: 9,
      memory_type: 'event',
    });
    expect(r.isError, r.text).toBe(false);
    const bad = await first.call('remember', { title: 'x', content: 'y', importance: 42 });
    expect(bad.isError).toBe(true);
    await first.close();
    servers.pop();
    const second = await startServer({ ZERDA_DATA_DIR: dataDir, ZERDA_EMBEDDER: 'model' }, { dist: true });
    servers.push(second);
    const found = await second.call('search_memories', { query: 'wedding date' });
    expect(found.json.results![0]!.id).toBe(r.json.memory_id);
    const stats = await second.call('get_memory_stats');
    expect(stats.json.total_memories).toBe(1);
  }, 120_000);
});
