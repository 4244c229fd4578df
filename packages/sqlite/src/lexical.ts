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
 * Rank candidates by BM25. `n` and `avgDl` describe the tenant's whole corpus; document
 * frequencies are counted over `candidates`, which must be every tenant row matching any term
 * (filters only mark rows `allowed`, so they never change the statistics).
 */
export function rankBm25(
  candidates: Candidate[],
  n: number,
  avgDl: number,
  limit: number,
): { id: string; score: number }[] {
  if (candidates.length === 0 || limit <= 0) return [];
  const rows = candidates.map((c) => ({ c, hits: phraseHits(c.matchinfo) }));
  const phrases = rows[0]!.hits.length;
  const df = new Array<number>(phrases).fill(0);
  for (const r of rows) for (let p = 0; p < phrases; p++) if ((r.hits[p] ?? 0) > 0) df[p]!++;
  const idf = df.map((d) => bm25Idf(n, d));
  const avg = avgDl > 0 ? avgDl : 1;
  const out: { id: string; score: number }[] = [];
  for (const { c, hits } of rows) {
    if (!c.allowed) continue;
    let score = 0;
    for (let p = 0; p < phrases; p++) {
      const tf = hits[p] ?? 0;
      if (tf > 0) score += bm25TermScore(idf[p]!, tf, c.docLen, avg);
    }
    if (score > 0) out.push({ id: c.id, score });
  }
  out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, limit);
}

/** Per-phrase hit counts in the row from a `pcx` matchinfo blob (one column). */
function phraseHits(blob: Uint8Array): number[] {
  const ints = new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength) as ArrayBuffer);
  const p = ints[0] ?? 0;
  const c = ints[1] ?? 1;
  const hits: number[] = [];
  for (let i = 0; i < p; i++) {
    let sum = 0;
    for (let col = 0; col < c; col++) sum += ints[2 + 3 * (i * c + col)] ?? 0;
    hits.push(sum);
  }
  return hits;
}
