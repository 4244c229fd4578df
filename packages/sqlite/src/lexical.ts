import { analyze, bm25Idf, bm25TermScore } from '@zerda/core/adapter';

/**
 * Lexical search helpers. Text is analysed in JavaScript with core's {@link analyze} (Unicode
 * tokens, diacritics folded, CJK split into character bigrams, English stopwords dropped, Porter
 * stemming), so SQLite indexes exactly the terms core's in-memory `LexicalIndex` does. The terms
 * are stored space-separated in `entries.terms` and indexed by an FTS4 table with the `simple`
 * tokenizer, which splits only on ASCII punctuation and whitespace and so keeps every analysed term
 * whole. Queries are analysed the same way, each term quoted (so no FTS syntax can be injected) and
 * joined with OR. BM25 is computed in JavaScript from `matchinfo(…, 'pcx')` with per-tenant
 * statistics (document count, average length, document frequency), so one tenant's data never
 * shifts another tenant's scores.
 */

/** The indexed terms of `text`: core's {@link analyze}. Its length is the BM25 document length. */
export function ftsTerms(text: string): string[] {
  return analyze(text);
}

/** Most distinct query terms used (longer queries are cut). */
export const MAX_QUERY_TERMS = 64;

/** An FTS4 MATCH expression for free text, or `undefined` when it has no terms. */
export function matchExpression(query: string): { expr: string; terms: number } | undefined {
  const terms = [...new Set(ftsTerms(query))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return undefined;
  // Terms hold only letters, marks and digits, so quoting needs no escaping.
  return { expr: terms.map((t) => `"${t}"`).join(' OR '), terms: terms.length };
}

/** A candidate row: its matchinfo `pcx` blob and document length. */
export interface Candidate {
  id: string;
  matchinfo: Uint8Array;
  docLen: number;
  allowed: boolean;
}

/**
 * Rank candidates by BM25. `n` and `avgDl` describe the tenant's whole corpus. Document
 * frequencies come from `df`: `'candidates'` counts them over `candidates`, which must then be every
 * tenant row matching any term (filters only mark rows `allowed`, so they never change the
 * statistics); `'table'` takes them from the matchinfo `x` triples (rows with a hit in the whole FTS
 * table), right when the table holds the tenant's rows alone.
 */
export function rankBm25(
  candidates: Candidate[],
  n: number,
  avgDl: number,
  limit: number,
  df: 'candidates' | 'table' = 'candidates',
): { id: string; score: number }[] {
  if (candidates.length === 0 || limit <= 0) return [];
  const rows = candidates.map((c) => ({ c, info: new Matchinfo(c.matchinfo) }));
  const phrases = rows[0]!.info.phrases;
  const freq = new Array<number>(phrases).fill(0);
  if (df === 'table') for (let p = 0; p < phrases; p++) freq[p] = rows[0]!.info.rowsWithHits(p);
  else for (const r of rows) for (let p = 0; p < phrases; p++) if (r.info.hits(p) > 0) freq[p]!++;
  const idf = freq.map((d) => bm25Idf(n, d));
  const avg = avgDl > 0 ? avgDl : 1;
  const out: { id: string; score: number }[] = [];
  for (const { c, info } of rows) {
    if (!c.allowed) continue;
    let score = 0;
    for (let p = 0; p < phrases; p++) {
      const tf = info.hits(p);
      if (tf > 0) score += bm25TermScore(idf[p]!, tf, c.docLen, avg);
    }
    if (score > 0) out.push({ id: c.id, score });
  }
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, limit);
}

/** A `pcx` matchinfo blob: phrase and column counts, then per phrase and column (hits in this row, in all rows, rows with hits). */
class Matchinfo {
  readonly phrases: number;
  readonly #ints: Uint32Array;
  readonly #cols: number;

  constructor(blob: Uint8Array) {
    // sql.js hands each blob in its own buffer at offset 0; copy only when it is not aligned.
    this.#ints =
      blob.byteOffset % 4 === 0
        ? new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2)
        : new Uint32Array(blob.slice().buffer);
    this.phrases = this.#ints[0] ?? 0;
    this.#cols = this.#ints[1] ?? 1;
  }

  /** Hits of phrase `p` in this row, all columns. */
  hits(p: number): number {
    return this.#sum(p, 0);
  }

  /** Rows of the whole FTS table with a hit of phrase `p` (one column: the table has one). */
  rowsWithHits(p: number): number {
    return this.#sum(p, 2);
  }

  #sum(p: number, k: number): number {
    let sum = 0;
    for (let col = 0; col < this.#cols; col++) sum += this.#ints[2 + 3 * (p * this.#cols + col) + k] ?? 0;
    return sum;
  }
}
