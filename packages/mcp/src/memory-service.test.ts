import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HashEmbedder, ZerdaError, type Embedder, type EmbedOptions } from '@zerda/core';
import { resolveServerConfig } from './config.js';
import { MemoryService } from './memory-service.js';
import { tempDir } from './test-harness.js';

// In-process checks of what the stdio tests cannot provoke: a failing embedder.
const dirs: string[] = [];
const services: MemoryService[] = [];

afterEach(async () => {
  for (const s of services.splice(0)) await s.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A hash embedder that fails while `failing` is set. */
class FlakyEmbedder implements Embedder {
  readonly #inner = new HashEmbedder();
  readonly modelId = this.#inner.modelId;
  readonly dim = this.#inner.dim;
  failing = false;
  ready(): Promise<void> {
    return this.#inner.ready();
  }
  async embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]> {
    if (this.failing) throw new ZerdaError('EMBEDDING', 'model crashed');
    return this.#inner.embed(texts, options);
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
}

async function open(embedder: Embedder): Promise<MemoryService> {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const service = await MemoryService.open({
    config: resolveServerConfig({ ZERDA_DATA_DIR: dataDir, ZERDA_STORAGE: 'memory' }),
    embedder,
  });
  services.push(service);
  return service;
}

describe('MemoryService', () => {
  it('keeps a memory whose embedding failed, says so, and still finds it by keyword', async () => {
    const embedder = new FlakyEmbedder();
    const service = await open(embedder);
    embedder.failing = true;
    const r = await service.call('remember', { title: 'Bike', content: 'The bike lock code is in the blue notebook' });
    expect(r.success).toBe(true);
    expect(String(r.warning)).toMatch(/indexing .* failed .*model crashed/);
    const found = await service.call('search_memories', { query: 'bike lock notebook', search_type: 'keyword' });
    expect((found.results as { id: string }[]).map((x) => x.id)).toEqual([r.memory_id]);
    embedder.failing = false;
    const next = await service.call('remember', { title: 'Plant', content: 'Water the fern on Sundays' });
    expect(next.warning).toBeUndefined();
  });

  it('rejects before queuing: a bad call leaves no trace', async () => {
    const service = await open(new HashEmbedder());
    await expect(service.call('remember', { title: 'x', content: 'y', importance: 11 })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(service.call('update_memory', { memory_id: 'nope', title: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(service.call('search_by_date_range', { date_from: '2025-01-01T25:00' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(service.call('no_such_tool' as never, {})).rejects.toMatchObject({ code: 'VALIDATION' });
    const stats = await service.getMemoryStats();
    expect(stats.total_memories).toBe(0);
    expect(stats.backups).toBe(0);
  });
});
