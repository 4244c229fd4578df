import { rmSync } from 'node:fs';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir } from './test-harness.js';

// A desktop app that crashes (or is force-quit) kills the server mid-write: every memory the
// server acknowledged must be there after a restart, findable, and the stale lock must not block it.
const dataDir = tempDir();

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL mid-writes', () => {
  it('loses no acknowledged memory or update', async () => {
    const server = await startServer({ ZERDA_DATA_DIR: dataDir });
    const pid = (server.client.transport as StdioClientTransport).pid!;
    const acked = new Map<string, string>();
    let stop = false;
    let killed!: () => void;
    const killedNow = new Promise<void>((resolve) => (killed = resolve));
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const mine = [...acked.keys()];
        const content = `worker ${w} item ${i} canoe ${i % 3 === 2 ? 'revised' : 'first'} ${Math.random()}`;
        const args =
          i % 3 === 2 && mine.length ? { memory_id: mine[i % mine.length], content } : { title: `W${w} ${i}`, content };
        const r = await server
          .call(i % 3 === 2 && mine.length ? 'update_memory' : 'remember', args)
          .catch(() => undefined);
        if (!r) return;
        if (r.isError) continue;
        acked.set(r.json.memory_id as string, content);
        if (acked.size >= 25) killed();
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    await killedNow;
    process.kill(pid, 'SIGKILL');
    stop = true;
    await Promise.allSettled(workers);
    await server.close().catch(() => undefined);
    const snapshot = new Map(acked);

    const again = await startServer({ ZERDA_DATA_DIR: dataDir });
    try {
      const all = (await again.call('get_recent_memories', { limit: 1000 })).json.results!;
      const stored = new Map(all.map((r) => [r.id as string, r.content as string]));
      for (const [id, content] of snapshot) {
        // A write in flight at the kill may or may not have landed; an acknowledged one must have.
        expect(stored.has(id), `memory ${id} lost`).toBe(true);
        if (stored.get(id) !== content) expect(stored.get(id), `memory ${id}`).toMatch(/revised/);
      }
      const [id, content] = [...snapshot].at(-1)!;
      const found = await again.call('search_memories', { query: content, search_type: 'keyword', limit: 3 });
      expect(found.json.results!.map((r) => r.id)).toContain(id);
    } finally {
      await again.close();
    }
  }, 60_000);
});
