/**
 * Does the int8 SIMD scan (VectorIndex's default) give the same top-k as the exact float scan on
 * real embeddings? On LoCoMo (both halves), with the bundled `use-lite` model: per conversation,
 * its turns in one index and each question as the query, the int8 kernel (forced on from the first
 * row: `simdMinRows: 0`, as LoCoMo stores are below the default 1024), the float32 kernel and the
 * JavaScript scan; then all ten conversations in one index (~5.9k rows). Prints how many queries
 * return bit-identical hits (ids, order, scores) and vector-only recall@10 of the evidence turns
 * for each. A fourth index holds the vectors as `vectorPrecision: 'int8'` stores them (dequantised int8
 * rows): scores differ from the exact ones, so it is compared by ids (same top-k set) and recall@10.
 * Vectors are cached under `.tmp/retrieval-cache` (the model runs only on a miss).
 * Run: `LOCOMO_PATH=… node --conditions=@zerda/source --import tsx test/bench/vector-locomo.ts`.
 * Prints figures only; never gates CI.
 */
import { VectorIndex, type VectorIndexOptions } from '../../packages/core/src/retrieval/vector-index.js';
import { decodeVectorRowsInto, encodeVectorRows } from '../../packages/core/src/storage/vector-precision.js';
import { loadLocomo } from './retrieval/locomo.js';
import { createCachedUseLite, REPO_ROOT } from './retrieval/model.js';

const path = process.env.LOCOMO_PATH ?? `${REPO_ROOT}../shared/bench/data/locomo10.json`;
const all = loadLocomo(path);
const embedder = createCachedUseLite();
const K = [10, 25];
const STORED = 'int8-stored vectors';
const SCANS: [string, VectorIndexOptions][] = [
  ['int8 SIMD', { simdMinRows: 0 }],
  ['float32 SIMD', { simdMinRows: 0, quantization: 'none' }],
  ['JavaScript', { simd: false }],
  // Vectors stored as int8 (SqliteStorage's `vectorPrecision: 'int8'`): the index holds the
  // dequantised rows, so scores differ slightly from the exact ones; compared by ids below.
  [STORED, { simdMinRows: 0 }],
];

interface Tally {
  queries: number;
  identical: Record<string, number>;
  /** Queries whose top k holds the same ids as the exact scan's (any order). */
  sameIds: Record<string, number>;
  hit10: Record<string, number>;
}
const tally = (): Tally => ({ queries: 0, identical: {}, sameIds: {}, hit10: {} });

async function run(
  rows: { ids: string[]; texts: string[] },
  questions: { q: string; evidence: Set<string> }[],
  t: Tally,
) {
  const vectors = await embedder.embed(rows.texts);
  const data = new Float32Array(vectors.length * embedder.dim);
  vectors.forEach((v, i) => data.set(v, i * embedder.dim));
  const block = { model: { id: embedder.modelId, dim: embedder.dim }, ids: rows.ids, data };
  const stored = new Float32Array(data.length);
  decodeVectorRowsInto(encodeVectorRows(data, embedder.dim, 'int8'), rows.ids.length, embedder.dim, stored);
  const indexes = SCANS.map(
    ([name, opts]) =>
      [name, VectorIndex.fromBlock(name === STORED ? { ...block, data: stored } : block, opts)] as const,
  );
  for (const [name, idx] of indexes)
    if (idx.simd !== (name !== 'JavaScript')) throw new Error(`${name}: wrong scan path`);
  const qv = await embedder.embed(questions.map((x) => x.q));
  for (let i = 0; i < questions.length; i++) {
    t.queries++;
    for (const k of K) {
      const ref = indexes[2]![1].search(qv[i]!, k);
      for (const [name, idx] of indexes) {
        const hits = idx.search(qv[i]!, k);
        const same =
          hits.length === ref.length && hits.every((h, j) => h.id === ref[j]!.id && h.score === ref[j]!.score);
        if (same) t.identical[`${name} k=${k}`] = (t.identical[`${name} k=${k}`] ?? 0) + 1;
        const want = new Set(ref.map((h) => h.id));
        if (hits.length === ref.length && hits.every((h) => want.has(h.id)))
          t.sameIds[`${name} k=${k}`] = (t.sameIds[`${name} k=${k}`] ?? 0) + 1;
        if (k === 10 && hits.some((h) => questions[i]!.evidence.has(h.id))) t.hit10[name] = (t.hit10[name] ?? 0) + 1;
      }
    }
  }
}

const halves: [string, typeof all][] = [
  ['dev (conversations 1-5)', all.slice(0, 5)],
  ['other (conversations 6-10)', all.slice(5)],
];
const results: [string, Tally][] = [];
for (const [half, convs] of halves) {
  const t = tally();
  for (const c of convs) {
    const turns = c.sessions.flatMap((s) => s.turns);
    await run(
      { ids: turns.map((x) => x.diaId), texts: turns.map((x) => x.text) },
      c.questions.map((q) => ({ q: q.question, evidence: new Set(q.evidence) })),
      t,
    );
  }
  results.push([half, t]);
}
// All ten conversations in one index: ids carry the conversation, so evidence stays per conversation.
{
  const t = tally();
  const turns = all.flatMap((c) =>
    c.sessions.flatMap((s) => s.turns.map((x) => ({ id: `${c.sampleId}/${x.diaId}`, text: x.text }))),
  );
  await run(
    { ids: turns.map((x) => x.id), texts: turns.map((x) => x.text) },
    all.flatMap((c) =>
      c.questions.map((q) => ({ q: q.question, evidence: new Set(q.evidence.map((e) => `${c.sampleId}/${e}`)) })),
    ),
    t,
  );
  results.push([`all ten in one index (${turns.length} rows)`, t]);
}
embedder.save();

const cols = SCANS.flatMap(([n]) => K.map((k) => `${n} k=${k}`));
const storedCols = K.map((k) => `${STORED} k=${k}`);
console.log(
  `| set | queries | ${cols.map((c) => `= JS, ${c}`).join(' | ')} | ${storedCols.map((c) => `same ids as JS, ${c}`).join(' | ')} | ${SCANS.map(([n]) => `R@10 ${n}`).join(' | ')} |`,
);
console.log(
  `|---|---:|${cols.map(() => '---:').join('|')}|${storedCols.map(() => '---:').join('|')}|${SCANS.map(() => '---:').join('|')}|`,
);
for (const [set, t] of results)
  console.log(
    `| ${set} | ${t.queries} | ${cols.map((c) => t.identical[c] ?? 0).join(' | ')} | ${storedCols.map((c) => t.sameIds[c] ?? 0).join(' | ')} | ${SCANS.map(([n]) => `${(((t.hit10[n] ?? 0) / t.queries) * 100).toFixed(1)} %`).join(' | ')} |`,
  );
