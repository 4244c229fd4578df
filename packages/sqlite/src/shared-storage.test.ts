import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { StorageAdapter } from '@zerda/core';
import { runStorageConformance } from '@zerda/core/testing';
import { SharedSqliteStorage } from './shared-storage.js';

/** Exclusive-only Web Locks for Node: a FIFO queue per name, `ifAvailable` and `signal` supported. */
class FakeLocks {
  #held = new Set<string>();
  #queues = new Map<string, (() => void)[]>();

  request(name: string, ...rest: unknown[]): Promise<unknown> {
    const cb = rest.at(-1) as (lock: { name: string } | null) => Promise<unknown>;
    const opts = (rest.length > 1 ? rest[0] : {}) as { ifAvailable?: boolean; signal?: AbortSignal };
    const run = async () => {
      this.#held.add(name);
      try {
        return await cb({ name });
      } finally {
        this.#held.delete(name);
        this.#queues.get(name)?.shift()?.();
      }
    };
    if (!this.#held.has(name)) return run();
    if (opts.ifAvailable) return cb(null);
    return new Promise((resolve, reject) => {
      const q = this.#queues.get(name) ?? [];
      this.#queues.set(name, q);
      const go = () => run().then(resolve, reject);
      q.push(go);
      opts.signal?.addEventListener('abort', () => {
        const i = q.indexOf(go);
        if (i >= 0) q.splice(i, 1);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  }
}

const T0 = 1_700_000_000_000;
const fact = (text: string) => createEntry('t', { content: { title: 'x', text } }, T0);

describe('SharedSqliteStorage (Web Locks + BroadcastChannel)', () => {
  it('one owner executes; a follower forwards and sees the same data; the follower takes over on close', async () => {
    const locks = new FakeLocks() as unknown as LockManager;
    const name = `shared-${Math.random()}`;
    const a = await SharedSqliteStorage.open({ name, locks });
    const b = await SharedSqliteStorage.open({ name, locks });
    expect(a.isOwner).toBe(true);
    expect(b.isOwner).toBe(false);
    const fromA = Array.from({ length: 30 }, (_, i) => fact(`a ${i}`));
    const fromB = Array.from({ length: 30 }, (_, i) => fact(`b ${i}`));
    await Promise.all([...fromA.map((e) => a.put(e)), ...fromB.map((e) => b.put(e))]);
    expect(await a.count({ tenantId: 't' })).toBe(60);
    expect(await b.count({ tenantId: 't' })).toBe(60);
    await expect(b.put({ ...fromB[0]!, importance: 9 })).rejects.toSatisfy((e: unknown) =>
      isZerdaError(e, 'VALIDATION'),
    );
    // Writes in flight from the follower while the owner leaves are not lost.
    const late = Array.from({ length: 20 }, (_, i) => fact(`late ${i}`));
    const inFlight = late.map((e) => b.put(e));
    await a.close();
    await Promise.all(inFlight);
    expect(b.isOwner).toBe(true);
    expect(await b.count({ tenantId: 't' })).toBe(80);
    const c = await SharedSqliteStorage.open({ name, locks });
    expect(c.isOwner).toBe(false);
    expect((await c.get('t', late[3]!.id))?.id).toBe(late[3]!.id);
    await b.close();
    await c.close();
    await expect(c.count({ tenantId: 't' })).rejects.toSatisfy((e: unknown) => isZerdaError(e, 'CLOSED'));
  });

  it('a follower with the wrong passphrase fails with DECRYPTION at open', async () => {
    const locks = new FakeLocks() as unknown as LockManager;
    const name = `shared-enc-${Math.random()}`;
    const weak = { iterations: 1000, allowWeakIterations: true } as const;
    const a = await SharedSqliteStorage.open({ name, locks, encryption: { passphrase: 'one', ...weak } });
    await a.put(fact('secret'));
    await expect(
      SharedSqliteStorage.open({ name, locks, encryption: { passphrase: 'two', ...weak } }),
    ).rejects.toSatisfy((e: unknown) => isZerdaError(e, 'DECRYPTION'));
    await a.close();
  });
});

// Both roles must be a conforming StorageAdapter: the owner (executes) and a follower (forwards
// every call to the owner over the channel).
const owners: SharedSqliteStorage[] = [];
afterAll(async () => {
  for (const o of owners) await o.close();
});
const sharedNames = new WeakMap<StorageAdapter, { name: string; locks: LockManager }>();
let shared = 0;

runStorageConformance(
  'SharedSqliteStorage (owner)',
  async () => {
    const at = { name: `shared-conf-${shared++}-${Math.random()}`, locks: new FakeLocks() as unknown as LockManager };
    const s = await SharedSqliteStorage.open(at);
    sharedNames.set(s, at);
    return s;
  },
  {
    reopen: async (old) => {
      const at = sharedNames.get(old)!;
      await old.close();
      const s = await SharedSqliteStorage.open(at);
      sharedNames.set(s, at);
      return s;
    },
  },
);

runStorageConformance('SharedSqliteStorage (follower)', async () => {
  const at = { name: `shared-conf-${shared++}-${Math.random()}`, locks: new FakeLocks() as unknown as LockManager };
  const owner = await SharedSqliteStorage.open(at);
  owners.push(owner);
  const follower = await SharedSqliteStorage.open(at);
  if (follower.isOwner) throw new Error('expected a follower');
  return follower;
});
