import { describe, expect, it } from 'vitest';
import { LexicalIndex } from './lexical-index.js';
import { analyze } from './text.js';
import { thrownCode } from '../testing/rejections.js';

/** Straightforward BM25 recomputed from scratch over the current documents (the reference). */
function referenceBm25(docs: Map<string, string>, query: string, k1 = 1.2, b = 0.75): Map<string, number> {
  const analysed = new Map([...docs].map(([id, text]) => [id, analyze(text)]));
  const n = analysed.size;
  const avgdl = [...analysed.values()].reduce((s, t) => s + t.length, 0) / n;
  const out = new Map<string, number>();
  for (const term of new Set(analyze(query))) {
    const df = [...analysed.values()].filter((t) => t.includes(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [id, terms] of analysed) {
      const tf = terms.filter((t) => t === term).length;
      if (tf === 0) continue;
      const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / avgdl));
      out.set(id, (out.get(id) ?? 0) + s);
    }
  }
  return out;
}

const CORPUS: [string, string][] = [
  ['a', 'I adopted a golden retriever puppy named Max last spring'],
  ['b', 'My sister lives in Lisbon and works as an architect'],
  ['c', 'We talked about running a marathon; I run every morning before work'],
  ['d', 'The dog park near my house closes at 9 pm'],
  ['e', 'Favourite food: sushi, especially salmon nigiri. I dislike olives.'],
  ['f', 'Booked flights to Tokyo for 2025-03-14, returning in April'],
];

describe('LexicalIndex', () => {
  it('ranks the document that shares the query terms first', () => {
    const idx = new LexicalIndex();
    for (const [id, text] of CORPUS) idx.add(id, text);
    expect(idx.search('what is the name of my puppy?', 3)[0]?.id).toBe('a');
    expect(idx.search('Where does my sister live?', 3)[0]?.id).toBe('b');
    expect(idx.search('marathon runs', 3)[0]?.id).toBe('c');
    expect(idx.search('tokyo flight date', 3)[0]?.id).toBe('f');
    expect(idx.search('2025', 3).map((h) => h.id)).toEqual(['f']);
  });

  it('finds words in Chinese, Japanese, Korean and accented text', () => {
    const idx = new LexicalIndex();
    idx.add('zh', '她的猫叫小米，三岁了。');
    idx.add('ja', '毎朝コーヒーを飲みます');
    idx.add('ko', '저는 김치를 좋아해요');
    idx.add('de', 'Wir wohnen in München');
    idx.add('fr', 'Un café près de la gare');
    idx.add('en', 'My cat sleeps all day');
    const top = (q: string) => idx.search(q, 3).map((h) => h.id);
    expect(top('小米')).toEqual(['zh']);
    expect(top('我的猫叫什么名字？')).toEqual(['zh']);
    expect(top('コーヒー')).toEqual(['ja']);
    expect(top('김치')).toEqual(['ko']);
    expect(top('munchen')).toEqual(['de']);
    expect(top('MÜNCHEN')).toEqual(['de']);
    expect(top('cafe')).toEqual(['fr']);
    expect(top('cat')).toEqual(['en']);
  });
  it('scores match a from-scratch BM25 after adds, replacements and removals', () => {
    const idx = new LexicalIndex();
    const docs = new Map<string, string>();
    for (const [id, text] of CORPUS) {
      idx.add(id, text);
      docs.set(id, text);
    }
    idx.add('c', 'running shoes for the dog park marathon'); // replace
    docs.set('c', 'running shoes for the dog park marathon');
    idx.remove('e');
    docs.delete('e');
    idx.add('g', 'dog dog dog');
    docs.set('g', 'dog dog dog');
    expect(idx.size).toBe(docs.size);
    for (const q of ['dog park', 'running marathon shoes', 'sister architect lisbon', 'sushi olives']) {
      const ref = referenceBm25(docs, q);
      const hits = idx.search(q, 10);
      expect(hits.length).toBe(ref.size);
      for (const h of hits) expect(h.score).toBeCloseTo(ref.get(h.id)!, 10);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    }
    expect(idx.search('sushi', 5)).toEqual([]);
    expect(idx.documentFrequency('dog')).toBe(3);
  });

  it('keeps average length and document frequency exact when everything is removed', () => {
    const idx = new LexicalIndex();
    idx.add('x', 'alpha beta');
    idx.add('y', 'alpha gamma delta');
    expect(idx.averageLength).toBe(2.5);
    idx.remove('x');
    expect(idx.averageLength).toBe(3);
    expect(idx.documentFrequency('alpha')).toBe(1);
    expect(idx.remove('x')).toBe(false);
    idx.remove('y');
    expect(idx.size).toBe(0);
    expect(idx.termCount).toBe(0);
    expect(idx.averageLength).toBe(0);
    expect(idx.search('alpha', 5)).toEqual([]);
  });

  it('applies the allow predicate before ranking, once per id', () => {
    const idx = new LexicalIndex();
    for (const [id, text] of CORPUS) idx.add(id, text);
    const calls: string[] = [];
    const hits = idx.search('dog puppy park retriever', 1, (id) => {
      calls.push(id);
      return id !== 'a';
    });
    expect(hits.map((h) => h.id)).toEqual(['d']);
    expect(new Set(calls).size).toBe(calls.length);
  });

  it('honours limit, breaks ties by id and returns nothing for stopword-only queries', () => {
    const idx = new LexicalIndex();
    idx.add('b', 'shared text');
    idx.add('a', 'shared text');
    idx.add('c', 'other words');
    expect(idx.search('shared', 5).map((h) => h.id)).toEqual(['a', 'b']);
    expect(idx.search('shared', 1).map((h) => h.id)).toEqual(['a']);
    expect(idx.search('shared', 0)).toEqual([]);
    expect(idx.search('the and of', 5)).toEqual([]);
    idx.clear();
    expect(idx.has('a')).toBe(false);
    expect(idx.size).toBe(0);
  });

  it('rejects bad input with VALIDATION and changes nothing', () => {
    const idx = new LexicalIndex();
    idx.add('a', 'hello world');
    const bad = [
      () => idx.add('', 'x'),
      () => idx.add('a', 42 as unknown as string),
      () => idx.search('hello', -1),
      () => idx.search('hello', 1.5),
      () => idx.search(null as unknown as string, 1),
      () => new LexicalIndex({ b: 2 }),
    ];
    for (const f of bad) {
      expect(thrownCode(f)).toBe('VALIDATION');
    }
    expect(idx.search('hello', 5).map((h) => h.id)).toEqual(['a']);
  });
});
