import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { entryText, MemoryManager, InMemoryStorage } from '@zerda/core';
import { analyze, createEntry, LexicalIndex } from '@zerda/core/adapter';
import type { StorageAdapter } from '@zerda/core';
import type { MemoryEntry } from '@zerda/core';
import { MemoryPersistence, createMemoryPersistenceState } from './persistence.js';
import type { MemoryPersistenceState, StreamName } from './persistence.js';
import { decodeRecord } from './record-codec.js';
import { SCHEMA_VERSION } from './schema.js';
import { SqliteStorage } from './sqlite-storage.js';

const T0 = 1_700_000_000_000;

function fact(id: string, text: string, tenantId = 't1'): MemoryEntry {
  return { ...createEntry(tenantId, { content: { title: 'note', text } }, T0), id };
}

const CORPUS: [string, string][] = [
  ['zh', '她的猫叫小米，三岁了。'],
  ['zh2', '小米手机的电池很耐用'],
  ['ja', '毎朝コーヒーを飲みます'],
  ['ko', '저는 김치를 좋아해요'],
  ['de', 'Wir sind nach München gezogen'],
  ['fr', 'Mon café préféré est près de la gare'],
  ['en', 'I was running in the park with my cat'],
  ['en2', 'The runners ate pasta after the race'],
  ['mixed', '我在Tokyo买了iPhone'],
];

async function ids(s: SqliteStorage, query: string): Promise<string[]> {
  return (await s.lexicalSearch({ tenantId: 't1', query, limit: 10 })).map((h) => h.id);
}

describe('lexical search tokenisation', () => {
  it('finds CJK words and accent-folded words', async () => {
    const s = await SqliteStorage.open();
    await s.putMany(CORPUS.map(([id, text]) => fact(id, text)));
    expect(await ids(s, '小米')).toEqual(expect.arrayContaining(['zh', 'zh2']));
    expect((await ids(s, '小米')).length).toBe(2);
    expect((await ids(s, '我的猫叫什么名字？'))[0]).toBe('zh');
    expect(await ids(s, 'コーヒー')).toEqual(['ja']);
    expect(await ids(s, '김치')).toEqual(['ko']);
    expect(await ids(s, 'munchen')).toEqual(['de']);
    expect(await ids(s, 'MÜNCHEN')).toEqual(['de']);
    expect(await ids(s, 'cafe')).toEqual(['fr']);
    expect(await ids(s, 'iphone')).toEqual(['mixed']);
    expect(await ids(s, 'tokyo')).toEqual(['mixed']);
    expect(await ids(s, 'runs')).toEqual(['en']);
    await s.close();
  });

  it('ranks and scores exactly like core LexicalIndex on the same corpus', async () => {
    const s = await SqliteStorage.open();
    const idx = new LexicalIndex();
    const extra = Array.from({ length: 12 }, (_, i): [string, string] => [
      `n${i}`,
      `note ${i}: the cat ran to the café, 猫${i % 3 ? '很乖' : '叫小米'}`,
    ]);
    const corpus = [...CORPUS, ...extra];
    await s.putMany(corpus.map(([id, text]) => fact(id, text)));
    for (const [id, text] of corpus) idx.add(id, entryText(fact(id, text)));
    // Another tenant's rows must not shift the statistics.
    await s.putMany(corpus.map(([id, text]) => fact(id, text + ' 小米 cat', 't2')));
    for (const q of ['小米', '猫很乖', 'cat café running', 'München', '我的猫叫什么', 'note 3', 'コーヒー 김치']) {
      const got = await s.lexicalSearch({ tenantId: 't1', query: q, limit: 8 });
      const want = idx.search(q, 8);
      expect(
        got.map((h) => h.id),
        q,
      ).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score, q).toBeCloseTo(want[i]!.score, 10));
      expect(want.length, q).toBeGreaterThan(0);
    }
    await s.close();
  });

  it('treats FTS syntax in queries as plain words', async () => {
    const s = await SqliteStorage.open();
    await s.putMany(CORPUS.map(([id, text]) => fact(id, text)));
    for (const q of [
      '"',
      'cafe*',
      'cafe NEAR gare',
      '-munchen',
      'terms:cafe',
      '^cafe',
      'cafe OR',
      '") OR 1=1 --',
      'AND OR NOT',
    ]) {
      const hits = await ids(s, q);
      expect(Array.isArray(hits), q).toBe(true);
    }
    expect(await ids(s, 'terms:cafe')).toEqual(['fr']);
    expect(await ids(s, '-munchen')).toEqual(['de']);
    expect(await ids(s, 'cafe*')).toEqual(['fr']);
    expect(await ids(s, '"')).toEqual([]);
    await s.close();
  });

  it('unindexes the old text when an entry is replaced or deleted', async () => {
    const s = await SqliteStorage.open();
    await s.putMany(CORPUS.map(([id, text]) => fact(id, text)));
    await s.put(fact('zh', '她的狗叫旺财'));
    expect(await ids(s, '小米')).toEqual(['zh2']);
    expect(await ids(s, '旺财')).toEqual(['zh']);
    await s.delete('t1', 'zh');
    expect(await ids(s, '旺财')).toEqual([]);
    await s.close();
  });
});

