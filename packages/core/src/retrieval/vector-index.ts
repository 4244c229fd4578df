import { invalid } from '../model/errors.js';
import { createSimdDot, dotErrorBound, type SimdDot, type WebAssemblyApi } from './simd-dot.js';
import {
  createSimdInt8Dot,
  INT8_BOUND_SLACK,
  quantise,
  quantiseQuery,
  ROW_CODE_MAX,
  type SimdInt8Dot,
} from './simd-int8.js';
import type { VectorBlock } from '../storage/storage.js';
import { isCount, TopK, type Scored } from './top-k.js';

/**
 * Precision of the SIMD scan. `'int8'` (the default) keeps each row also as int8 codes with a
 * per-row scale in WebAssembly memory and scans those (a quarter of the bytes of float32 rows) with
 * an exact integer kernel (`simd-int8.ts`); from each row's proven error bound it keeps every row
 * that could be in the exact top k and re-scores only those with the float rows. So the results
 * (ids, scores, tie order) are identical to the float32 and JavaScript scans, and a 100k × 512
 * query reads ~51 MB instead of ~205 MB (test/bench/VECTOR-RESULTS.md). The float rows stay in a
 * plain `Float32Array` for re-scoring, `get` and `toBlock` (1.25x the memory of `'none'`).
 * `'none'` scans the float32 rows with the float32 kernel (`simd-dot.ts`).
 */
export type VectorQuantization = 'none' | 'int8';

/** Options of {@link VectorIndex}. */
export interface VectorIndexOptions {
  /** Rows allocated up front (grows by doubling). Default 64. */
  initialCapacity?: number;
  /** Precision of the SIMD scan (results are exact either way). Default 'int8'. */
  quantization?: VectorQuantization;
  /**
   * Scan with a WebAssembly SIMD kernel where the runtime allows it: the float32 kernel is about
   * 6x faster than JavaScript at 100k × 512, the int8 one faster again (test/bench/VECTOR-RESULTS.md);
   * same results. `false` forces the plain JavaScript scan (no int8 codes are kept then). Where
   * WebAssembly SIMD is missing or compiling is refused (a CSP without `'wasm-unsafe-eval'`) the
   * index falls back to JavaScript without an error (the browser still logs that one CSP
   * violation). Default true.
   */
  simd?: boolean;
  /**
   * Capacity (rows) from which the rows move into WebAssembly memory; below it they stay in a
   * plain `Float32Array`, since each wasm memory is a separate (large, virtual) reservation and a
   * small scan gains little. An integer >= 0. Default 1024.
   */
  simdMinRows?: number;
  /** The WebAssembly namespace to use (tests inject a failing one). Default `globalThis.WebAssembly`. */
  webAssembly?: WebAssemblyApi;
}

/**
 * Exact cosine-similarity search over vectors of one embedding space. All rows live in one
 * contiguous `Float32Array` (grown by doubling; deletes move the last row into the hole), stored
 * unit-normalised so a score is a plain dot product. Top-k uses a bounded min-heap, never a full
 * sort. A zero vector is allowed and scores 0 against everything.
 *
 * With {@link VectorIndexOptions.simd} (the default) a large enough index keeps its rows in
 * WebAssembly memory instead, where a SIMD kernel computes float32 scores of every row; the best
 * candidates (every row that could reach the top `k` given the kernel's proven error bound) are
 * then re-scored in double precision exactly as the JavaScript scan does, so both paths return
 * identical ids, scores and tie order.
 */
export class VectorIndex {
  readonly #dim: number;
  #data: Float32Array;
  #capacity: number;
  #ids: string[] = [];
  readonly #rowOf = new Map<string, number>();
  readonly #int8Wanted: boolean;
  /** Set while the int8 kernel scans (its codes in WebAssembly memory; `#data` stays a plain array). */
  #int8: SimdInt8Dot | undefined;
  /** int8 kernel only: per row `[scale, ‖row − scale·codes‖, ‖scale·codes‖]` (see `quantise`). */
  #stats: Float64Array | undefined;
  /** Set while the float32 kernel scans (the rows live in its WebAssembly memory; `#data` is a view). */
  #simd: SimdDot | undefined;
  /** False once SIMD is off for good: disabled, unsupported, or its memory hit a limit. */
  #simdAllowed: boolean;
  readonly #simdMinRows: number;
  readonly #webAssembly: WebAssemblyApi | undefined;

