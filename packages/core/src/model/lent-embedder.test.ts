import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { MemoryManager } from '../manager/memory-manager.js';
import { lendEmbedder } from './lent-embedder.js';

describe('lendEmbedder', () => {
  it('delegates everything but close: the embedder outlives the manager it was lent to', async () => {
    const inner = new HashEmbedder({ dim: 32 });
    const lent = lendEmbedder(inner);
    expect([lent.modelId, lent.dim]).toEqual([inner.modelId, inner.dim]);
    const mgr = await MemoryManager.create({ embedder: lent, owner: 'me' });
    await mgr.remember('me', 't', { title: 'Boat', text: 'The boat is called Tern' });
    await mgr.close();
    const [a] = await inner.embed(['still open']);
    const [b] = await lent.embed(['still open']);
    expect(b).toEqual(a);
    await inner.close();
    await expect(lent.embed(['x'])).rejects.toMatchObject({ code: 'CLOSED' });
  });
});
