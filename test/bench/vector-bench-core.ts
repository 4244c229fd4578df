/**
 * Shared body of the vector-search benchmark (Node: vector-node.ts, Chromium: vector-browser.ts
 * driving pages/vector). For each size it builds one set of seeded random unit vectors and, in the
 * same process on the same vectors, measures top-k query latency (p50/p95) of
 * - `VectorIndex` from @zerda/core as shipped (int8 SIMD scan with exact re-scoring), the same
 *   with `quantization: 'none'` (float32 SIMD scan) and with `simd: false` (JavaScript scan);
 * - the read limit: a WebAssembly SIMD loop that only reads the float32 block (read-limit.ts), so
 *   every scan's p50 is also printed as a ratio of the time to read that block once;
 * - a straightforward per-entry loop: one `Float32Array` per entry, dot product against each,
 *   push every `{ id, score }`, full sort, slice;
 * - @orama/orama's vector search (`mode: 'vector'`, `similarity: -1` so every row is a candidate
 *   and the top k are exact, as ours are; Orama's default 0.8 threshold would return nothing on
 *   random 512-d vectors).
 * Contenders run round-robin per query so machine noise hits them alike. It also checks that the
 * three agree on the top-k ids, and times hydration (`VectorIndex.fromBlock`) and the baselines'
 * build steps. Prints nothing itself; returns figures. Never part of CI.
 */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { VectorIndex } from '../../packages/core/src/retrieval/vector-index.js';
import type { VectorBlock } from '@zerda/core';
import { seededRandom } from '../../packages/core/src/testing/random.js';
import { createReadLimit } from './read-limit.js';

/** What {@link benchVectors} measures and how. */
export interface VectorBenchConfig {
  /** Row counts to measure, e.g. [10_000, 100_000]. */
  sizes: number[];
  /** Vector dimension. Default 512. */
  dim?: number;
  /** Results per query. Default 10. */
  k?: number;
  /** Measured queries per size (each contender runs each). Default 40. */
  queries?: number;
  /** Unmeasured queries per size first. Default 5. */
  warmup?: number;
  /** `VectorIndex.fromBlock` runs per size (the median is reported). Default 3. */
  buildRuns?: number;
  /** Skip Orama (it dominates setup time). Default false. */
  skipOrama?: boolean;
  /**
   * Also time `VectorIndex` with `{ simd: false }` (its plain JavaScript scan) as
   * 'VectorIndex (JS)', so the SIMD path and the JS path are compared in one run. Default true.
   */
  jsIndex?: boolean;
  /** Also time `VectorIndex` with `{ quantization: 'none' }` (its float32 SIMD scan). Default true. */
  float32Index?: boolean;
  /**
   * More index implementations timed like `VectorIndex` (e.g. a frozen pre-change copy, to
   * measure before and after in one run), by label.
   */
  extraIndexes?: Record<string, IndexClass>;
  seed?: number;
  /** Monotonic clock in ms (performance.now). */
  now: () => number;
  log?: (line: string) => void;
}

/** What the benchmark needs of an index class (`VectorIndex` and frozen copies of it). */
export interface IndexClass {
  fromBlock(block: VectorBlock): { search(q: Float32Array, k: number): Hit[] };
}

/** 'VectorIndex', 'per-entry loop', 'orama', or a label of `extraIndexes`. */
export type Contender = string;

/** Query latency of one contender at one size. */
export interface QueryFigures {
  size: number;
  contender: Contender;
  p50Ms: number;
  p95Ms: number;
  minMs: number;
  /** This contender's p50 over the per-entry loop's p50 (below 1 = faster than the loop). */
  vsLoopP50: number;
  /** This contender's p50 over the read limit's p50 (below 1 = faster than reading the float32 block). */
  vsReadP50: number;
}

/** One timed build/hydration step. */
export interface BuildFigures {
  size: number;
  step: string;
  ms: number;
}

