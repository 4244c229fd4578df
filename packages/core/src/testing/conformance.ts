import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEntry } from '../model/entry.js';
import type { NewEntry } from '../model/entry.js';
import type { StorageAdapter, VectorBlock, VectorModel } from '../storage/storage.js';
import type { MemoryEntry, UserProfile } from '../model/types.js';
import type { SyncChange } from '../sync/change-log.js';
import { formatHlc } from '../sync/hlc.js';
import { expectZerdaError as expectCode } from './rejections.js';

/** Makes a fresh adapter (or a fresh view of a shared one: every test uses its own tenant ids). */
export type StorageFactory = () => Promise<StorageAdapter> | StorageAdapter;

/** Options of {@link runStorageConformance}. */
export interface StorageConformanceOptions {
  /**
   * For persistent adapters: close `old` and open the same store again. When given, the suite
   * checks that acknowledged writes survive a reopen.
   */
  reopen?: (old: StorageAdapter) => Promise<StorageAdapter>;
}

const T0 = 1_700_000_000_000;
const MODEL_A: VectorModel = { id: 'conf-model-a', dim: 4 };
const MODEL_B: VectorModel = { id: 'conf-model-b', dim: 3 };

/**
 * Register vitest tests that check an adapter against every rule documented on
 * {@link StorageAdapter}: tenant isolation, whole-entry upserts, all-or-nothing batches,
 * side-effect-free reads, copies in and out, deterministic ordering, cascading deletes, per-model
 * vectors, and `CLOSED` after close. Adapter-agnostic: it uses only the interface, unique tenant ids
 * and fixed timestamps (no timing assumptions).
 */
