/**
 * Int8 dot products of one query against many rows, by a small hand-assembled WebAssembly SIMD
 * kernel: rows are int8 codes (a quarter of the bytes of float32 rows), the query int16 codes, and
 * each row's integer dot product is exact (`i32x4.dot_i16x8_s`, no overflow by construction). A
 * scan thus reads 4x fewer bytes than the float32 kernel (`simd-dot.ts`); with the per-row error
 * bounds below, {@link VectorIndex} picks every row that could be in the exact top k and re-scores
 * only those with the float rows, so results stay exact.
 *
 * Memory layout (bytes): codes (`capacity × stride`, each row zero-padded to `stride`, a multiple of
 * 32) at 0, then the query codes (`stride` int16), then the scores (`capacity` int32), each start
 * 16-byte aligned. Growing keeps the codes in place; the query and scores areas move up.
 */
import {
  compileKernel,
  defaultWasmApi,
  get,
  I16X8_EXTEND_HIGH_I8X16_S,
  I16X8_EXTEND_LOW_I8X16_S,
  I32,
  i32,
  I32_ADD,
  I32_STORE,
  I32X4_ADD,
  I32X4_DOT_I16X8_S,
  i32Lane,
  instantiateKernel,
  type KernelMemory,
  KernelRows,
  type ScoresKernel,
  set,
  V128,
  v128Load,
  scoresKernelBytes,
  sumInto,
  whileBelow,
  zeroAll,
} from './wasm-asm.js';
import { SIMD_MAX_DIM, type SimdDotOptions } from './simd-dot.js';

/** Largest row code: rows map to [-127, 127] (never -128, so the code range is symmetric). */
export const ROW_CODE_MAX = 127;

/**
 * Largest query code for `dim`: every partial sum of `Σ qcode × rowcode` stays below 2^31 (so the
 * kernel's int32 lanes never overflow), capped at the int16 range.
 */
export function queryCodeMax(dim: number): number {
  return Math.min(32767, Math.floor((2 ** 31 - 1) / (ROW_CODE_MAX * dim)));
}

/** Bytes per row of codes: `dim` rounded up to the kernel's 32-byte step. */
export function int8Stride(dim: number): number {
  return Math.ceil(dim / 32) * 32;
}

/**
 * The module: imports `env.mem`, exports `scores(q, codes, n, stride, out)` which writes
 * `out[row] = Σ_j q[j] × codes[row][j]` (int32, exact) for `row < n`; `q` is `stride` int16,
 * each row `stride` int8 bytes. 32 bytes per step over four i32x4 accumulators.
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  // params: 0 q, 1 codes, 2 n, 3 stride, 4 out.
  // locals: 5 row, 6 p (row byte pointer), 7 rowPtr, 8 qp (query pointer), 9 end; 10-13 acc; 14 t.
  const madd = (acc: number, extend: number[], qOffset: number): number[] => [
    ...get(acc),
    ...get(14),
    ...extend,
    ...get(8),
    ...v128Load(qOffset),
    ...I32X4_DOT_I16X8_S,
    ...I32X4_ADD,
    ...set(acc),
  ];
  const load16 = (offset: number): number[] => [...get(6), ...v128Load(offset), ...set(14)];
  const advance = (local: number, bytes: number): number[] => [...get(local), ...i32(bytes), I32_ADD, ...set(local)];
  return scoresKernelBytes({
    locals: [2, 5, I32, 5, V128],
    setup: [],
    perRow: [
      ...zeroAll([10, 11, 12, 13]),
      ...[...get(7), ...set(6), ...get(0), ...set(8)],
      ...[...get(7), ...get(3), I32_ADD, ...set(9)],
      ...whileBelow(6, 9, [
        ...load16(0),
        ...madd(10, I16X8_EXTEND_LOW_I8X16_S, 0),
        ...madd(11, I16X8_EXTEND_HIGH_I8X16_S, 16),
        ...load16(16),
        ...madd(12, I16X8_EXTEND_LOW_I8X16_S, 32),
        ...madd(13, I16X8_EXTEND_HIGH_I8X16_S, 48),
        ...advance(6, 32),
        ...advance(8, 64),
      ]),
      ...sumInto([10, 11, 12, 13], I32X4_ADD),
      ...[...get(10), ...i32Lane(0), ...get(10), ...i32Lane(1), I32_ADD],
      ...[...get(10), ...i32Lane(2), I32_ADD, ...get(10), ...i32Lane(3), I32_ADD],
    ],
    store: I32_STORE,
    rowBytes: 3,
  });
}

/** True when this runtime can run the int8 SIMD kernel (feature-detected once). */
export function simdInt8Supported(options: SimdDotOptions = {}): boolean {
  const api = options.webAssembly ?? defaultWasmApi();
  return api !== undefined && compileKernel(api, 'i8-dot', kernelBytes) !== null;
}

/**
 * Int8 rows of `dim` codes in WebAssembly memory ({@link KernelRows.rows}: `capacity × stride`
 * bytes, row `r` at `r × stride`) and a kernel scoring int16 query codes against them.
 */
export class SimdInt8Dot extends KernelRows<Int8Array> {
  readonly #dim: number;
  readonly #stride: number;