/** How often each contender's top-k ids match the per-entry loop's, at one size. */
export interface AgreementFigures {
  size: number;
  queries: number;
  /** Queries whose top-k ids (in order) equal the per-entry loop's. */
  indexSameIds: number;
  /** Same, per extra index label. */
  extraSameIds: Record<string, number>;
  oramaSameIds: number | null;
  /**
   * Per SIMD label ('VectorIndex', 'VectorIndex (float32 SIMD)'): queries whose hits (ids, order
   * and scores) are exactly those of 'VectorIndex (JS)'; empty when the JS path is not timed.
   */
  identicalToJs: Record<string, number>;
  /** Largest |score difference| vs the loop over all compared results. */
  indexMaxScoreDiff: number;
  oramaMaxScoreDiff: number | null;
  /** One line per disagreement, for the log. */
  notes: string[];
}

/** The read limit at one size: the float32 block's bytes and the p50 time to read them once. */
export interface ReadLimitFigures {
  size: number;
  bytes: number;
  p50Ms: number;
  /** bytes / p50, in GB/s (10^9 bytes). */
  gbPerSec: number;
}

/** Everything {@link benchVectors} measured. */
export interface VectorBenchResult {
  query: QueryFigures[];
  build: BuildFigures[];
  agreement: AgreementFigures[];
  readLimit: ReadLimitFigures[];
}

/** One search result, as every contender reports it. */
export interface Hit {
  id: string;
  score: number;
}

/** `rows` unit vectors, uniformly distributed on the sphere (normalised Gaussians). */
function unitVectors(rows: number, dim: number, rand: () => number): Float32Array {
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const off = r * dim;
    let norm = 0;
    for (let j = 0; j < dim; j += 2) {
      // Box-Muller: two Gaussians per pair of uniforms.
      const u = 1 - rand();
      const v = rand();
      const m = Math.sqrt(-2 * Math.log(u));
      const a = m * Math.cos(2 * Math.PI * v);
      out[off + j] = a;
      norm += a * a;
      if (j + 1 < dim) {
        const b = m * Math.sin(2 * Math.PI * v);
        out[off + j + 1] = b;
        norm += b * b;
      }
    }
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dim; j++) out[off + j]! *= inv;
  }
  return out;
}

/** Queries: half fresh random directions, half a stored row plus noise (a realistic near match). */
function makeQueries(count: number, data: Float32Array, rows: number, dim: number, rand: () => number): Float32Array[] {
  const fresh = unitVectors(count, dim, rand);
  const noise = unitVectors(count, dim, rand);
  const out: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const q = fresh.slice(i * dim, (i + 1) * dim);
    if (i % 2 === 1) {
      const row = Math.floor(rand() * rows);
      for (let j = 0; j < dim; j++) q[j] = data[row * dim + j]! + 0.5 * noise[i * dim + j]!;
    }
    out.push(q);
  }
  return out;
}

function loopSearch(vectors: Float32Array[], ids: string[], q: Float32Array, k: number): Hit[] {
  const dim = q.length;
  let qn = 0;
  for (let j = 0; j < dim; j++) qn += q[j]! * q[j]!;
  const inv = qn > 0 ? 1 / Math.sqrt(qn) : 0;
  const scored: Hit[] = [];
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    let s = 0;
    for (let j = 0; j < dim; j++) s += q[j]! * v[j]!;
    scored.push({ id: ids[i]!, score: s * inv });
  }
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return scored.slice(0, k);
}

async function buildOrama(vectors: Float32Array[], ids: string[], dim: number): Promise<AnyOrama> {
  const db = create({ schema: { v: `vector[${dim}]` } as const });
  const batch = 2_000;
  for (let start = 0; start < ids.length; start += batch) {
    const docs = [];
    // Orama's schema check accepts only plain arrays for vectors; it copies them into a Float32Array.
    for (let i = start; i < Math.min(ids.length, start + batch); i++)
      docs.push({ id: ids[i]!, v: Array.from(vectors[i]!) });
    await insertMultiple(db, docs, batch);
  }
  return db;
}

async function oramaSearch(db: AnyOrama, q: Float32Array, k: number): Promise<Hit[]> {
  const res = await search(db, { mode: 'vector', vector: { value: q, property: 'v' }, similarity: -1, limit: k });
  return res.hits.map((h) => ({ id: h.id, score: h.score }));
}

function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i]!;
}

const round = (x: number, d = 2): number => Math.round(x * 10 ** d) / 10 ** d;

