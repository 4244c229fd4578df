import { describe, expect, test } from 'vitest';
import { warmUpReading } from '../language/warm-up.js';
import { MemoryManager } from './memory-manager.js';

// Its own file: the language warm-up runs once per module instance, and vitest gives each test
// file fresh modules, so nothing before this test has compiled the patterns.
describe('MemoryManager.warmUp', () => {
  test("compiles the language layer's patterns, so the first saved turn does not", async () => {
    const mgr = await MemoryManager.create({ owner: 'app' });
    try {
      await mgr.warmUp('tenant');
      expect([...warmUpReading()]).toEqual([]);
      const { entry } = await mgr.saveInteraction('app', 'tenant', 'My sister Ana lives in Lisbon.', 'Nice!');
      expect(entry.id).toBeTruthy();
    } finally {
      await mgr.close();
    }
  });
});