describe('filtered lexical search in a one-tenant store', () => {
  // A one-tenant store reads only the rows the filter allows and takes document frequencies from
  // FTS4's table-wide counts; they must be the tenant's own, after replacements and deletions too.
  const WORDS = 'cat dog park coffee tokyo guitar sister birthday doctor recipe hiking jazz novel garden'.split(' ');
  const KINDS = ['fact', 'preference', 'event', 'conversation'] as const;
  const text = (i: number) =>
    Array.from({ length: 3 + (i % 5) }, (_, k) => WORDS[(i * 7 + k * k * 3 + k) % WORDS.length]).join(' ');
  const entry = (i: number, tenantId = 't1', t = text(i)): MemoryEntry => ({
    ...createEntry(tenantId, { content: { title: 'note', text: t }, kind: KINDS[i % KINDS.length] }, T0),
    id: `e${String(i).padStart(3, '0')}`,
  });

  it('ranks and scores like the in-memory index and like a store shared with another tenant', async () => {
    const persistence = new MemoryPersistence();
    const alone = await SqliteStorage.open({ persistence });
    const shared = await SqliteStorage.open();
    const idx = new LexicalIndex();
    const live = new Map<string, MemoryEntry>();
    const put = async (e: MemoryEntry) => {
      await alone.put(e);
      await shared.put(e);
      idx.remove(e.id);
      idx.add(e.id, entryText(e));
      live.set(e.id, e);
    };
    const remove = async (id: string) => {
      await alone.delete('t1', id);
      await shared.delete('t1', id);
      idx.remove(id);
      live.delete(id);
    };
    const compare = async (store: SqliteStorage) => {
      let compared = 0;
      let found = 0;
      for (const kinds of [['fact', 'event'], ['preference'], undefined]) {
        for (const q of ['cat', 'park coffee', 'tokyo guitar sister', 'jazz novel garden cat', 'doctor recipe']) {
          const query = { tenantId: 't1', query: q, limit: 8, ...(kinds ? { filter: { kinds } } : {}) };
          const got = await store.lexicalSearch(query);
          const want = idx.search(q, 8, (id) => !kinds || kinds.includes(live.get(id)!.kind));
          found += got.length;
          expect(
            got.map((h) => h.id),
            q,
          ).toEqual(want.map((h) => h.id));
          got.forEach((h, i) => expect(h.score, q).toBeCloseTo(want[i]!.score, 10));
          expect(await shared.lexicalSearch(query), q).toEqual(got);
          compared++;
        }
      }
      expect(compared).toBe(15);
      expect(found).toBeGreaterThan(60);
    };
    // The other tenant's rows share every word: counted table-wide, they would shift the scores.
    await shared.putMany(Array.from({ length: 40 }, (_, i) => entry(i, 't2', `${text(i)} cat park tokyo`)));
    for (let i = 0; i < 120; i++) await put(entry(i));
    // Searched before the rest is written: from here on the corpus statistics follow each write.
    await compare(alone);
    for (let i = 120; i < 160; i++) await put(entry(i));
    for (let i = 0; i < 160; i += 9) await put(entry(i, 't1', `${text(i + 1)} cat cat`));
    for (let i = 3; i < 160; i += 11) await remove(entry(i).id);
    await alone.deleteMany(
      't1',
      [20, 21, 22].map((i) => entry(i).id),
    );
    await shared.deleteMany(
      't1',
      [20, 21, 22].map((i) => entry(i).id),
    );
    for (const i of [20, 21, 22]) {
      idx.remove(entry(i).id);
      live.delete(entry(i).id);
    }
    await compare(alone);
    // A write that fails is rolled back with the statistics it touched.
    await expect(alone.put({ ...entry(500), importance: Number.NaN })).rejects.toThrow();
    await compare(alone);
    await alone.close();
    // Reopened: the statistics are counted afresh.
    const reopened = await SqliteStorage.open({ persistence });
    await compare(reopened);
    await reopened.close();
    await shared.close();
  });
});