/** Compare `got` with the reference; returns the largest score difference, or null when ids differ. */
function compare(ref: Hit[], got: Hit[]): { same: boolean; maxDiff: number } {
  let maxDiff = 0;
  let same = ref.length === got.length;
  for (let i = 0; i < Math.min(ref.length, got.length); i++) {
    if (ref[i]!.id !== got[i]!.id) same = false;
    else maxDiff = Math.max(maxDiff, Math.abs(ref[i]!.score - got[i]!.score));
  }
  return { same, maxDiff };
}

/** The contender that only reads the float32 block (the machine's limit for a float32 scan). */
export const READ_LIMIT = 'read limit (float32 block)';

/** Run the benchmark over `config.sizes`. */
export async function benchVectors(config: VectorBenchConfig): Promise<VectorBenchResult> {
  const {
    dim = 512,
    k = 10,
    queries = 40,
    warmup = 5,
    buildRuns = 3,
    skipOrama = false,
    jsIndex = true,
    float32Index = true,
    seed = 42,
    now,
  } = config;
  const log = config.log ?? (() => {});
  const result: VectorBenchResult = { query: [], build: [], agreement: [], readLimit: [] };

  for (const size of config.sizes) {
    const rand = seededRandom(seed + size);
    let t = now();
    const data = unitVectors(size, dim, rand);
    const ids = Array.from({ length: size }, (_, i) => `m${String(i).padStart(7, '0')}`);
    const qs = makeQueries(warmup + queries, data, size, dim, rand);
    log(`${size}: generated ${size} x ${dim} vectors in ${round(now() - t, 0)} ms`);

    const block: VectorBlock = { model: { id: 'bench', dim }, ids, data };
    const index = VectorIndex.fromBlock(block);
    const extras: { label: string; index: ReturnType<IndexClass['fromBlock']> }[] = [];
    log(
      `${size}: VectorIndex scans with ${index.simd ? `WebAssembly SIMD (${index.quantization})` : 'plain JavaScript'}`,
    );
    const jsClass: IndexClass = { fromBlock: (b) => VectorIndex.fromBlock(b, { simd: false }) };
    const f32Class: IndexClass = { fromBlock: (b) => VectorIndex.fromBlock(b, { quantization: 'none' }) };
    const classes: [string, IndexClass][] = [
      ['VectorIndex', VectorIndex],
      ...(float32Index ? [['VectorIndex (float32 SIMD)', f32Class] as [string, IndexClass]] : []),
      ...(jsIndex ? [['VectorIndex (JS)', jsClass] as [string, IndexClass]] : []),
      ...Object.entries(config.extraIndexes ?? {}),
    ];
    for (const [label, cls] of classes) {
      const buildTimes: number[] = [];
      for (let r = 0; r < buildRuns; r++) {
        t = now();
        const built = cls.fromBlock(block);
        buildTimes.push(now() - t);
        if (r === 0 && label !== 'VectorIndex') extras.push({ label, index: built });
      }
      buildTimes.sort((a, b) => a - b);
      result.build.push({
        size,
        step: `${label}.fromBlock (median of ${buildRuns})`,
        ms: round(quantile(buildTimes, 0.5), 1),
      });
    }

    t = now();
    const upserted = new VectorIndex(dim);
    for (let i = 0; i < size; i++) upserted.upsert(ids[i]!, data.subarray(i * dim, (i + 1) * dim));
    result.build.push({ size, step: 'VectorIndex: upsert one by one', ms: round(now() - t, 1) });
    if (jsIndex) {
      t = now();
      const upsertedJs = new VectorIndex(dim, { simd: false });
      for (let i = 0; i < size; i++) upsertedJs.upsert(ids[i]!, data.subarray(i * dim, (i + 1) * dim));
      result.build.push({ size, step: 'VectorIndex (JS): upsert one by one', ms: round(now() - t, 1) });
    }

    const limit = createReadLimit(data);
    t = now();
    const vectors = Array.from({ length: size }, (_, i) => data.slice(i * dim, (i + 1) * dim));
    result.build.push({ size, step: 'per-entry loop: one Float32Array per entry', ms: round(now() - t, 1) });

    let db: AnyOrama | undefined;
    if (!skipOrama) {
      t = now();
      db = await buildOrama(vectors, ids, dim);
      result.build.push({ size, step: 'orama: insertMultiple', ms: round(now() - t, 1) });
    }
    log(
      `${size}: built (${result.build
        .filter((b) => b.size === size)
        .map((b) => `${b.step} ${b.ms} ms`)
        .join('; ')})`,
    );

    let checksum = 0;
    const contenders: { label: Contender; run: (q: Float32Array) => Hit[] | Promise<Hit[]> }[] = [
      { label: 'VectorIndex', run: (q) => index.search(q, k) },
      ...extras.map((e) => ({ label: e.label, run: (q: Float32Array) => e.index.search(q, k) })),
      { label: 'per-entry loop', run: (q) => loopSearch(vectors, ids, q, k) },
      {
        label: READ_LIMIT,
        run: () => {
          checksum ^= limit.read();
          return [];
        },
      },
    ];
    if (db) contenders.push({ label: 'orama', run: (q) => oramaSearch(db, q, k) });
    const times = new Map<Contender, number[]>(contenders.map((c) => [c.label, []]));
    const agree: AgreementFigures = {
      size,
      queries,
      indexSameIds: 0,
      extraSameIds: Object.fromEntries(extras.map((e) => [e.label, 0])),
      oramaSameIds: db ? 0 : null,
      identicalToJs: {},
      indexMaxScoreDiff: 0,
      oramaMaxScoreDiff: db ? 0 : null,
      notes: [],
    };
    for (let qi = 0; qi < qs.length; qi++) {
      const q = qs[qi]!;
      const measured = qi >= warmup;
      const hits = new Map<Contender, Hit[]>();
      // Rotate the starting contender so none always runs right after another's garbage.
      for (let o = 0; o < contenders.length; o++) {
        const c = contenders[(o + qi) % contenders.length]!;
        const t0 = now();
        const h = await c.run(q);
        const dt = now() - t0;
        if (measured) times.get(c.label)!.push(dt);
        hits.set(c.label, h);
      }
      if (!measured) continue;
      const loop = hits.get('per-entry loop')!;
      const ids10 = (h: Hit[]): string => h.map((x) => x.id).join(',');
      const a = compare(loop, hits.get('VectorIndex')!);
      if (a.same) agree.indexSameIds++;
      else agree.notes.push(`q${qi} VectorIndex ${ids10(hits.get('VectorIndex')!)} vs loop ${ids10(loop)}`);
      agree.indexMaxScoreDiff = Math.max(agree.indexMaxScoreDiff, a.maxDiff);
      for (const e of extras) if (compare(loop, hits.get(e.label)!).same) agree.extraSameIds[e.label]!++;
      if (jsIndex) {
        const js = hits.get('VectorIndex (JS)')!;
        for (const label of ['VectorIndex', ...(float32Index ? ['VectorIndex (float32 SIMD)'] : [])]) {
          const ours = hits.get(label)!;
          agree.identicalToJs[label] ??= 0;
          if (js.length === ours.length && js.every((h, i) => h.id === ours[i]!.id && h.score === ours[i]!.score))
            agree.identicalToJs[label]++;
          else agree.notes.push(`q${qi} ${label} differs from VectorIndex (JS)`);
        }
      }
      if (db) {
        const theirs = hits.get('orama')!;
        const b = compare(loop, theirs);
        if (b.same) agree.oramaSameIds!++;
        else agree.notes.push(`q${qi} orama ${ids10(theirs)} vs loop ${ids10(loop)}`);
        agree.oramaMaxScoreDiff = Math.max(agree.oramaMaxScoreDiff!, b.maxDiff);
      }
    }
    result.agreement.push(agree);
    const p50Of = (label: string): number =>
      quantile(
        [...times.get(label)!].sort((x, y) => x - y),
        0.5,
      );
    const loopP50 = p50Of('per-entry loop');
    const readP50 = p50Of(READ_LIMIT);
    log(`${size}: read limit reads ${round(limit.bytes / 2 ** 20, 0)} MiB (checksum ${checksum})`);
    result.readLimit.push({
      size,
      bytes: limit.bytes,
      p50Ms: round(readP50),
      gbPerSec: round(limit.bytes / 1e6 / readP50),
    });
    for (const [c, list] of times) {
      const sorted = [...list].sort((x, y) => x - y);
      const p50 = quantile(sorted, 0.5);
      result.query.push({
        size,
        contender: c,
        p50Ms: round(p50),
        p95Ms: round(quantile(sorted, 0.95)),
        minMs: round(sorted[0]!),
        vsLoopP50: round(p50 / loopP50),
        vsReadP50: round(p50 / readP50),
      });
    }
    log(
      `${size}: ${result.query
        .filter((f) => f.size === size)
        .map((f) => `${f.contender} p50 ${f.p50Ms} ms`)
        .join('; ')}`,
    );
    if (upserted.size !== size) throw new Error('upsert build lost rows');
  }
  return result;
}

