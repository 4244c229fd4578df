import { invalid } from '../model/errors.js';
import { createSimdDot, dotErrorBound, type SimdDot, type WebAssemblyApi } from './simd-dot.js';
import type { VectorBlock } from '../storage/storage.js';
import { isCount, TopK, type Scored } from './top-k.js';

/**
 * Scan precision. `'int8'` also keeps each row quantised to int8 with a per-row scale; search then
 * scans the int8 codes (a quarter of the bytes) for `k × rescore` candidates and re-scores those
 * with the float rows, so returned scores are exact cosines.
 *
 * Measured in V8 (20k-50k rows × 384, Node 20) the int8 scan is no faster than the float scan, and
 * since the float rows are kept for re-scoring it costs 25% more memory: keep the default `'none'`.
 * The mode is the first half of a memory-saving index (codes in memory, floats re-read for the few
 * candidates), which only pays off once the float rows can be dropped.
 */
export type VectorQuantization = 'none' | 'int8';

/** Options of {@link VectorIndex}. */
export interface VectorIndexOptions {
  /** Rows allocated up front (grows by doubling). Default 64. */
  initialCapacity?: number;
  /** Default 'none' (exact float scan). */
  quantization?: VectorQuantization;
  /** int8 mode: candidates re-scored per result wanted (an integer >= 1). Default 4. */
  rescore?: number;
  /**
   * Scan with the WebAssembly SIMD kernel (`simd-dot.ts`) where the runtime allows it: about 6x
   * faster at 100k × 512 (test/bench/VECTOR-RESULTS.md), same results. `false` forces the plain
   * JavaScript scan. Where WebAssembly SIMD is missing or compiling is refused (a CSP without
   * `'wasm-unsafe-eval'`) the index falls back to JavaScript without an error (the browser still
   * logs that one CSP violation). int8 mode is JavaScript only. Default true.
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
  readonly #rescore: number;
  #codes: Int8Array | undefined;
  #scales: Float32Array | undefined;
  /** Set while the rows live in WebAssembly memory (`#data` is then a view over it). */
  #simd: SimdDot | undefined;
  /** False once SIMD is off for good: disabled, int8, unsupported, or its memory hit a limit. */
  #simdAllowed: boolean;
  readonly #simdMinRows: number;
  readonly #webAssembly: WebAssemblyApi | undefined;

  /** @param dim vector dimension (an integer >= 1). */
  constructor(dim: number, options: VectorIndexOptions = {}) {
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 1) invalid('dim', 'an integer >= 1', dim);
    const {
      initialCapacity = 64,
      quantization = 'none',
      rescore = 4,
      simd = true,
      simdMinRows = 1024,
      webAssembly,
    } = options;
    if (!Number.isInteger(initialCapacity) || initialCapacity < 1)
      invalid('initialCapacity', 'an integer >= 1', initialCapacity);
    if (quantization !== 'none' && quantization !== 'int8') invalid('quantization', "'none' | 'int8'", quantization);
    if (!Number.isInteger(rescore) || rescore < 1) invalid('rescore', 'an integer >= 1', rescore);
    if (typeof simd !== 'boolean') invalid('simd', 'a boolean', simd);
    if (!Number.isInteger(simdMinRows) || simdMinRows < 0) invalid('simdMinRows', 'an integer >= 0', simdMinRows);
    if (webAssembly !== undefined && (typeof webAssembly !== 'object' || webAssembly === null))
      invalid('webAssembly', 'a WebAssembly namespace', webAssembly);
    this.#dim = dim;
    this.#rescore = rescore;
    this.#simdAllowed = simd && quantization === 'none';
    this.#simdMinRows = simdMinRows;
    this.#webAssembly = webAssembly;
    this.#capacity = 0;
    this.#data = new Float32Array(0);
    this.#resize(initialCapacity);
    if (quantization === 'int8') {
      this.#codes = new Int8Array(initialCapacity * dim);
      this.#scales = new Float32Array(initialCapacity);
    }
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

  /** Scan precision. */
  get quantization(): VectorQuantization {
    return this.#codes ? 'int8' : 'none';
  }

  /** Rows currently allocated. */
  get capacity(): number {
    return this.#capacity;
  }