  /** @param dim vector dimension (an integer >= 1). */
  constructor(dim: number, options: VectorIndexOptions = {}) {
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1) invalid('dim', 'an integer >= 1', dim);
    const { initialCapacity = 64, quantization = 'int8', simd = true, simdMinRows = 1024, webAssembly } = options;
    if (!Number.isInteger(initialCapacity) || initialCapacity < 1)
      invalid('initialCapacity', 'an integer >= 1', initialCapacity);
    if (quantization !== 'none' && quantization !== 'int8') invalid('quantization', "'none' | 'int8'", quantization);
    if (typeof simd !== 'boolean') invalid('simd', 'a boolean', simd);
    if (!Number.isInteger(simdMinRows) || simdMinRows < 0) invalid('simdMinRows', 'an integer >= 0', simdMinRows);
    if (webAssembly !== undefined && (typeof webAssembly !== 'object' || webAssembly === null))
      invalid('webAssembly', 'a WebAssembly namespace', webAssembly);
    this.#dim = dim;
    this.#int8Wanted = quantization === 'int8';
    this.#simdAllowed = simd;
    this.#simdMinRows = simdMinRows;
    this.#webAssembly = webAssembly;
    this.#capacity = 0;
    this.#data = new Float32Array(0);
    this.#resize(initialCapacity);
  }

  /**
   * Build an index from a stored block (row i of `block.data` is `block.ids[i]`). Throws
   * `VALIDATION` when the block's shape is inconsistent or an id repeats.
   */
  static fromBlock(block: VectorBlock, options: Omit<VectorIndexOptions, 'initialCapacity'> = {}): VectorIndex {
    if (typeof block !== 'object' || block === null) invalid('block', 'a VectorBlock', block);
    const dim = block.model?.dim;
    if (!Array.isArray(block.ids)) invalid('block.ids', 'an array of ids', block.ids);
    if (!(block.data instanceof Float32Array)) invalid('block.data', 'a Float32Array', block.data);
    const index = new VectorIndex(dim, { ...options, initialCapacity: Math.max(1, block.ids.length) });
    if (block.data.length !== block.ids.length * dim)
      invalid('block.data', `${block.ids.length} x ${dim} = ${block.ids.length * dim} floats`, block.data.length);
    const n = block.ids.length;
    const src = block.data;
    const data = index.#data;
    // One fused pass per row (validate, normalise, copy) instead of append-per-row: hydration is the
    // cold-start cost of every session (test/bench/vector-*).
    for (let i = 0, off = 0; i < n; i++, off += dim) {
      const id = block.ids[i];
      if (typeof id !== 'string' || id.length === 0) invalid(`block.ids[${i}]`, 'a non-empty string', id);
      if (index.#rowOf.has(id)) invalid(`block.ids[${i}]`, 'a unique id', id);
      index.#rowOf.set(id, i);
      let norm = 0;
      for (let j = 0; j < dim; j++) norm += src[off + j]! * src[off + j]!;
      // Squares of finite float32 values cannot overflow a double, so only a NaN/±Infinity gets here.
      if (!Number.isFinite(norm)) {
        for (let j = 0; j < dim; j++) {
          if (!Number.isFinite(src[off + j])) invalid(`block.data[row ${i}][${j}]`, 'a finite number', src[off + j]);
        }
      }
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 1;
      for (let j = 0; j < dim; j++) data[off + j] = src[off + j]! * inv;
      index.#quantiseRow(i);
    }
    index.#ids = block.ids.slice();
    return index;
  }

  /** Vector dimension. */
  get dim(): number {
    return this.#dim;
  }

  /** Number of vectors. */
  get size(): number {
    return this.#ids.length;
  }

  /** Precision of the scan in use: 'int8' while the int8 kernel scans, else 'none'. */
  get quantization(): VectorQuantization {
    return this.#int8 ? 'int8' : 'none';
  }

  /** Rows currently allocated. */
  get capacity(): number {
    return this.#capacity;
  }

  /** True while searches run on a WebAssembly SIMD kernel (float32 or int8). */
  get simd(): boolean {
    return this.#simd !== undefined || this.#int8 !== undefined;
  }

  /** Insert or replace the vector of `id` (copied and unit-normalised). */
  upsert(id: string, vector: Float32Array | readonly number[]): void {
    if (typeof id !== 'string' || id.length === 0) invalid('id', 'a non-empty string', id);
    this.#checkVector('vector', vector);
    const row = this.#rowOf.get(id);
    if (row === undefined) this.#append(id, vector);
    else this.#write(row, vector);
  }

  /** Remove `id`. Returns true when it was present. */
  remove(id: string): boolean {
    const row = this.#rowOf.get(id);
    if (row === undefined) return false;
    const last = this.#ids.length - 1;
    if (row !== last) {
      const dim = this.#dim;
      this.#data.copyWithin(row * dim, last * dim, (last + 1) * dim);
      if (this.#int8) {
        const stride = this.#int8.stride;
        this.#int8.rows.copyWithin(row * stride, last * stride, (last + 1) * stride);
        this.#stats!.copyWithin(3 * row, 3 * last, 3 * last + 3);
      }
      const moved = this.#ids[last]!;
      this.#ids[row] = moved;
      this.#rowOf.set(moved, row);
    }
    this.#ids.pop();
    this.#rowOf.delete(id);
    return true;
  }

  /** True when `id` has a vector. */
  has(id: string): boolean {
    return this.#rowOf.has(id);
  }

  /** A copy of the stored (unit-normalised) vector of `id`, or undefined. */
  get(id: string): Float32Array | undefined {
    const row = this.#rowOf.get(id);
    if (row === undefined) return undefined;
    return this.#data.slice(row * this.#dim, (row + 1) * this.#dim);
  }

  /**
   * The dot product of the stored (unit-normalised) vector of `id` with `query` (length `dim`),
   * or undefined when `id` is not indexed; reads the row in place (no copy, unlike `get`).
   */
  dot(id: string, query: Float32Array): number | undefined {
    const row = this.#rowOf.get(id);
    if (row === undefined) return undefined;
    const data = this.#data;
    const dim = this.#dim;
    const base = row * dim;
    let s = 0;
    for (let d = 0; d < dim; d++) s += data[base + d]! * query[d]!;
    return s;
  }

  /** Ids in row order. */
  ids(): string[] {
    return [...this.#ids];
  }

  /** Remove every vector (keeps the allocation). */
  clear(): void {
    this.#ids = [];
    this.#rowOf.clear();
  }

  /**
   * The `k` most similar vectors to `query` by cosine, best first (ties by id ascending). When
   * `allow` is given, rows it rejects are skipped. Throws `VALIDATION` when `query.length !== dim`.
   */
  search(query: Float32Array | readonly number[], k: number, allow?: (id: string) => boolean): Scored[] {
    this.#checkVector('query', query);
    if (!isCount(k)) invalid('k', 'an integer >= 0', k);
    if (allow !== undefined && typeof allow !== 'function') invalid('allow', 'a function', allow);
    if (k === 0 || this.#ids.length === 0) return [];
    const q = Float32Array.from(query);
    // A zero query scores 0 everywhere: every row would be a SIMD candidate, so scan in JS.
    if (!normalise(q)) return this.#searchExact(q, k, allow);
    if (this.#int8) return this.#searchInt8(this.#int8, q, k, allow);
    if (this.#simd) return this.#searchSimd(this.#simd, q, k, allow);
    return this.#searchExact(q, k, allow);
  }

  /**
   * Float32 kernel scores for every row, then exact re-scoring of the candidates. With `e` the
   * kernel's error bound and `t` the k-th best float32 score among allowed rows, the k rows above
   * `t` have exact scores >= t - e, so every row of the exact top k (ties included) has a float32
   * score >= t - 2e: those are the candidates, and their exact scores decide, as in the JS scan.
   */
  #searchSimd(simd: SimdDot, q: Float32Array, k: number, allow: ((id: string) => boolean) | undefined): Scored[] {
    const n = this.#ids.length;
    const ids = this.#ids;
    const e = dotErrorBound(this.#dim);
    let scores = simd.scores(q, n);
    // The predicate is user code: should it write to this index, growth would detach the view.
    if (allow) scores = scores.slice();
    const lower = new KthLargest(Math.min(k, n));
    const candidates: number[] = [];
    const upper: number[] = [];
    for (let row = 0; row < n; row++) {
      const s = scores[row]!;
      if (s + e < lower.kth) continue;
      if (allow && !allow(ids[row]!)) continue;
      candidates.push(row);
      upper.push(s + e);
      lower.push(s - e);
    }
    return this.#rescored(q, k, candidates, upper, lower.kth);
  }

  /**
   * Int8 kernel scores, then exact re-scoring. With `q'`, `r'` the dequantised query and row,
   * `|q·r − q'·r'| <= ‖q‖·‖r − r'‖ + ‖q − q'‖·‖r'‖` (Cauchy-Schwarz), a bound per row from the stats
   * kept at quantisation; `q'·r'` is the kernel's exact integer times the two scales. A row whose
   * upper bound is below the k-th best lower bound among allowed rows cannot be in the exact top k.
   */
  #searchInt8(int8: SimdInt8Dot, q: Float32Array, k: number, allow: ((id: string) => boolean) | undefined): Scored[] {
    const n = this.#ids.length;
    const ids = this.#ids;
    const dim = this.#dim;
    const codes = new Int16Array(dim);
    const qs = new Float64Array(3);
    quantiseQuery(q, codes, qs);
    const qScale = qs[0]!;
    const qErr = qs[1]!;
    let qNorm = 0;
    for (let j = 0; j < dim; j++) qNorm += q[j]! * q[j]!;
    qNorm = Math.sqrt(qNorm);
    let raw = int8.scores(codes, n);
    if (allow) raw = raw.slice();
    const stats = this.#stats!;
    const lower = new KthLargest(Math.min(k, n));
    const candidates: number[] = [];
    const upper: number[] = [];
    for (let row = 0, o = 0; row < n; row++, o += 3) {
      const approx = raw[row]! * qScale * stats[o]!;
      const bound = qNorm * stats[o + 1]! + qErr * stats[o + 2]! + INT8_BOUND_SLACK;
      if (approx + bound < lower.kth) continue;
      if (allow && !allow(ids[row]!)) continue;
      candidates.push(row);
      upper.push(approx + bound);
      lower.push(approx - bound);
    }
    return this.#rescored(q, k, candidates, upper, lower.kth);
  }

  /**
   * Exact scores (the JavaScript scan's own arithmetic, so bit-identical) of the candidate rows
   * whose upper bound reaches `cut`, the k-th best lower bound: the best `k` of them.
   */
  #rescored(q: Float32Array, k: number, candidates: number[], upper: number[], cut: number): Scored[] {
    const dim = this.#dim;
    const data = this.#data;
    const ids = this.#ids;
    const top = new TopK(k);
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i]!;
      // `row >= ids.length`: the allow predicate (user code) removed rows meanwhile.
      if (upper[i]! < cut || row >= ids.length) continue;
      const s = dotRow(q, data, row * dim, dim);
      if (s < top.threshold) continue;
      top.push(ids[row]!, s);
    }
    return top.sorted();
  }

  #searchExact(q: Float32Array, k: number, allow: ((id: string) => boolean) | undefined): Scored[] {
    const n = this.#ids.length;
    const dim = this.#dim;
    const data = this.#data;
    const ids = this.#ids;
    const top = new TopK(k);
    for (let row = 0, off = 0; row < n; row++, off += dim) {
      const s = dotRow(q, data, off, dim);
      if (s < top.threshold) continue;
      const id = ids[row]!;
      if (allow && !allow(id)) continue;
      top.push(id, s);
    }
    return top.sorted();
  }

  /** The whole index as a block (rows copied), e.g. to persist it. */
  toBlock(modelId: string): VectorBlock {
    return {
      model: { id: modelId, dim: this.#dim },
      ids: [...this.#ids],
      data: this.#data.slice(0, this.#ids.length * this.#dim),
    };
  }

  /**
   * Room for `capacity` rows, keeping the current ones: grown in place in WebAssembly memory,
   * moved to a kernel once the capacity reaches `simdMinRows`, or a bigger `Float32Array`. Should a
   * kernel's memory hit its limit, the index goes on in JavaScript and SIMD stays off.
   */
  #resize(capacity: number): void {
    const dim = this.#dim;
    const n = this.#ids.length;
    const simd = this.#simd;
    if (simd?.grow(capacity)) {
      this.#data = simd.rows; // growth detached the previous view
      this.#capacity = capacity;
      return;
    }
    if (simd || (this.#int8 && !this.#int8.grow(capacity))) {
      this.#simd = undefined;
      this.#int8 = undefined;
      this.#stats = undefined;
      this.#simdAllowed = false;
    }
    let f32: SimdDot | undefined;
    let moved8 = false;
    if (!this.#int8 && this.#simdAllowed && capacity >= this.#simdMinRows) {
      const options = { webAssembly: this.#webAssembly };
      if (this.#int8Wanted) {
        this.#int8 = createSimdInt8Dot(dim, capacity, options);
        moved8 = this.#int8 !== undefined;
      } else f32 = createSimdDot(dim, capacity, options);
      if (!f32 && !moved8) this.#simdAllowed = false;
    }
    const grown = f32 ? f32.rows : new Float32Array(capacity * dim);
    grown.set(this.#data.subarray(0, n * dim));
    this.#data = grown;
    this.#simd = f32;
    this.#capacity = capacity;
    if (this.#int8) {
      const stats = new Float64Array(3 * capacity);
      if (moved8) {
        this.#stats = stats;
        for (let row = 0; row < n; row++) this.#quantiseRow(row);
      } else {
        stats.set(this.#stats!.subarray(0, 3 * n));
        this.#stats = stats;
      }
    }
  }

  #append(id: string, vector: ArrayLike<number>): void {
    const row = this.#ids.length;
    if (row === this.#capacity) this.#resize(this.#capacity * 2);
    this.#ids.push(id);
    this.#rowOf.set(id, row);
    this.#write(row, vector);
  }

  #write(row: number, vector: ArrayLike<number>): void {
    const dim = this.#dim;
    const off = row * dim;
    const data = this.#data;
    for (let j = 0; j < dim; j++) data[off + j] = vector[j]!;
    this.#normaliseRow(row);
  }

  /** Unit-normalise row `row` in place (and refresh its int8 codes). */
  #normaliseRow(row: number): void {
    const dim = this.#dim;
    const off = row * dim;
    const data = this.#data;
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += data[off + j]! * data[off + j]!;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let j = 0; j < dim; j++) data[off + j]! *= inv;
    }
    this.#quantiseRow(row);
  }

  /** Refresh the int8 codes and stats of row `row` (while the int8 kernel scans). */
  #quantiseRow(row: number): void {
    const int8 = this.#int8;
    if (!int8) return;
    const dim = this.#dim;
    quantise(this.#data, row * dim, dim, ROW_CODE_MAX, int8.rows, row * int8.stride, this.#stats!, 3 * row);
  }

  #checkVector(field: string, vector: unknown): void {
    if (!(vector instanceof Float32Array) && !Array.isArray(vector))
      invalid(field, 'a Float32Array or number[]', vector);
    const v = vector as ArrayLike<number>;
    if (v.length !== this.#dim) invalid(`${field}.length`, `the index dimension ${this.#dim}`, v.length);
    for (let j = 0; j < v.length; j++) {
      if (!Number.isFinite(v[j])) invalid(`${field}[${j}]`, 'a finite number', v[j]);
    }
  }
}