export function runStorageConformance(
  name: string,
  factory: StorageFactory,
  options: StorageConformanceOptions = {},
): void {
  describe(`StorageAdapter conformance: ${name}`, () => {
    let s: StorageAdapter;
    let closed = false;
    const open = new Set<StorageAdapter>();

    beforeEach(async () => {
      s = await factory();
      closed = false;
      open.add(s);
    });
    afterEach(async () => {
      for (const a of open) {
        if (a === s && closed) continue;
        await a.close().catch(() => undefined);
      }
      open.clear();
    });

    describe('basics', () => {
      it('has a name', () => {
        expect(typeof s.name).toBe('string');
        expect(s.name.length).toBeGreaterThan(0);
      });

      it('put then get returns an equal entry; missing ids give undefined', async () => {
        const t = tenant();
        const e = entry(t, {
          content: { title: 'Name', text: 'Ada Lovelace' },
          tags: ['a'],
          metadata: { k: [1, 'x', null, { n: true }] },
          userId: 'u1',
        });
        await s.put(e);
        expect(await s.get(t, e.id)).toEqual(e);
        expect(await s.get(t, 'missing')).toBeUndefined();
      });

      it('getMany returns the stored entries among the ids, skipping missing ones', async () => {
        const t = tenant();
        const [a, b, c] = [entry(t), entry(t), entry(t)];
        await s.putMany([a!, b!, c!]);
        const got = await s.getMany(t, [c!.id, 'missing', a!.id]);
        expect(byId(got)).toEqual(byId([a!, c!]));
        expect(await s.getMany(t, [])).toEqual([]);
      });

      it('delete and deleteMany report what they removed', async () => {
        const t = tenant();
        const [a, b, c] = [entry(t), entry(t), entry(t)];
        await s.putMany([a!, b!, c!]);
        expect(await s.delete(t, a!.id)).toBe(true);
        expect(await s.delete(t, a!.id)).toBe(false);
        expect(await s.deleteMany(t, [b!.id, c!.id, 'missing'])).toBe(2);
        expect(await s.count({ tenantId: t })).toBe(0);
      });

      it('rejects malformed entries with VALIDATION and writes nothing', async () => {
        const t = tenant();
        const e = entry(t);
        await expectCode(s.put({ ...e, importance: 2 }), 'VALIDATION');
        await expectCode(s.put({ ...e, tier: 'nowhere' as never }), 'VALIDATION');
        await expectCode(s.put({ ...e, content: 'text' as never }), 'VALIDATION');
        await expectCode(s.put({ ...e, id: '' }), 'VALIDATION');
        expect(await s.get(t, e.id)).toBeUndefined();
        expect(await s.count({ tenantId: t })).toBe(0);
      });

      it('rejects malformed queries with VALIDATION', async () => {
        const t = tenant();
        await expectCode(s.query({ tenantId: t, limit: -1 }), 'VALIDATION');
        await expectCode(s.query({ tenantId: t, offset: 1.5 }), 'VALIDATION');
        await expectCode(s.query({ tenantId: t, orderBy: 'id' as never }), 'VALIDATION');
        await expectCode(s.lexicalSearch({ tenantId: t, query: 'x', limit: -1 }), 'VALIDATION');
      });
    });

    describe('rule 1: identity is (tenantId, id)', () => {
      it('two tenants hold the same id independently', async () => {
        const [ta, tb] = [tenant(), tenant()];
        const a = entry(ta, { id: 'shared-id', content: { title: 'alpha', text: 'apples orchard' } });
        const b = entry(tb, { id: 'shared-id', content: { title: 'beta', text: 'bananas plantation' } });
        await s.put(a);
        await s.put(b);
        expect(await s.get(ta, 'shared-id')).toEqual(a);
        expect(await s.get(tb, 'shared-id')).toEqual(b);

        await s.put({ ...a, content: { title: 'alpha2', text: 'apricots' }, version: 2 });
        expect(await s.get(tb, 'shared-id')).toEqual(b);

        expect(await s.delete(ta, 'shared-id')).toBe(true);
        expect(await s.get(tb, 'shared-id')).toEqual(b);
      });

      it('query, count, getMany and lexicalSearch see only the tenant', async () => {
        const [ta, tb] = [tenant(), tenant()];
        const a = entry(ta, { content: { title: 'zebra', text: 'stripes' } });
        const b = entry(tb, { content: { title: 'zebra', text: 'stripes' } });
        const b2 = entry(tb, { id: a.id, content: { title: 'zebra', text: 'stripes again' } });
        await s.putMany([a, b]);
        await s.put(b2);
        expect(ids(await s.query({ tenantId: ta }))).toEqual([a.id]);
        expect(await s.count({ tenantId: ta })).toBe(1);
        expect(await s.count({ tenantId: tb })).toBe(2);
        expect(ids(await s.getMany(ta, [a.id, b.id]))).toEqual([a.id]);
        const hits = await s.lexicalSearch({ tenantId: ta, query: 'zebra stripes', limit: 10 });
        expect(hits.map((h) => h.id)).toEqual([a.id]);
        expect((await s.stats(ta)).entries).toBe(1);
      });

      it('vectors and profiles are per tenant', async () => {
        const [ta, tb] = [tenant(), tenant()];
        const a = entry(ta, { id: 'same' });
        const b = entry(tb, { id: 'same' });
        await s.putMany([a]);
        await s.putMany([b]);
        await s.putVectors(ta, MODEL_A, [{ id: 'same', vector: vec(1, 0, 0, 0) }]);
        await s.putVectors(tb, MODEL_A, [{ id: 'same', vector: vec(0, 1, 0, 0) }]);
        expect(rows(await s.loadVectors(ta, MODEL_A.id))).toEqual({ same: [1, 0, 0, 0] });
        expect(rows(await s.loadVectors(tb, MODEL_A.id))).toEqual({ same: [0, 1, 0, 0] });
        await s.deleteVectors(ta);
        expect(rows(await s.loadVectors(tb, MODEL_A.id))).toEqual({ same: [0, 1, 0, 0] });

        await s.putProfile(profile(ta, 'u', 3));
        await s.putProfile(profile(tb, 'u', 7));
        expect((await s.getProfile(ta, 'u'))?.interactionCount).toBe(3);
        expect((await s.getProfile(tb, 'u'))?.interactionCount).toBe(7);
        expect((await s.listProfiles(ta)).map((p) => p.tenantId)).toEqual([ta]);
      });

      it('deleteMany for one tenant leaves the same ids of another', async () => {
        const [ta, tb] = [tenant(), tenant()];
        await s.putMany([entry(ta, { id: 'x1' }), entry(ta, { id: 'x2' })]);
        await s.putMany([entry(tb, { id: 'x1' }), entry(tb, { id: 'x2' })]);
        expect(await s.deleteMany(ta, ['x1', 'x2'])).toBe(2);
        expect(await s.count({ tenantId: tb })).toBe(2);
      });
    });

    describe('rule 2: upserts replace the whole entry; putMany is all-or-nothing', () => {
      it('put replaces content, tags and metadata (no merge)', async () => {
        const t = tenant();
        const first = entry(t, {
          content: { title: 'old', text: 'walrus tusk' },
          tags: ['a', 'b'],
          metadata: { keep: 1, drop: 2 },
        });
        await s.put(first);
        const second: MemoryEntry = {
          ...first,
          content: { input: 'new question', output: 'penguin beak' },
          kind: 'conversation',
          tags: ['c'],
          metadata: { keep: 3 },
          importance: 0.9,
          version: 2,
        };
        await s.put(second);
        expect(await s.get(t, first.id)).toEqual(second);
        expect(await s.count({ tenantId: t })).toBe(1);
        expect(await s.lexicalSearch({ tenantId: t, query: 'walrus', limit: 5 })).toEqual([]);
        expect((await s.lexicalSearch({ tenantId: t, query: 'penguin', limit: 5 })).map((h) => h.id)).toEqual([
          first.id,
        ]);
      });

      it('putMany replaces whole entries the same way', async () => {
        const t = tenant();
        const first = entry(t, { content: { title: 'old', text: 'text' }, tags: ['a'], metadata: { x: 1 } });
        await s.putMany([first]);
        const second: MemoryEntry = {
          ...first,
          content: { title: 'new', text: 'other' },
          tags: [],
          metadata: {},
          version: 2,
        };
        await s.putMany([second]);
        expect(await s.get(t, first.id)).toEqual(second);
      });

      it('putMany with one invalid entry writes nothing', async () => {
        const t = tenant();
        const existing = entry(t, { content: { title: 'keep', text: 'original' } });
        await s.put(existing);
        const fresh = entry(t);
        const replaced: MemoryEntry = { ...existing, content: { title: 'changed', text: 'changed' }, version: 2 };
        const bad = { ...entry(t), importance: Number.NaN };
        await expectCode(s.putMany([fresh, replaced, bad]), 'VALIDATION');
        expect(await s.get(t, fresh.id)).toBeUndefined();
        expect(await s.get(t, existing.id)).toEqual(existing);
        expect(await s.count({ tenantId: t })).toBe(1);
      });

      it('putMany rejects entries of mixed shape before writing any', async () => {
        const t = tenant();
        const good = entry(t);
        await expectCode(s.putMany([good, { ...entry(t), tags: 'x' as never }]), 'VALIDATION');
        expect(await s.count({ tenantId: t })).toBe(0);
      });

      it('rejects unknown filter keys with VALIDATION (a typo such as kind for kinds must not match everything)', async () => {
        const t = tenant();
        await s.put(entry(t));
        await expectCode(s.query({ tenantId: t, kind: 'nothing' } as never), 'VALIDATION');
        await expectCode(s.count({ tenantId: t, tag: 'x' } as never), 'VALIDATION');
        await expectCode(
          s.lexicalSearch({ tenantId: t, query: 'x', limit: 1, filter: { kind: 'fact' } as never }),
          'VALIDATION',
        );
        expect(await s.count({ tenantId: t, kinds: ['nothing'] })).toBe(0);
      });
    });

    describe('rule 3: reads have no side effects', () => {
      it('get, getMany, query, count and lexicalSearch change nothing', async () => {
        const t = tenant();
        const e = entry(t, { content: { title: 'heron', text: 'grey heron by the lake' } });
        await s.put(e);
        for (let i = 0; i < 2; i++) {
          await s.get(t, e.id);
          await s.getMany(t, [e.id]);
          await s.query({ tenantId: t });
          await s.query({ tenantId: t, text: 'heron', orderBy: 'lastAccess' });
          await s.count({ tenantId: t });
          await s.lexicalSearch({ tenantId: t, query: 'heron', limit: 3 });
          await s.stats(t);
        }
        expect(await s.get(t, e.id)).toEqual(e);
      });
    });

    describe('rule 4: objects are copies in and out', () => {
      it('mutating what was passed to put or putMany changes nothing stored', async () => {
        const t = tenant();
        const e = entry(t, { tags: ['a'], metadata: { n: { v: 1 } } });
        const snapshot = structuredClone(e);
        await s.put(e);
        e.tags.push('b');
        (e.metadata.n as { v: number }).v = 2;
        (e.content as { text: string }).text = 'mutated';
        e.importance = 0;
        expect(await s.get(t, e.id)).toEqual(snapshot);

        const f = entry(t, { tags: ['x'] });
        const fSnap = structuredClone(f);
        await s.putMany([f]);
        f.tags.length = 0;
        expect(await s.get(t, f.id)).toEqual(fSnap);
      });

      it('mutating returned objects changes nothing stored', async () => {
        const t = tenant();
        const e = entry(t, { tags: ['a'], metadata: { list: [1] } });
        await s.put(e);
        const got = (await s.get(t, e.id))!;
        got.tags.push('z');
        (got.metadata.list as number[]).push(2);
        got.importance = 0.01;
        (await s.query({ tenantId: t }))[0]!.tags.push('q');
        (await s.getMany(t, [e.id]))[0]!.tags.push('m');
        expect(await s.get(t, e.id)).toEqual(e);
      });

      it('vectors are Float32Array copies in and out', async () => {
        const t = tenant();
        const e = entry(t);
        await s.put(e);
        const v = vec(0.5, 0.25, -1, 2);
        await s.putVectors(t, MODEL_A, [{ id: e.id, vector: v }]);
        v[0] = 99;
        const block = (await s.loadVectors(t, MODEL_A.id))!;
        expect(block.data).toBeInstanceOf(Float32Array);
        expect(rows(block)).toEqual({ [e.id]: [0.5, 0.25, -1, 2] });
        block.data[0] = 42;
        expect(rows(await s.loadVectors(t, MODEL_A.id))).toEqual({ [e.id]: [0.5, 0.25, -1, 2] });
      });

      it('profiles are copies in and out', async () => {
        const t = tenant();
        const p = profile(t, 'u1', 1);
        await s.putProfile(p);
        p.topics.mutated = 1;
        const got = (await s.getProfile(t, 'u1'))!;
        expect(got).toEqual(profile(t, 'u1', 1));
        got.attributes.x = 'y';
        expect((await s.getProfile(t, 'u1'))!.attributes).toEqual({ lang: 'en' });
      });
    });

    describe('rule 5: writes are durable once resolved; rejected writes change nothing', () => {
      it('a write is readable as soon as it resolves', async () => {
        const t = tenant();
        const e = entry(t);
        await s.put(e);
        expect(await s.get(t, e.id)).toEqual(e);
      });

      it('a rejected putVectors changes nothing', async () => {
        const t = tenant();
        const e = entry(t);
        const f = entry(t);
        await s.putMany([e, f]);
        await s.putVectors(t, MODEL_A, [{ id: e.id, vector: vec(1, 0, 0, 0) }]);
        await expectCode(
          s.putVectors(t, MODEL_A, [
            { id: e.id, vector: vec(0, 0, 0, 1) },
            { id: f.id, vector: vec(1, 2, 3) },
          ]),
          'VALIDATION',
        );
        expect(rows(await s.loadVectors(t, MODEL_A.id))).toEqual({ [e.id]: [1, 0, 0, 0] });
      });

      if (options.reopen) {
        const reopen = options.reopen;
        it('acknowledged writes survive a reopen', async () => {
          const t = tenant();
          const a = entry(t, { content: { title: 'durable', text: 'kingfisher' }, tags: ['x'] });
          const b = entry(t);
          await s.putMany([a, b]);
          await s.delete(t, b.id);
          await s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(1, 2, 3, 4) }]);
          await s.putProfile(profile(t, 'u', 2));
          closed = true;
          const s2 = await reopen(s);
          open.add(s2);
          expect(await s2.get(t, a.id)).toEqual(a);
          expect(await s2.get(t, b.id)).toBeUndefined();
          expect(rows(await s2.loadVectors(t, MODEL_A.id))).toEqual({ [a.id]: [1, 2, 3, 4] });
          expect(await s2.getProfile(t, 'u')).toEqual(profile(t, 'u', 2));
          expect((await s2.lexicalSearch({ tenantId: t, query: 'kingfisher', limit: 1 })).map((h) => h.id)).toEqual([
            a.id,
          ]);
        });
      }
    });

    describe('rule 6: deterministic ordering, filters and paging', () => {
      async function seed(t: string): Promise<MemoryEntry[]> {
        const es = [
          entry(t, {
            id: 'e1',
            createdAt: T0 + 1000,
            importance: 0.5,
            kind: 'fact',
            tier: 'long_term',
            tags: ['red', 'blue'],
            userId: 'u1',
            content: { title: 'Coffee', text: 'Likes espresso' },
          }),
          entry(t, {
            id: 'e2',
            createdAt: T0 + 3000,
            importance: 0.5,
            kind: 'fact',
            tier: 'working',
            tags: ['red'],
            userId: 'u2',
            content: { title: 'Tea', text: 'Green tea sometimes' },
          }),
          entry(t, {
            id: 'e3',
            createdAt: T0 + 3000,
            importance: 0.9,
            kind: 'event',
            tier: 'long_term',
            tags: ['blue'],
            content: { input: 'Trip to PARIS?', output: 'Booked' },
          }),
          entry(t, {
            id: 'e4',
            createdAt: T0 + 2000,
            importance: 0.1,
            kind: 'conversation',
            tier: 'short_term',
            tags: [],
            userId: 'u1',
            content: { input: 'hello', output: 'hi there' },
          }),
          entry(t, {
            id: 'e5',
            createdAt: T0 + 2000,
            importance: 0.9,
            kind: 'task',
            tier: 'long_term',
            tags: ['red', 'blue', 'green'],
            content: { title: 'Todo', text: 'Buy espresso beans' },
          }),
        ];
        es[0]!.lastAccess = T0 + 9000;
        await s.putMany(es);
        return es;
      }

      it('defaults to createdAt desc with ties by id ascending', async () => {
        const t = tenant();
        await seed(t);
        expect(ids(await s.query({ tenantId: t }))).toEqual(['e2', 'e3', 'e4', 'e5', 'e1']);
      });

      it('orders by the requested field; ties break by id ascending in both directions', async () => {
        const t = tenant();
        await seed(t);
        expect(ids(await s.query({ tenantId: t, orderBy: 'importance' }))).toEqual(['e3', 'e5', 'e1', 'e2', 'e4']);
        expect(ids(await s.query({ tenantId: t, orderBy: 'importance', order: 'asc' }))).toEqual([
          'e4',
          'e1',
          'e2',
          'e3',
          'e5',
        ]);
        expect(ids(await s.query({ tenantId: t, orderBy: 'createdAt', order: 'asc' }))).toEqual([
          'e1',
          'e4',
          'e5',
          'e2',
          'e3',
        ]);
        expect(ids(await s.query({ tenantId: t, orderBy: 'lastAccess' }))).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
      });

      it('limit and offset page through the same order', async () => {
        const t = tenant();
        await seed(t);
        const all = ids(await s.query({ tenantId: t, orderBy: 'importance' }));
        const pages: string[] = [];
        for (let offset = 0; offset < 6; offset += 2)
          pages.push(...ids(await s.query({ tenantId: t, orderBy: 'importance', limit: 2, offset })));
        expect(pages).toEqual(all);
        expect(await s.query({ tenantId: t, limit: 0 })).toEqual([]);
        expect(await s.query({ tenantId: t, offset: 10 })).toEqual([]);
      });

      it.each<[string, Record<string, unknown>, string[]]>([
        ['ids', { ids: ['e4', 'e1', 'nope'] }, ['e1', 'e4']],
        ['empty ids', { ids: [] }, []],
        ['tiers', { tiers: ['working', 'short_term'] }, ['e2', 'e4']],
        ['kinds', { kinds: ['fact', 'task'] }, ['e1', 'e2', 'e5']],
        ['tags any (default)', { tags: ['green', 'blue'] }, ['e1', 'e3', 'e5']],
        ['tags all', { tags: ['red', 'blue'], tagMode: 'all' }, ['e1', 'e5']],
        ['tags are exact and case-sensitive', { tags: ['Red', 're'] }, []],
        ['userId', { userId: 'u1' }, ['e1', 'e4']],
        ['createdFrom inclusive', { createdFrom: T0 + 2000 }, ['e2', 'e3', 'e4', 'e5']],
        ['createdTo inclusive', { createdTo: T0 + 2000 }, ['e1', 'e4', 'e5']],
        ['minImportance inclusive', { minImportance: 0.5 }, ['e1', 'e2', 'e3', 'e5']],
        ['maxImportance exclusive', { maxImportance: 0.5 }, ['e4']],
        ['text is a case-insensitive substring of title/text', { text: 'ESPRESSO' }, ['e1', 'e5']],
        ['text covers input/output', { text: 'paris' }, ['e3']],
        ['filters combine with AND', { kinds: ['fact', 'task'], tags: ['red'], minImportance: 0.6 }, ['e5']],
      ])('filters: %s (query and count agree)', async (_n, filter, expected) => {
        const t = tenant();
        await seed(t);
        const got = ids(await s.query({ tenantId: t, ...filter }));
        expect([...got].sort()).toEqual(expected);
        expect(await s.count({ tenantId: t, ...filter })).toBe(expected.length);
      });
    });

    describe('lexical search', () => {
      it('ranks best first with positive scores, respects limit, ignores unrelated words', async () => {
        const t = tenant();
        const both = entry(t, {
          content: { title: 'Sailing', text: 'sailing boats on the harbour, sailing every weekend' },
        });
        const one = entry(t, { content: { title: 'Harbour', text: 'the harbour market sells fish' } });
        const none = entry(t, { content: { title: 'Mountains', text: 'hiking in the alps' } });
        await s.putMany([one, none, both]);
        const hits = await s.lexicalSearch({ tenantId: t, query: 'sailing harbour', limit: 10 });
        expect(hits.map((h) => h.id)).toEqual([both.id, one.id]);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
        expect(hits.every((h) => h.score > 0)).toBe(true);
        expect(await s.lexicalSearch({ tenantId: t, query: 'sailing harbour', limit: 1 })).toHaveLength(1);
        expect(await s.lexicalSearch({ tenantId: t, query: 'xylophone', limit: 10 })).toEqual([]);
        expect(await s.lexicalSearch({ tenantId: t, query: 'harbour', limit: 0 })).toEqual([]);
      });

      it('applies the filter before ranking and forgets deleted entries', async () => {
        const t = tenant();
        const strong = entry(t, { kind: 'fact', content: { title: 'Rust', text: 'rust rust rust compiler' } });
        const weak = entry(t, {
          kind: 'event',
          content: { title: 'Meetup', text: 'a rust meetup downtown with pizza and talks' },
        });
        await s.putMany([strong, weak]);
        const filtered = await s.lexicalSearch({ tenantId: t, query: 'rust', limit: 1, filter: { kinds: ['event'] } });
        expect(filtered.map((h) => h.id)).toEqual([weak.id]);
        await s.delete(t, weak.id);
        expect((await s.lexicalSearch({ tenantId: t, query: 'rust', limit: 5 })).map((h) => h.id)).toEqual([strong.id]);
      });
    });

    describe('rule 7: deletes cascade to vectors; clearTenant removes only that tenant', () => {
      it('delete and deleteMany remove the entries vectors in every model', async () => {
        const t = tenant();
        const [a, b, c] = [entry(t), entry(t), entry(t)];
        await s.putMany([a!, b!, c!]);
        await s.putVectors(
          t,
          MODEL_A,
          [a!, b!, c!].map((e, i) => ({ id: e.id, vector: vec(i, 1, 1, 1) })),
        );
        await s.putVectors(t, MODEL_B, [{ id: a!.id, vector: vec(1, 1, 1) }]);
        await s.delete(t, a!.id);
        expect(Object.keys(rows(await s.loadVectors(t, MODEL_A.id))).sort()).toEqual([b!.id, c!.id].sort());
        expect(rows(await s.loadVectors(t, MODEL_B.id))).toEqual({});
        await s.deleteMany(t, [b!.id]);
        expect(Object.keys(rows(await s.loadVectors(t, MODEL_A.id)))).toEqual([c!.id]);
      });

      it('clearTenant removes entries, vectors and profiles of that tenant only', async () => {
        const [ta, tb] = [tenant(), tenant()];
        const a = [entry(ta), entry(ta)];
        const b = entry(tb);
        await s.putMany(a);
        await s.put(b);
        await s.putVectors(ta, MODEL_A, [{ id: a[0]!.id, vector: vec(1, 0, 0, 0) }]);
        await s.putVectors(tb, MODEL_A, [{ id: b.id, vector: vec(0, 1, 0, 0) }]);
        await s.putProfile(profile(ta, 'u', 1));
        await s.putProfile(profile(tb, 'u', 1));
        expect(await s.listTenants()).toEqual(expect.arrayContaining([ta, tb]));

        expect(await s.clearTenant(ta)).toBe(2);
        expect(await s.count({ tenantId: ta })).toBe(0);
        expect(rows(await s.loadVectors(ta, MODEL_A.id))).toEqual({});
        expect(await s.vectorModels(ta)).toEqual([]);
        expect(await s.getProfile(ta, 'u')).toBeUndefined();
        expect(await s.listProfiles(ta)).toEqual([]);
        expect(await s.listTenants()).not.toContain(ta);

        expect(await s.get(tb, b.id)).toEqual(b);
        expect(rows(await s.loadVectors(tb, MODEL_A.id))).toEqual({ [b.id]: [0, 1, 0, 0] });
        expect(await s.getProfile(tb, 'u')).toEqual(profile(tb, 'u', 1));
        expect(await s.listTenants()).toContain(tb);
        expect(await s.clearTenant(ta)).toBe(0);
      });
    });

    describe('rule 8: vectors are kept per model id', () => {
      it('loadVectors returns only the requested model; vectorModels lists models', async () => {
        const { t, a, b } = await twoModels(s);
        const blockA = (await s.loadVectors(t, MODEL_A.id))!;
        expect(blockA.model).toEqual(MODEL_A);
        expect(blockA.data).toHaveLength(2 * MODEL_A.dim);
        expect(rows(blockA)).toEqual({ [a.id]: [1, 0, 0, 0], [b.id]: [0, 1, 0, 0] });
        const blockB = (await s.loadVectors(t, MODEL_B.id))!;
        expect(blockB.model).toEqual(MODEL_B);
        expect(rows(blockB)).toEqual({ [a.id]: [0, 0, 1] });
        expect(await s.loadVectors(t, 'never-stored')).toBeUndefined();
        expect([...(await s.vectorModels(t))].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([MODEL_A, MODEL_B]);
        expect((await s.stats(t)).vectors).toBe(3);
      });

      it('putVectors upserts by id', async () => {
        const t = tenant();
        const a = entry(t);
        await s.put(a);
        await s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(1, 0, 0, 0) }]);
        await s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(0, 0, 0, 1) }]);
        expect(rows(await s.loadVectors(t, MODEL_A.id))).toEqual({ [a.id]: [0, 0, 0, 1] });
      });

      it('rejects a vector whose length differs from model.dim (VALIDATION), writing nothing', async () => {
        const t = tenant();
        const a = entry(t);
        await s.put(a);
        await expectCode(s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(1, 0, 0) }]), 'VALIDATION');
        await expectCode(s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(1, 0, 0, 0, 0) }]), 'VALIDATION');
        expect(rows(await s.loadVectors(t, MODEL_A.id))).toEqual({});
      });

      it('deleteVectors removes one model or all, and reports rows deleted', async () => {
        const { t, a } = await twoModels(s);
        expect(await s.deleteVectors(t, MODEL_A.id)).toBe(2);
        expect(rows(await s.loadVectors(t, MODEL_A.id))).toEqual({});
        expect(rows(await s.loadVectors(t, MODEL_B.id))).toEqual({ [a.id]: [0, 0, 1] });
        expect(await s.deleteVectors(t)).toBe(1);
        expect(await s.vectorModels(t)).toEqual([]);
        expect(await s.count({ tenantId: t })).toBe(2);
      });
    });

    describe('profiles and stats', () => {
      it('stores, lists and counts profiles', async () => {
        const t = tenant();
        expect(await s.getProfile(t, 'nobody')).toBeUndefined();
        await s.putProfile(profile(t, 'b', 1));
        await s.putProfile(profile(t, 'a', 2));
        await s.putProfile(profile(t, 'a', 5));
        const list = await s.listProfiles(t);
        expect(list.map((p) => [p.userId, p.interactionCount]).sort()).toEqual([
          ['a', 5],
          ['b', 1],
        ]);
        expect((await s.stats(t)).profiles).toBe(2);
        expect(await s.listTenants()).toContain(t);
      });

      it('stats count entries by tier and kind', async () => {
        const t = tenant();
        await s.putMany([
          entry(t, { tier: 'long_term', kind: 'fact' }),
          entry(t, { tier: 'long_term', kind: 'event' }),
          entry(t, { tier: 'short_term', kind: 'fact' }),
        ]);
        const st = await s.stats(t);
        expect(st.entries).toBe(3);
        expect(st.byTier).toEqual({ long_term: 2, short_term: 1 });
        expect(st.byKind).toEqual({ fact: 2, event: 1 });
        expect((await s.stats()).entries).toBeGreaterThanOrEqual(3);
      });
    });

    describe('rule 10: a change log written with every entry and profile change', () => {
      it('each put, delete, profile write and tenant clear leaves one pending change per entity', async () => {
        const t = tenant();
        const [a, b] = [entry(t), entry(t)];
        await s.putMany([a, b]);
        await s.put({ ...a, content: { title: 'note', text: 'edited' }, version: 2 });
        await s.putProfile(profile(t, 'u', 1));
        await s.putVectors(t, MODEL_A, [{ id: a.id, vector: vec(1, 0, 0, 0) }]);
        const state = await s.syncState(t);
        expect(state.pending).toBe(3);
        expect(state.cursor).toBeUndefined();
        expect(typeof state.deviceId).toBe('string');
        const changes = await s.pendingChanges(t, 10);
        expect(changes.map((c) => [c.kind, c.key, c.op])).toEqual([
          ['entry', b.id, 'put'],
          ['entry', a.id, 'put'],
          ['profile', 'u', 'put'],
        ]);
        const ca = changes[1]!;
        expect(ca.entry).toEqual({ ...a, content: { title: 'note', text: 'edited' }, version: 2 });
        expect(ca.deviceId).toBe(state.deviceId);
        expect(ca.clock).toEqual({ [state.deviceId]: ca.hlc });
        expect(ca.hlc > changes[0]!.hlc).toBe(true);
        expect(new Set(changes.map((c) => c.recordId)).size).toBe(3);
        expect(changes[2]!.profile).toEqual(profile(t, 'u', 1));
        expect(await s.pendingChanges(t, 1)).toHaveLength(1);

        await s.delete(t, b.id);
        await s.clearTenant(t);
        const after = await s.pendingChanges(t, 10);
        expect(after.map((c) => [c.kind, c.key, c.op]).sort()).toEqual(
          [
            ['entry', a.id, 'delete'],
            ['entry', b.id, 'delete'],
            ['profile', 'u', 'delete'],
          ].sort(),
        );
        expect(after.every((c) => c.entry === undefined && c.profile === undefined)).toBe(true);
        expect(await s.pendingChanges(tenant(), 10)).toEqual([]);
      });

      it('markPushed clears exactly the pushed versions; a newer write is pending again', async () => {
        const t = tenant();
        const a = entry(t);
        await s.put(a);
        const [first] = await s.pendingChanges(t, 10);
        await s.put({ ...a, version: 2 });
        expect(await s.markPushed(t, [first!.recordId])).toBe(0);
        const [second] = await s.pendingChanges(t, 10);
        expect(second!.recordId).not.toBe(first!.recordId);
        expect(await s.markPushed(t, [second!.recordId, second!.recordId])).toBe(1);
        expect((await s.syncState(t)).pending).toBe(0);
        await s.put({ ...a, version: 3 });
        expect((await s.pendingChanges(t, 10)).map((c) => c.entry?.version)).toEqual([3]);
      });

      it('applies remote versions idempotently, stores the cursor, and leaves them not pending', async () => {
        const t = tenant();
        const e = entry(t, { content: { title: 'remote', text: 'from the phone' } });
        const change = remoteChange(t, e, formatHlc(T0 + 1, 0));
        const report = await s.applyChanges(t, [change], 'cursor-1');
        expect(report).toMatchObject({ applied: 1, merged: 0, skipped: 0, entriesWritten: [e.id] });
        expect(await s.get(t, e.id)).toEqual(e);
        expect(await s.syncState(t)).toMatchObject({ cursor: 'cursor-1', pending: 0 });
        expect(await s.applyChanges(t, [change], 'cursor-2')).toMatchObject({ applied: 0, skipped: 1 });
        expect(await s.get(t, e.id)).toEqual(e);
        expect((await s.syncState(t)).cursor).toBe('cursor-2');
        // A later remote delete removes it; the older put applied again changes nothing.
        const del: SyncChange = {
          ...change,
          recordId: 'remote-2',
          op: 'delete',
          hlc: formatHlc(T0 + 2, 0),
          clock: { 'device-remote': formatHlc(T0 + 2, 0) },
        };
        delete del.entry;
        expect(await s.applyChanges(t, [del, change])).toMatchObject({
          applied: 1,
          skipped: 1,
          entriesRemoved: [e.id],
        });
        expect(await s.get(t, e.id)).toBeUndefined();
        // A remote delete of a memory this store never held is recorded but removes nothing.
        expect(await s.applyChanges(t, [{ ...del, key: 'never-stored', recordId: 'remote-3' }])).toMatchObject({
          applied: 1,
          entriesWritten: [],
          entriesRemoved: [],
        });
      });

      it('merges a concurrent remote version: later clock wins, the loser goes to history, recalls add up', async () => {
        const t = tenant();
        const local = entry(t, { content: { title: 'city', text: 'lives in Lyon' } });
        await s.put({ ...local, accessCount: 2 });
        const remote = { ...local, content: { title: 'city', text: 'lives in Paris' }, accessCount: 3 };
        const change = remoteChange(t, remote, '9000000000000000.000000');
        change.counters = {
          access: { 'device-remote': [3, 0] },
          importance: { 'device-remote': [local.importance, 0] },
        };
        const report = await s.applyChanges(t, [change]);
        expect(report).toMatchObject({ merged: 1, entriesWritten: [local.id] });
        const got = (await s.get(t, local.id))!;
        expect(got.content).toEqual({ title: 'city', text: 'lives in Paris' });
        expect(got.accessCount).toBe(5);
        const history = got.metadata.history as { content: unknown }[];
        expect(history.map((h) => h.content)).toEqual([{ title: 'city', text: 'lives in Lyon' }]);
        // The local version was never pushed: it stays pending (merged) so the server gets it.
        const pending = await s.pendingChanges(t, 10);
        expect(pending).toHaveLength(1);
        expect(pending[0]!.entry).toEqual(got);
        expect(Object.keys(pending[0]!.clock).sort()).toEqual(
          [(await s.syncState(t)).deviceId, 'device-remote'].sort(),
        );
      });

      it('rejects a malformed or foreign record with VALIDATION and applies nothing of the batch', async () => {
        const t = tenant();
        const good = remoteChange(t, entry(t), formatHlc(T0 + 1, 0));
        const foreign = remoteChange(tenant(), entry(t), formatHlc(T0 + 1, 0));
        await expectCode(s.applyChanges(t, [good, foreign], 'c'), 'VALIDATION');
        await expectCode(s.applyChanges(t, [good, { ...good, hlc: 'yesterday' }]), 'VALIDATION');
        await expectCode(s.applyChanges(t, [good, { ...good, key: 'other-id' }]), 'VALIDATION');
        expect(await s.count({ tenantId: t })).toBe(0);
        expect((await s.syncState(t)).cursor).toBeUndefined();
      });

      if (options.reopen) {
        const reopen = options.reopen;
        it('the change log, the device id and the cursor survive a reopen', async () => {
          const t = tenant();
          const a = entry(t);
          await s.put(a);
          await s.applyChanges(t, [remoteChange(t, entry(t), formatHlc(T0 + 1, 0))], 'cursor-9');
          const before = await s.syncState(t);
          const changes = await s.pendingChanges(t, 10);
          closed = true;
          const s2 = await reopen(s);
          open.add(s2);
          expect(await s2.syncState(t)).toEqual(before);
          expect(await s2.pendingChanges(t, 10)).toEqual(changes);
          await s2.put({ ...a, version: 2 });
          const [next] = await s2.pendingChanges(t, 10);
          expect(next!.hlc > changes[0]!.hlc).toBe(true);
        });
      }
    });

    describe('rule 9: after close every call rejects with CLOSED; close is idempotent', () => {
      it('rejects every method', async () => {
        const t = tenant();
        const e = entry(t);
        await s.put(e);
        await s.close();
        closed = true;
        const calls: [string, () => Promise<unknown>][] = [
          ['put', () => s.put(e)],
          ['putMany', () => s.putMany([e])],
          ['get', () => s.get(t, e.id)],
          ['getMany', () => s.getMany(t, [e.id])],
          ['delete', () => s.delete(t, e.id)],
          ['deleteMany', () => s.deleteMany(t, [e.id])],
          ['query', () => s.query({ tenantId: t })],
          ['count', () => s.count({ tenantId: t })],
          ['lexicalSearch', () => s.lexicalSearch({ tenantId: t, query: 'x', limit: 1 })],
          ['putVectors', () => s.putVectors(t, MODEL_A, [{ id: e.id, vector: vec(1, 0, 0, 0) }])],
          ['loadVectors', () => s.loadVectors(t, MODEL_A.id)],
          ['vectorModels', () => s.vectorModels(t)],
          ['deleteVectors', () => s.deleteVectors(t)],
          ['getProfile', () => s.getProfile(t, 'u')],
          ['putProfile', () => s.putProfile(profile(t, 'u', 1))],
          ['listProfiles', () => s.listProfiles(t)],
          ['clearTenant', () => s.clearTenant(t)],
          ['listTenants', () => s.listTenants()],
          ['stats', () => s.stats(t)],
          ['syncState', () => s.syncState(t)],
          ['pendingChanges', () => s.pendingChanges(t, 10)],
          ['markPushed', () => s.markPushed(t, ['r'])],
          ['applyChanges', () => s.applyChanges(t, [])],
        ];
        for (const [method, call] of calls) {
          await expectCode(call(), 'CLOSED', method);
        }
      });

      it('closing again is a no-op', async () => {
        await s.close();
        closed = true;
        await expect(s.close()).resolves.toBeUndefined();
        await expectCode(s.listTenants(), 'CLOSED', 'listTenants');
      });
    });
  });
}

