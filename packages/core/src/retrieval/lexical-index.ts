import { invalid } from '../model/errors.js';
import type { LexicalHit } from '../storage/storage.js';
import { analyze } from './text.js';
import { isCount, TopK } from './top-k.js';

/** BM25 parameters. */
export interface Bm25Options {
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalisation (0 = none, 1 = full). Default 0.75. */
  b?: number;
  /** Text analysis; default {@link analyze} (tokenise, drop stopwords, Porter-stem). */
  analyzer?: (text: string) => string[];
}

/** Okapi BM25 defaults used by every Zerda lexical index (in-memory, SQLite, PostgreSQL). */
export const BM25_DEFAULTS: Readonly<{ k1: number; b: number }> = Object.freeze({ k1: 1.2, b: 0.75 });

/**
 * The non-negative BM25 IDF of a term found in `df` of `n` documents:
 * `ln(1 + (n - df + 0.5) / (df + 0.5))`. Adapters that keep their own postings call this (and
 * {@link bm25TermScore}) so their scores equal {@link LexicalIndex}'s.
 */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * One query term's BM25 contribution to a document's score: `idf · tf · (k1 + 1) / (tf + k1 ·
 * (1 - b + b · docLength / averageLength))`. A document's score is the sum over the distinct query
 * terms it contains.
 */
export function bm25TermScore(
  idf: number,
  tf: number,
  docLength: number,
  averageLength: number,
  k1 = BM25_DEFAULTS.k1,
  b = BM25_DEFAULTS.b,
): number {
  return (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * docLength) / averageLength));
}

interface Doc {
  terms: Map<string, number>;
  length: number;
}

/**
 * An in-memory Okapi BM25 index over {@link analyze}d text. Documents are added, replaced and
 * removed incrementally; document frequencies and the average length stay exact after every
 * change. Scores use the non-negative IDF `ln(1 + (N - df + 0.5) / (df + 0.5))`.
 *
 * With the default analyzer, matching is Unicode-aware: accents fold ("munchen" finds
 * "München"), and Chinese, Japanese and Korean text is indexed as character bigrams ("小米" is
 * found in "她的猫叫小米"). `@zerda/sqlite` indexes the same terms, so keyword recall and scores are
 * the same in both adapters.
 */
export class LexicalIndex {
  readonly #k1: number;
  readonly #b: number;
  readonly #analyzer: (text: string) => string[];
  readonly #docs = new Map<string, Doc>();
  /** term → (doc id → term frequency) */
  readonly #postings = new Map<string, Map<string, number>>();
  #totalLength = 0;

  constructor(options: Bm25Options = {}) {
    const { k1 = BM25_DEFAULTS.k1, b = BM25_DEFAULTS.b, analyzer = analyze } = options;
    if (typeof k1 !== 'number' || !Number.isFinite(k1) || k1 < 0) invalid('k1', 'a finite number >= 0', k1);
    if (typeof b !== 'number' || !(b >= 0 && b <= 1)) invalid('b', 'a number in [0, 1]', b);
    if (typeof analyzer !== 'function') invalid('analyzer', 'a function', analyzer);
    this.#k1 = k1;
    this.#b = b;
    this.#analyzer = analyzer;
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.#docs.size;
  }

  /** Number of distinct indexed terms. */
  get termCount(): number {
    return this.#postings.size;
  }

  /** Average document length in terms (0 when empty). */
  get averageLength(): number {
    return this.#docs.size === 0 ? 0 : this.#totalLength / this.#docs.size;
  }

  /** Index `text` under `id`, replacing what `id` held before. */
  add(id: string, text: string): void {
    if (typeof id !== 'string' || id.length === 0) invalid('id', 'a non-empty string', id);
    if (typeof text !== 'string') invalid('text', 'a string', text);
    const tokens = this.#analyzer(text);
    this.remove(id);
    const terms = new Map<string, number>();
    for (const t of tokens) terms.set(t, (terms.get(t) ?? 0) + 1);
    for (const [term, tf] of terms) {
      let posting = this.#postings.get(term);
      if (!posting) this.#postings.set(term, (posting = new Map()));
      posting.set(id, tf);
    }
    this.#docs.set(id, { terms, length: tokens.length });
    this.#totalLength += tokens.length;
  }

  /** Remove `id`. Returns true when it was indexed. */
  remove(id: string): boolean {
    const doc = this.#docs.get(id);
    if (!doc) return false;
    for (const term of doc.terms.keys()) {
      const posting = this.#postings.get(term);
      if (!posting) continue;
      posting.delete(id);
      if (posting.size === 0) this.#postings.delete(term);
    }
    this.#docs.delete(id);
    this.#totalLength -= doc.length;
    return true;
  }

  /** True when `id` is indexed. */
  has(id: string): boolean {
    return this.#docs.has(id);
  }

  /** Number of documents containing the (already analysed) `term`. */
  documentFrequency(term: string): number {
    return this.#postings.get(term)?.size ?? 0;
  }

  /** Remove every document. */
  clear(): void {
    this.#docs.clear();
    this.#postings.clear();
    this.#totalLength = 0;
  }

  /**
   * The best `limit` documents for `query`, best first (ties by id ascending). Only documents
   * sharing at least one analysed term with the query are returned, with a score > 0. When `allow`
   * is given, documents it rejects are skipped before ranking (it is called at most once per id).
   */
  search(query: string, limit: number, allow?: (id: string) => boolean): LexicalHit[] {
    if (typeof query !== 'string') invalid('query', 'a string', query);
    if (!isCount(limit)) invalid('limit', 'an integer >= 0', limit);
    if (allow !== undefined && typeof allow !== 'function') invalid('allow', 'a function', allow);
    if (limit === 0 || this.#docs.size === 0) return [];
    return this.searchTerms(new Set(this.#analyzer(query)), limit, allow);
  }

  /**
   * {@link LexicalIndex.search} for terms already analysed (with this index's analyzer): the query
   * is read once by the caller.
   */
  searchTerms(queryTerms: ReadonlySet<string>, limit: number, allow?: (id: string) => boolean): LexicalHit[] {
    if (!isCount(limit)) invalid('limit', 'an integer >= 0', limit);
    if (limit === 0 || this.#docs.size === 0) return [];
    const n = this.#docs.size;
    const avgdl = this.#totalLength / n || 1;
    const k1 = this.#k1;
    const b = this.#b;
    const scores = new Map<string, number>();
    const rejected = allow ? new Set<string>() : undefined;
    for (const term of queryTerms) {
      const posting = this.#postings.get(term);
      if (!posting) continue;
      const df = posting.size;
      const idf = bm25Idf(n, df);
      for (const [id, tf] of posting) {
        if (rejected) {
          if (rejected.has(id)) continue;
          if (!scores.has(id) && !allow!(id)) {
            rejected.add(id);
            continue;
          }
        }
        const s = bm25TermScore(idf, tf, this.#docs.get(id)!.length, avgdl, k1, b);
        scores.set(id, (scores.get(id) ?? 0) + s);
      }
    }
    const top = new TopK(limit);
    for (const [id, score] of scores) if (score > 0) top.push(id, score);
    return top.sorted();
  }
}
