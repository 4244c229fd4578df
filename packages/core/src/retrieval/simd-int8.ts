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
  align16,
  BLOCK,
  BR,
  BR_IF,
  compileKernel,
  defaultWasmApi,
  END,
  get,
  I16X8_EXTEND_HIGH_I8X16_S,
  I16X8_EXTEND_LOW_I8X16_S,
  I32,
  i32,
  I32_ADD,
  I32_GE_U,
  I32_SHL,
  I32_STORE,
  I32X4_ADD,
  I32X4_DOT_I16X8_S,
  i32Lane,
  kernelModuleBytes,
  LOOP,
  MAX_PAGES,
  PAGE,
  set,
  V128,
  V128_ZERO,
  v128Load,
  type WebAssemblyApi,
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
  const body = [
    2,
    5,
    I32,
    5,
    V128,
    ...get(1),
    ...set(7),
    ...i32(0),
    ...set(5),
    ...BLOCK,
    ...LOOP,
    ...get(5),
    ...get(2),
    I32_GE_U,
    BR_IF,
    1,
    ...[10, 11, 12, 13].flatMap((a) => [...V128_ZERO, ...set(a)]),
    ...get(7),
    ...set(6),
    ...get(0),
    ...set(8),
    ...get(7),
    ...get(3),
    I32_ADD,
    ...set(9),
    ...BLOCK,
    ...LOOP,
    ...get(6),
    ...get(9),
    I32_GE_U,
    BR_IF,
    1,
    ...load16(0),
    ...madd(10, I16X8_EXTEND_LOW_I8X16_S, 0),
    ...madd(11, I16X8_EXTEND_HIGH_I8X16_S, 16),
    ...load16(16),
    ...madd(12, I16X8_EXTEND_LOW_I8X16_S, 32),
    ...madd(13, I16X8_EXTEND_HIGH_I8X16_S, 48),
    ...get(6),
    ...i32(32),
    I32_ADD,
    ...set(6),
    ...get(8),
    ...i32(64),
    I32_ADD,
    ...set(8),
    BR,
    0,
    END,
    END,
    ...get(10),
    ...get(11),
    ...I32X4_ADD,
    ...get(12),
    ...get(13),
    ...I32X4_ADD,
    ...I32X4_ADD,
    ...set(10),
    ...get(4),
    ...get(5),
    ...i32(2),
    I32_SHL,
    I32_ADD,
    ...get(10),
    ...i32Lane(0),
    ...get(10),
    ...i32Lane(1),
    I32_ADD,
    ...get(10),
    ...i32Lane(2),
    I32_ADD,
    ...get(10),
    ...i32Lane(3),
    I32_ADD,
    ...I32_STORE,
    ...get(9),
    ...set(7),
    ...get(5),
    ...i32(1),
    I32_ADD,
    ...set(5),
    BR,
    0,
    END,
    END,
    END,
  ];
  return kernelModuleBytes('scores', 5, body);
}

function kernelModule(api: WebAssemblyApi): WebAssembly.Module | null {
  return compileKernel(api, 'i8-dot', kernelBytes);
}

/** True when this runtime can run the int8 SIMD kernel (feature-detected once). */
export function simdInt8Supported(options: SimdDotOptions = {}): boolean {
  const api = options.webAssembly ?? defaultWasmApi();
  return api !== undefined && kernelModule(api) !== null;
}

type Kernel = (q: number, codes: number, n: number, stride: number, out: number) => void;

/** Int8 rows of `dim` codes in WebAssembly memory and a kernel scoring int16 query codes against them. */
export class SimdInt8Dot {
  readonly #dim: number;
  readonly #stride: number;
  readonly #memory: WebAssembly.Memory;
  readonly #scores: Kernel;
  #capacity = 0;
  #codes: Int8Array = new Int8Array(0);
  #qPtr = 0;
  #outPtr = 0;

  /** Use {@link createSimdInt8Dot}. */
  constructor(dim: number, memory: WebAssembly.Memory, scores: Kernel) {
    this.#dim = dim;
    this.#stride = int8Stride(dim);
    this.#memory = memory;
    this.#scores = scores;
  }

  /** Bytes per row (`dim` rounded up to 32; the padding stays zero). */
  get stride(): number {
    return this.#stride;
  }

  /** Rows allocated. */
  get capacity(): number {
    return this.#capacity;
  }

  /**
   * The codes (`capacity × stride` bytes, row `r` at `r × stride`) as a view into the kernel's
   * memory. Growing detaches the previous view: read this again after {@link grow}.
   */
  get codes(): Int8Array {
    return this.#codes;
  }

  /** Room for `capacity` rows (never shrinks), codes kept in place; false, changing nothing, when the memory cannot grow. */
  grow(capacity: number): boolean {
    if (capacity <= this.#capacity) return true;
    const qPtr = align16(capacity * this.#stride);
    const outPtr = align16(qPtr + this.#stride * 2);
    const pages = Math.ceil((outPtr + capacity * 4) / PAGE);
    if (pages > MAX_PAGES) return false;
    const have = this.#memory.buffer.byteLength / PAGE;
    if (pages > have) {
      try {
        this.#memory.grow(pages - have);
      } catch {
        return false;
      }
    }
    this.#capacity = capacity;
    this.#qPtr = qPtr;
    this.#outPtr = outPtr;
    this.#codes = new Int8Array(this.#memory.buffer, 0, capacity * this.#stride);
    return true;
  }

  /**
   * Exact integer `query · row` for the first `n` rows; `query` holds `dim` (or `stride`) int16
   * codes with `|code| <= queryCodeMax(dim)`. The result is a view into the kernel's memory, valid
   * until the next `scores` or `grow` call.
   */
  scores(query: Int16Array, n: number): Int32Array {
    const buffer = this.#memory.buffer;
    const q = new Int16Array(buffer, this.#qPtr, this.#stride);
    q.fill(0);
    q.set(query.subarray(0, this.#dim));
    this.#scores(this.#qPtr, 0, n, this.#stride, this.#outPtr);
    return new Int32Array(buffer, this.#outPtr, n);
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
  const api = options.webAssembly ?? defaultWasmApi();
  if (!api) return undefined;
  const module = kernelModule(api);
  if (!module) return undefined;
  try {
    const memory = new api.Memory({ initial: 1 });
    const instance = new api.Instance(module, { env: { mem: memory } });
    const dot = new SimdInt8Dot(dim, memory, instance.exports.scores as Kernel);
    return dot.grow(Math.max(capacity, 1)) ? dot : undefined;
  } catch {
    return undefined;
  }
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