  /** Use {@link createSimdInt8Dot}. */
  constructor(dim: number, memory: KernelMemory, scores: ScoresKernel) {
    const stride = int8Stride(dim);
    super(memory, scores, stride, (buffer, length) => new Int8Array(buffer, 0, length));
    this.#dim = dim;
    this.#stride = stride;
  }

  /** Bytes per row (`dim` rounded up to 32; the padding stays zero). */
  get stride(): number {
    return this.#stride;
  }

  /**
   * Exact integer `query · row` for the first `n` rows; `query` holds `dim` int16 codes with
   * `|code| <= queryCodeMax(dim)`. The result is a view into the kernel's memory, valid until the
   * next `scores` or `grow` call.
   */
  scores(query: Int16Array, n: number): Int32Array {
    const m = this.memory;
    const q = new Int16Array(m.buffer, m.queryPtr, this.#stride);
    q.fill(0);
    q.set(query.subarray(0, this.#dim));
    this.scoresKernel(m.queryPtr, 0, n, this.#stride, m.outPtr);
    return new Int32Array(m.buffer, m.outPtr, n);
  }
}

/**
 * A {@link SimdInt8Dot} with room for `capacity` rows of `dim` codes (zeroed), or undefined when the
 * runtime has no WebAssembly SIMD, refuses to compile wasm (CSP), or cannot allocate the memory.
 */
export function createSimdInt8Dot(
  dim: number,
  capacity: number,
  options: SimdDotOptions = {},
): SimdInt8Dot | undefined {
  if (!Number.isInteger(dim) || dim < 1 || dim > SIMD_MAX_DIM || !Number.isInteger(capacity) || capacity < 0)
    return undefined;
  const stride = int8Stride(dim);
  const kernel = instantiateKernel(options.webAssembly, 'i8-dot', kernelBytes, {
    rowBytes: stride,
    queryBytes: stride * 2,
    capacity,
  });
  return kernel && new SimdInt8Dot(dim, kernel.memory, kernel.scores);
}

/**
 * Symmetric quantisation of `v[off .. off + dim]` to codes `out[outOff + j] = round(v[j] / scale)`
 * in `[-max, max]`, `scale = max|v| / max`. Writes `[scale, ‖v − scale·codes‖₂, ‖scale·codes‖₂]`
 * (in double precision) to `stats[statOff ..]`: the reconstruction error and norm that bound how
 * far a quantised score can be from the exact one. Any rounding of `v[j] / scale` to an integer
 * would do (the stats are computed from the codes actually written); multiplying by the inverse
 * scale is simply faster.
 */
export function quantise(
  v: Float32Array,
  off: number,
  dim: number,
  max: number,
  out: Int8Array,
  outOff: number,
  stats: Float64Array,
  statOff: number,
): void {
  let maxAbs = 0;
  for (let j = 0; j < dim; j++) {
    const a = Math.abs(v[off + j]!);
    if (a > maxAbs) maxAbs = a;
  }
  if (maxAbs === 0) {
    out.fill(0, outOff, outOff + dim);
    stats[statOff] = 0;
    stats[statOff + 1] = 0;
    stats[statOff + 2] = 0;
    return;
  }
  const scale = maxAbs / max;
  const inv = max / maxAbs;
  let err = 0;
  let norm = 0;
  // |x × inv| <= max (1 + 2^-52), so the shifted floor is round-half-up into [-max, max], without
  // Math.round's call (this loop is most of what hydrating a large index costs).
  const shift = max + 1;
  for (let j = 0; j < dim; j++) {
    const x = v[off + j]!;
    const c = ((x * inv + shift + 0.5) | 0) - shift;
    out[outOff + j] = c;
    const e = x - c * scale;
    err += e * e;
    norm += c * c;
  }
  stats[statOff] = scale;
  stats[statOff + 1] = Math.sqrt(err);
  stats[statOff + 2] = Math.sqrt(norm) * scale;
}

/**
 * {@link quantise} for a query: int16 codes in `[-queryCodeMax(dim), queryCodeMax(dim)]`, stats in
 * `stats[0..2]`. A function of its own so that the row quantiser, the hot one, only ever sees int8.
 */
export function quantiseQuery(q: Float32Array, codes: Int16Array, stats: Float64Array): void {
  const dim = q.length;
  const max = queryCodeMax(dim);
  let maxAbs = 0;
  for (let j = 0; j < dim; j++) maxAbs = Math.max(maxAbs, Math.abs(q[j]!));
  const scale = maxAbs / max;
  let err = 0;
  let norm = 0;
  for (let j = 0; j < dim; j++) {
    const c = maxAbs === 0 ? 0 : Math.min(max, Math.max(-max, Math.round(q[j]! / scale)));
    codes[j] = c;
    err += (q[j]! - c * scale) ** 2;
    norm += c * c;
  }
  stats[0] = scale;
  stats[1] = Math.sqrt(err);
  stats[2] = Math.sqrt(norm) * scale;
}

/**
 * Absolute slack added to every bound: the double-precision rounding of the bound's own terms, of
 * the scaled integer score and of the exact re-scoring, all below `dim × 2^-52` for unit vectors
 * (`dim <= SIMD_MAX_DIM` keeps that under 3e-10).
 */
export const INT8_BOUND_SLACK = 1e-9;