  /** True while searches run on the WebAssembly SIMD kernel (rows in WebAssembly memory). */
  get simd(): boolean {
    return this.#simd !== undefined;
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
      this.#codes?.copyWithin(row * dim, last * dim, (last + 1) * dim);
      if (this.#scales) this.#scales[row] = this.#scales[last]!;
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
    if (this.#codes) return this.#searchInt8(q, k, allow);
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
    const margin = 2 * dotErrorBound(this.#dim);
    let scores = simd.scores(q, n);
    // The predicate is user code: should it write to this index, growth would detach the view.
    if (allow) scores = scores.slice();
    const keep = Math.min(k, n);
    const heap = new Float64Array(keep); // min-heap of the best float32 scores so far
    let size = 0;
    let floor = -Infinity;
    const candidates: number[] = [];
    for (let row = 0; row < n; row++) {
      const s = scores[row]!;
      if (s < floor) continue;
      if (allow && !allow(ids[row]!)) continue;
      candidates.push(row);
      if (size < keep) {
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (heap[parent]! <= s) break;
          heap[i] = heap[parent]!;
          i = parent;
        }
        heap[i] = s;
        if (size === keep) floor = heap[0]! - margin;
      } else if (s > heap[0]!) {
        siftDownRoot(heap, s);
        floor = heap[0]! - margin;
      }
    }
    const cut = size === keep ? heap[0]! - margin : -Infinity;
    const dim = this.#dim;
    const data = this.#data;
    const top = new TopK(k);
    for (const row of candidates) {
      if (scores[row]! < cut || row >= ids.length) continue;
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

  #searchInt8(q: Float32Array, k: number, allow: ((id: string) => boolean) | undefined): Scored[] {
    const dim = this.#dim;
    const codes = this.#codes!;
    const scales = this.#scales!;
    const ids = this.#ids;
    const qc = new Int8Array(dim);
    const qScale = quantise(q, qc);
    // A zero query scores 0 everywhere; the exact scan gives the same deterministic order.
    if (qScale === 0) return this.#searchExact(q, k, allow);
    const coarse = new TopK(k * this.#rescore);
    for (let row = 0, off = 0; row < ids.length; row++, off += dim) {
      let acc = 0;
      for (let j = 0; j < dim; j++) acc += qc[j]! * codes[off + j]!;
      const approx = acc * qScale * scales[row]!;
      if (approx < coarse.threshold) continue;
      const id = ids[row]!;
      if (allow && !allow(id)) continue;
      coarse.push(id, approx);
    }
    return this.#rescored(
      coarse.sorted().map((c) => c.id),
      q,
      k,
    );
  }

  /** Exact float scores of `candidates`, best `k`. */
  #rescored(candidates: string[], q: Float32Array, k: number): Scored[] {
    const dim = this.#dim;
    const data = this.#data;
    const top = new TopK(k);
    for (const id of candidates) {
      const off = this.#rowOf.get(id)! * dim;
      let s = 0;
      for (let j = 0; j < dim; j++) s += q[j]! * data[off + j]!;
      top.push(id, s);
    }
    return top.sorted();
  }

  /**
   * Room for `capacity` rows, keeping the current ones: grown in place in WebAssembly memory,
   * moved there once the capacity reaches `simdMinRows`, or a bigger `Float32Array`. Should the
   * wasm memory hit its limit, the rows go back to a `Float32Array` and SIMD stays off.
   */
  #resize(capacity: number): void {
    const used = this.#ids.length * this.#dim;
    const simd = this.#simd;
    if (simd?.grow(capacity)) {
      this.#data = simd.rows; // growth detached the previous view
    } else {
      let moved: SimdDot | undefined;
      if (!simd && this.#simdAllowed && capacity >= this.#simdMinRows) {
        moved = createSimdDot(this.#dim, capacity, { webAssembly: this.#webAssembly });
        if (!moved) this.#simdAllowed = false;
      }
      const grown = moved ? moved.rows : new Float32Array(capacity * this.#dim);
      grown.set(this.#data.subarray(0, used));
      this.#data = grown;
      this.#simd = moved;
      if (simd) this.#simdAllowed = false;
    }
    this.#capacity = capacity;
  }

  #append(id: string, vector: ArrayLike<number>): void {
    const row = this.#ids.length;
    if (row === this.#capacity) {
      this.#resize(this.#capacity * 2);
      if (this.#codes && this.#scales) {
        const codes = new Int8Array(this.#capacity * this.#dim);
        codes.set(this.#codes.subarray(0, row * this.#dim));
        this.#codes = codes;
        const scales = new Float32Array(this.#capacity);
        scales.set(this.#scales.subarray(0, row));
        this.#scales = scales;
      }
    }
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

  /** Refresh the int8 codes of row `row` (int8 mode only). */
  #quantiseRow(row: number): void {
    if (!this.#codes || !this.#scales) return;
    const off = row * this.#dim;
    this.#scales[row] = quantise(this.#data.subarray(off, off + this.#dim), this.#codes.subarray(off, off + this.#dim));
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

/** Replace the root of the min-heap `heap` (full) with `s` and restore the heap. */
function siftDownRoot(heap: Float64Array, s: number): void {
  const n = heap.length;
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
}

/** Symmetric int8 quantisation of `v` into `out`; returns the scale (`v[j] ≈ out[j] × scale`). */
function quantise(v: Float32Array, out: Int8Array): number {
  let maxAbs = 0;
  for (let j = 0; j < v.length; j++) maxAbs = Math.max(maxAbs, Math.abs(v[j]!));
  if (maxAbs === 0) {
    out.fill(0);
    return 0;
  }
  const scale = maxAbs / 127;
  for (let j = 0; j < v.length; j++) out[j] = Math.round(v[j]! / scale);
  return scale;
}
