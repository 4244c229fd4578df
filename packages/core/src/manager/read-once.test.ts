import { describe, expect, it, vi } from 'vitest';
import * as statements from '../language/statements.js';
import { MemoryManager } from './memory-manager.js';

// Every reading of a turn starts by splitting off its speaker: counting those calls counts readings.
vi.mock('../language/statements.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../language/statements.js')>();
  return { ...original, splitSpeaker: vi.fn(original.splitSpeaker) };
});

describe('the write path reads a turn once', () => {
  it('a save that promotes and forms memories reads its turn exactly once', async () => {
    const mgr = await MemoryManager.create({ owner: 'me', embedder: null });
    const split = vi.mocked(statements.splitSpeaker);
    split.mockClear();
    const { memories } = await mgr.saveInteraction('me', 't', 'My sister Ana lives in Lisbon. I love hiking.', 'Nice!');
    expect(memories.length).toBeGreaterThan(0);
    expect(split).toHaveBeenCalledTimes(1);
  });
});
