import { describe, expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import { InMemoryStorage } from './in-memory-storage.js';
import { runStorageConformance } from '../testing/index.js';

runStorageConformance('InMemoryStorage', () => new InMemoryStorage());

describe('InMemoryStorage specifics', () => {
  it('is named and created by its factory', () => {
    const s = new InMemoryStorage();
    expect(s).toBeInstanceOf(InMemoryStorage);
    expect(s.name).toBe('memory');
  });

  it('forgets an emptied tenant', async () => {
    const s = new InMemoryStorage();
    const e = createEntry('t', { content: { title: 'a', text: 'b' } }, 1);
    await s.put(e);
    expect(await s.listTenants()).toEqual(['t']);
    await s.delete('t', e.id);
    expect(await s.listTenants()).toEqual([]);
  });

  it('keeps its lexical index in sync with upserts across many entries', async () => {
    const s = new InMemoryStorage();
    const es = Array.from({ length: 50 }, (_, i) =>
      createEntry('t', { content: { title: `doc ${i}`, text: i % 2 ? 'odd falcon' : 'even osprey' } }, i),
    );
    await s.putMany(es);
    expect(await s.lexicalSearch({ tenantId: 't', query: 'falcon', limit: 100 })).toHaveLength(25);
    await s.putMany(es.map((e) => ({ ...e, content: { title: 'x', text: 'osprey' }, version: 2 })));
    expect(await s.lexicalSearch({ tenantId: 't', query: 'falcon', limit: 100 })).toHaveLength(0);
    expect(await s.lexicalSearch({ tenantId: 't', query: 'osprey', limit: 100 })).toHaveLength(50);
  });
});