/**
 * The figures kept in the bench history (history.ts): each contender's p50 as a ratio of the read
 * limit (±30 % band: in-run ratios on a busy machine still wander), its p50 in ms (±60 %), the
 * build steps in ms (±60 %), and the exact-agreement counts (any change reported). The read limit
 * itself goes to `limits`.
 */
export function historyOf(r: VectorBenchResult): {
  limits: Record<string, number>;
  figures: { name: string; value: number; unit: string; noise: number; better: 'lower' | 'higher' }[];
} {
  const limits: Record<string, number> = {};
  for (const l of r.readLimit) limits[`${l.size} read GB/s`] = l.gbPerSec;
  const figures = [
    ...r.query.flatMap((f) => [
      {
        name: `${f.size} ${f.contender} p50 / read limit`,
        value: f.vsReadP50,
        unit: 'x',
        noise: 0.3,
        better: 'lower' as const,
      },
      { name: `${f.size} ${f.contender} p50`, value: f.p50Ms, unit: 'ms', noise: 0.6, better: 'lower' as const },
    ]),
    ...r.build.map((b) => ({
      name: `${b.size} ${b.step}`,
      value: b.ms,
      unit: 'ms',
      noise: 0.6,
      better: 'lower' as const,
    })),
    ...r.agreement.flatMap((a) =>
      Object.entries(a.identicalToJs).map(([label, same]) => ({
        name: `${a.size} ${label} = JS exactly (of ${a.queries})`,
        value: same,
        unit: 'queries',
        noise: 0,
        better: 'higher' as const,
      })),
    ),
  ];
  return { limits, figures };
}

