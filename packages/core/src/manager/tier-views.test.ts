import { describe, expect, it } from 'vitest';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { expectZerdaError as rejectsWith } from '../testing/rejections.js';
import { MemoryManager } from './memory-manager.js';

describe('tier accessors: a user, a permission, and read-only views (no side door)', () => {
  it('a user without a role gets ACCESS_DENIED from longTerm, shortTerm and workingMemory', async () => {
    const mgr = await MemoryManager.create({ owner: { userId: 'me', tenantId: 'mine' }, embedder: null });
    for (const call of [
      () => mgr.longTerm('mine', 'stranger'),
      () => mgr.shortTerm('mine', 'stranger'),
      () => mgr.workingMemory('mine', 'stranger'),
      () => mgr.longTerm('other', 'me'),
      () => mgr.shortTerm('other', 'me'),
    ])
      await rejectsWith(call, 'ACCESS_DENIED');
    await rejectsWith(() => mgr.longTerm('mine', undefined as never), 'VALIDATION');
  });

  it('longTerm hands back reads only: no store, delete or clear, and the view is frozen', async () => {
    const storage = new InMemoryStorage();
    const mgr = await MemoryManager.create({ storage, owner: 'me', embedder: null });
    const { entry } = await mgr.remember('me', 't', { title: 'Ana', text: 'My sister lives in Lisbon' });
    mgr.grant('reader', 't', 'reader');
    const lt = mgr.longTerm('t', 'reader');
    expect(await lt.count()).toBe(1);
    expect((await lt.get(entry.id))?.id).toBe(entry.id);
    expect((await lt.query()).map((e) => e.id)).toEqual([entry.id]);
    expect(lt.tenantId).toBe('t');
    for (const write of ['store', 'storeMany', 'delete', 'deleteMany', 'clear']) expect(write in lt, write).toBe(false);
    expect(Object.isFrozen(lt)).toBe(true);
    expect(() => {
      (lt as unknown as Record<string, unknown>).store = () => undefined;
    }).toThrow(TypeError);
    expect(await storage.count({ tenantId: 't' })).toBe(1);
  });

  it('shortTerm and workingMemory are read-only views that follow the tiers; clearing the window needs write', async () => {
    const mgr = await MemoryManager.create({ owner: 'me', embedder: null });
    const st = mgr.shortTerm('t', 'me');
    expect(st.size).toBe(0);
    await mgr.saveInteraction('me', 't', 'My sister Ana lives in Lisbon', 'Nice');
    expect(st.size).toBe(1);
    expect(st.getRecent(1)[0]?.content).toEqual({ input: 'My sister Ana lives in Lisbon', output: 'Nice' });
    for (const write of ['add', 'clear', 'evictBelow', 'below']) expect(write in st, write).toBe(false);
    const wm = mgr.workingMemory('t', 'me');
    for (const write of ['rebuild', 'clear']) expect(write in wm, write).toBe(false);
    await mgr.buildContext('me', 't', 'where does Ana live?');
    expect(wm.size).toBe(mgr.workingMemory('t', 'me').entries().length);
    mgr.grant('reader', 't', 'reader');
    await rejectsWith(mgr.clearShortTerm('reader', 't'), 'ACCESS_DENIED');
    expect(st.size).toBe(1);
    await mgr.clearShortTerm('me', 't');
    expect(st.size).toBe(0);
  });
});