/** A tenant with two entries: both with vectors of MODEL_A, `a` also with one of MODEL_B. */
async function twoModels(s: StorageAdapter): Promise<{ t: string; a: MemoryEntry; b: MemoryEntry }> {
  const t = tenant();
  const [a, b] = [entry(t), entry(t)];
  await s.putMany([a, b]);
  await s.putVectors(t, MODEL_A, [
    { id: a.id, vector: vec(1, 0, 0, 0) },
    { id: b.id, vector: vec(0, 1, 0, 0) },
  ]);
  await s.putVectors(t, MODEL_B, [{ id: a.id, vector: vec(0, 0, 1) }]);
  return { t, a, b };
}

/** A version of `e` written on another device at `hlc`, as `applyChanges` receives it. */
function remoteChange(tenantId: string, e: MemoryEntry, hlc: string): SyncChange {
  return {
    tenantId,
    kind: 'entry',
    key: e.id,
    recordId: `remote-${globalThis.crypto.randomUUID()}`,
    op: 'put',
    hlc,
    deviceId: 'device-remote',
    clock: { 'device-remote': hlc },
    counters: { access: { 'device-remote': [e.accessCount, 0] }, importance: { 'device-remote': [e.importance, 0] } },
    entry: e,
  };
}

function tenant(): string {
  return `conf-${globalThis.crypto.randomUUID()}`;
}

