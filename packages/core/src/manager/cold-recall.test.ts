import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { RecordingEmbedder } from '../testing/secret-canary.js';
import { MemoryManager } from './memory-manager.js';

/** Storage whose tenant index takes a while to load, recording when it starts and ends. */
class SlowVectors extends InMemoryStorage {
  readonly events: string[] = [];
  override async loadVectors(tenantId: string, modelId: string) {
    this.events.push('load start');
    await new Promise((r) => setTimeout(r, 30));
    const block = await super.loadVectors(tenantId, modelId);
    this.events.push('load end');
    return block;
  }
}

/** An embedder that records, in the storage's timeline, each text it is asked to embed. */
class TimedEmbedder extends RecordingEmbedder {
  constructor(readonly events: string[]) {
    super(new HashEmbedder({ dim: 64 }));
  }
  override embed(texts: string[], options?: Parameters<RecordingEmbedder['embed']>[1]) {
    for (const t of texts) this.events.push(`embed ${t}`);
    return super.embed(texts, options);
  }
}

describe('the first question on a tenant not loaded yet', () => {
  async function coldManager() {
    const storage = new SlowVectors();
    const first = await MemoryManager.create({ owner: 'me', storage, embedder: new TimedEmbedder([]) });
    await first.saveInteraction('me', 't', 'Melanie: My sister Ana lives in Lisbon.', '');
    // A new page: the same storage, nothing loaded.
    const embedder = new TimedEmbedder(storage.events);
    const mgr = await MemoryManager.create({ owner: 'me', storage, embedder });
    await embedder.ready();
    storage.events.length = 0;
    return { mgr, storage, embedder };
  }

  it('embeds the query while the index loads', async () => {
    const { mgr, storage } = await coldManager();
    const hits = await mgr.recall('me', 't', 'where does my sister live?');
    expect(hits.length).toBeGreaterThan(0);
    const embedAt = storage.events.indexOf('embed where does my sister live?');
    expect(embedAt).toBeGreaterThanOrEqual(0);
    expect(embedAt).toBeLessThan(storage.events.indexOf('load end'));
  });

  it('embeds it again, read with its people, only where a name typed in lower case changed it', async () => {
    const { mgr, embedder } = await coldManager();
    await mgr.recall('me', 't', 'where does melanies sister live');
    expect(embedder.texts).toEqual(['where does melanies sister live', "where does Melanie's sister live"]);
    embedder.texts.length = 0;
    // Loaded now: read with its people at once, embedded once.
    await mgr.recall('me', 't', 'what does melanies sister do');
    expect(embedder.texts).toEqual(["what does Melanie's sister do"]);
  });
});