/** Figures as printable tables (shared by both drivers). */
export function formatResult(env: string, r: VectorBenchResult): string {
  const lines = [
    `## ${env}`,
    '',
    '| rows | contender | p50 ms | p95 ms | min ms | p50 vs loop | p50 vs read limit |',
    '|---:|---|---:|---:|---:|---:|---:|',
  ];
  for (const f of r.query)
    lines.push(
      `| ${f.size} | ${f.contender} | ${f.p50Ms} | ${f.p95Ms} | ${f.minMs} | ${f.vsLoopP50}x | ${f.vsReadP50}x |`,
    );
  lines.push('', '| rows | build step | ms |', '|---:|---|---:|');
  for (const b of r.build) lines.push(`| ${b.size} | ${b.step} | ${b.ms} |`);
  lines.push('', '| rows | read limit: bytes | p50 ms | GB/s |', '|---:|---:|---:|---:|');
  for (const l of r.readLimit) lines.push(`| ${l.size} | ${l.bytes} | ${l.p50Ms} | ${l.gbPerSec} |`);
  lines.push(
    '',
    '| rows | queries | VectorIndex = loop ids | orama = loop ids | max score diff (ours / orama) |',
    '|---:|---:|---:|---:|---|',
  );
  for (const a of r.agreement)
    lines.push(
      `| ${a.size} | ${a.queries} | ${a.indexSameIds} | ${a.oramaSameIds ?? '-'} | ${a.indexMaxScoreDiff.toExponential(1)} / ${a.oramaMaxScoreDiff?.toExponential(1) ?? '-'} |`,
    );
  for (const a of r.agreement)
    for (const [label, same] of Object.entries(a.identicalToJs))
      lines.push(
        `- ${a.size}: ${label} = VectorIndex (JS) exactly (ids, order, scores) on ${same}/${a.queries} queries`,
      );
  for (const a of r.agreement)
    for (const [label, same] of Object.entries(a.extraSameIds))
      lines.push(`- ${a.size}: ${label} = loop ids on ${same}/${a.queries} queries`);
  for (const a of r.agreement) for (const n of a.notes.slice(0, 5)) lines.push(`- ${a.size}: ${n}`);
  return lines.join('\n');
}
