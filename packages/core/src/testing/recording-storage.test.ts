import { expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { recordingStorage } from './recording-storage.js';

it('recordingStorage records the write calls in order, not the reads, and passes every call through', async () => {
  const { storage, writes } = recordingStorage(new InMemoryStorage());
  const e = createEntry('t1', { content: { title: 'a', text: 'b' } }, 1);
  await storage.put(e);
  expect(await storage.get('t1', e.id)).toEqual(e);
  expect(await storage.count({ tenantId: 't1' })).toBe(1);
  await storage.deleteMany('t1', [e.id]);
  expect(writes).toEqual(['put', 'deleteMany']);
  expect(await storage.count({ tenantId: 't1' })).toBe(0);
});