function entry(tenantId: string, input: Partial<NewEntry> = {}): MemoryEntry {
  return createEntry(
    tenantId,
    { content: { title: 'note', text: `note ${globalThis.crypto.randomUUID()}` }, ...input },
    T0,
  );
}

function profile(tenantId: string, userId: string, interactions: number): UserProfile {
  return {
    tenantId,
    userId,
    createdAt: T0,
    updatedAt: T0 + interactions,
    interactionCount: interactions,
    topics: { coffee: interactions },
    memoryRetentionBoost: 0.02,
    attributes: { lang: 'en' },
  };
}

function vec(...xs: number[]): Float32Array {
  return Float32Array.from(xs);
}

function ids(entries: MemoryEntry[]): string[] {
  return entries.map((e) => e.id);
}

function byId(entries: MemoryEntry[]): MemoryEntry[] {
  return [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** id → row as plain numbers; an absent or empty block is `{}`. */
function rows(block: VectorBlock | undefined): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  if (!block) return out;
  expect(block.data).toBeInstanceOf(Float32Array);
  expect(block.data.length).toBe(block.ids.length * block.model.dim);
  block.ids.forEach((id, i) => {
    out[id] = Array.from(block.data.subarray(i * block.model.dim, (i + 1) * block.model.dim));
  });
  return out;
}