/** Scale `v` to unit length in place (a zero vector stays zero). Returns false for a zero vector. */
function normalise(v: Float32Array): boolean {
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += v[j]! * v[j]!;
  if (!(norm > 0)) return false;
  const inv = 1 / Math.sqrt(norm);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
  return true;
}

/**
 * `q · data[off .. off + dim]`: the one dot product of the JavaScript scan (`#searchExact`) and of
 * the SIMD candidates' re-scoring, so both give bit-identical scores. Four independent sums let the
 * multiply-adds overlap instead of queueing on one running sum: ~1.5x faster in Node 20, ~10% in
 * Chromium 156 (test/bench/VECTOR-RESULTS.md). No remainder loop: one made Chromium's scan slower
 * than the plain loop, so a `dim` not divisible by 4 takes the plain loop.
 */
function dotRow(q: Float32Array, data: Float32Array, off: number, dim: number): number {
  if ((dim & 3) === 0) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let j = 0; j < dim; j += 4) {
      const o = off + j;
      s0 += q[j]! * data[o]!;
      s1 += q[j + 1]! * data[o + 1]!;
      s2 += q[j + 2]! * data[o + 2]!;
      s3 += q[j + 3]! * data[o + 3]!;
    }
    return s0 + s1 + (s2 + s3);
  }
  let s = 0;
  for (let j = 0; j < dim; j++) s += q[j]! * data[off + j]!;
  return s;
}

/** The k-th largest of the numbers pushed so far (−Infinity until `k` were pushed): a bounded min-heap. */
class KthLargest {
  readonly #heap: Float64Array;
  #size = 0;
  /** The k-th largest value pushed so far; −Infinity while fewer than `k` were (or `k` is 0). */
  kth = -Infinity;

  constructor(k: number) {
    this.#heap = new Float64Array(k);
  }

  push(s: number): void {
    const heap = this.#heap;
    const n = heap.length;
    if (this.#size < n) {
      let i = this.#size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= s) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = s;
      if (this.#size === n) this.kth = heap[0]!;
      return;
    }
    if (n === 0 || !(s > heap[0]!)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && heap[r]! < heap[l]! ? r : l;
      if (heap[c]! >= s) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = s;
    this.kth = heap[0]!;
  }
}
