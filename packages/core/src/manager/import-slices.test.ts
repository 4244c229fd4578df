import { describe, expect, it, vi } from 'vitest';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { MemoryManager } from './memory-manager.js';

// Its own file: the reader's warm-up runs once per process (module), here on this import.
describe('MemoryManager.importHistory slicing', () => {
  it('warms the turn reader in steps between which the event loop runs, before the first turn is stored', async () => {
    const storage = new InMemoryStorage();
    const mgr = await MemoryManager.create({ storage, embedder: new HashEmbedder({ dim: 64 }), owner: 'me' });
    // A clock that advances 5 ms per reading: a 20 ms slice ends every few steps.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 5));
    try {
      let ticks = 0;
      let ticksBeforeStore: number | undefined;
      const put = storage.put.bind(storage);
      vi.spyOn(storage, 'put').mockImplementation((...args) => {
        ticksBeforeStore ??= ticks;
        return put(...args);
      });
      let running = true;
      const tick = (): void => {
        ticks++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      await mgr.importHistory('me', 't', [{ input: 'I started learning the cello yesterday', output: 'Great!' }]);
      running = false;
      // One turn: checking it takes one slice; the warm-up's few hundred steps take many.
      expect(ticksBeforeStore).toBeGreaterThan(10);
    } finally {
      clock.mockRestore();
    }
  });
});