describe('recall through MemoryManager', () => {
  it('finds the same memories with the same lexical scores in memory and in SQLite', async () => {
    const recallAll = async (storage: StorageAdapter) => {
      const mgr = await MemoryManager.create({ storage, owner: 'o' });
      for (const [, text] of CORPUS) await mgr.remember('o', 't1', { title: 'note', text });
      await mgr.flush();
      const out: Record<string, [string, number | undefined][]> = {};
      for (const q of ['小米', '她的猫叫什么？', 'コーヒー', '김치', 'munchen', 'café', 'running']) {
        const hits = await mgr.recall('o', 't1', q, { mode: 'lexical', reinforce: false });
        out[q] = hits.map((h) => [entryText(h.entry), h.lexicalScore]);
      }
      await mgr.close();
      return out;
    };
    const sqlite = await recallAll(await SqliteStorage.open());
    const memory = await recallAll(new InMemoryStorage());
    expect(sqlite.小米![0]![0]).toContain('小米');
    expect(sqlite.コーヒー![0]![0]).toContain('コーヒー');
    expect(sqlite.munchen![0]![0]).toContain('München');
    expect(sqlite.café![0]![0]).toContain('café');
    for (const q of Object.keys(memory)) {
      expect(
        sqlite[q]!.map((h) => h[0]),
        q,
      ).toEqual(memory[q]!.map((h) => h[0]));
      sqlite[q]!.forEach((h, i) => expect(h[1], q).toBeCloseTo(memory[q]![i]![1]!, 10));
    }
  });
});

/** Persisted state written by the schema-1 build (FTS4 over raw text with `porter`); see the test below. */
function schemaV1State(): MemoryPersistenceState {
  const raw = JSON.parse(
    gunzipSync(readFileSync(new URL('../test/fixtures/schema-v1.json.gz', import.meta.url))).toString('utf8'),
  ) as {
    meta: string;
    streams: Record<StreamName, { base: string[]; upto: number; log: { seq: number; bytes: string }[] }>;
  };
  const bytes = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));
  const state = createMemoryPersistenceState();
  state.meta = bytes(raw.meta);
  for (const k of ['main', 'vectors'] as const) {
    const st = raw.streams[k];
    state.streams[k] = {
      base: st.base.map(bytes),
      upto: st.upto,
      log: st.log.map((r) => ({ seq: r.seq, bytes: bytes(r.bytes) })),
    };
  }
  return state;
}

describe('schema 1 → 2 migration', () => {
  // The fixture was written by the schema-1 build: a snapshot holding 'zh', 'de', 'en' and 'gone',
  // then log records that add 'fr' and 'ja' (an interaction) and delete 'gone'.
  it('opens a schema-1 database, rebuilds the index and searches it like a new one', async () => {
    const state = schemaV1State();
    const s = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await s.count({ tenantId: 't1' })).toBe(5);
    expect(await ids(s, '小米')).toEqual(['zh']);
    expect(await ids(s, 'munchen')).toEqual(['de']);
    expect(await ids(s, 'cafe')).toEqual(['fr']);
    expect(await ids(s, 'コーヒー')).toEqual(['ja']);
    expect(await ids(s, 'runs')).toEqual(['en']);
    expect(await ids(s, 'kingfisher')).toEqual([]);
    // Replacing a migrated row unindexes its migrated terms.
    await s.put(fact('zh', '她的狗叫旺财'));
    expect(await ids(s, '小米')).toEqual([]);
    expect(await ids(s, '旺财')).toEqual(['zh']);

    const SQL = await initSqlJs();
    const db = new SQL.Database(s.exportDatabase());
    expect(db.exec('PRAGMA user_version')[0]!.values[0]![0]).toBe(SCHEMA_VERSION);
    expect(String(db.exec("SELECT sql FROM sqlite_master WHERE name = 'entries_fts'")[0]!.values[0]![0])).toMatch(
      /tokenize=simple/,
    );
    // Document lengths were recomputed from the analysed terms (BM25 statistics as in core).
    const lens = db.exec("SELECT id, doc_len, terms FROM entries WHERE id IN ('de', 'en') ORDER BY id")[0]!.values;
    const want = (text: string) => analyze(entryText({ content: { title: 'note', text } }));
    expect(lens).toEqual([
      ['de', want('Wir sind nach München gezogen').length, want('Wir sind nach München gezogen').join(' ')],
      [
        'en',
        want('I go running every morning before work').length,
        want('I go running every morning before work').join(' '),
      ],
    ]);
    expect(lens[1]![2]).toBe('note go run everi morn work');
    db.close();
    await s.close();
    // The open rewrote the snapshot in schema 2 (folding the log), so the next open migrates nothing.
    const snap = await decodeRecord<{ o: string; schema: number }>(state.streams.main.base[0]!, undefined);
    expect(snap.header.schema).toBe(SCHEMA_VERSION);
    const snapDb = new SQL.Database(snap.tail);
    expect(snapDb.exec('PRAGMA user_version')[0]!.values[0]![0]).toBe(SCHEMA_VERSION);
    snapDb.close();

    // Reopening (now a migrated snapshot plus log) keeps everything searchable.
    const again = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    await again.compact();
    await again.close();
    const third = await SqliteStorage.open({ persistence: new MemoryPersistence(state) });
    expect(await ids(third, '旺财')).toEqual(['zh']);
    expect(await ids(third, 'munchen')).toEqual(['de']);
    await third.close();
  });
});
