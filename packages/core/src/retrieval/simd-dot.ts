/**
 * Float32 dot products of one query against many rows, computed by a small hand-assembled
 * WebAssembly SIMD kernel (f32x4, four accumulators). The rows live in the kernel's own
 * `WebAssembly.Memory`, so a scan reads them in place; {@link SimdDot.rows} is a view over them.
 *
 * Memory layout (bytes): rows (`capacity × dim` floats) at 0, then the query (`dim` floats), then
 * the scores (`capacity` floats), each start 16-byte aligned. Growing keeps the rows in place (wasm
 * memory grows at its end); the query and scores areas are scratch and simply move up.
 */

import {
  compileKernel,
  defaultWasmApi,
  F32,
  F32_ADD,
  F32_LOAD,
  F32_MUL,
  F32_STORE,
  F32X4_ADD,
  F32X4_MUL,
  f32Lane as lane,
  get,
  I32,
  i32,
  I32_ADD,
  I32_AND,
  I32_SHL,
  instantiateKernel,
  type KernelMemory,
  KernelRows,
  type ScoresKernel,
  set,
  V128,
  v128Load,
  type WebAssemblyApi,
  scoresKernelBytes,
  sumInto,
  whileBelow,
  zeroAll,
} from './wasm-asm.js';

export type { WebAssemblyApi } from './wasm-asm.js';

/** Options of {@link createSimdDot}. */
export interface SimdDotOptions {
  /** The WebAssembly namespace to use. Default `globalThis.WebAssembly`. */
  webAssembly?: WebAssemblyApi | undefined;
}

/**
 * Largest dimension {@link dotErrorBound} is proven for (its slack needs `dim × 2^-24` well
 * below 1); rows of a million floats would be 4 MB each, far beyond any embedding.
 */
export const SIMD_MAX_DIM = 1 << 20;

/**
 * The module: imports `env.mem`, exports `scores(q, data, n, dim, out)` which writes
 * `out[row] = q · data[row]` (float32 sums) for `row < n`. Any `dim`: 16 floats per step over four
 * v128 accumulators, then 4 per step, then a scalar tail.
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  // params: 0 q, 1 data, 2 n, 3 dim, 4 out.
  // locals: 5 row, 6 j (bytes), 7 rowPtr, 8 dimBytes, 9 main (bytes in 64-byte steps), 10 quad; 11-14 acc; 15 sum.
  const accs = [11, 12, 13, 14];
  const madd = (acc: number, offset: number): number[] => [
    ...get(acc),
    ...get(0),
    ...get(6),
    I32_ADD,
    ...v128Load(offset),
    ...get(7),
    ...get(6),
    I32_ADD,
    ...v128Load(offset),
    ...F32X4_MUL,
    ...F32X4_ADD,
    ...set(acc),
  ];
  const step = (bytes: number): number[] => [...get(6), ...i32(bytes), I32_ADD, ...set(6)];
  const laneSum = [...get(11), ...lane(0), ...get(11), ...lane(1), F32_ADD, ...get(11), ...lane(2), F32_ADD];
  const scalar = [...get(15), ...get(0), ...get(6), I32_ADD, ...F32_LOAD, ...get(7), ...get(6), I32_ADD, ...F32_LOAD];
  return scoresKernelBytes({
    locals: [3, 6, I32, 4, V128, 1, F32],
    setup: [
      ...[...get(3), ...i32(2), I32_SHL, ...set(8)],
      ...[...get(8), ...i32(-64), I32_AND, ...set(9)],
      ...[...get(8), ...i32(-16), I32_AND, ...set(10)],
    ],
    perRow: [
      ...zeroAll(accs),
      ...i32(0),
      ...set(6),
      ...whileBelow(6, 9, [...accs.flatMap((a, i) => madd(a, 16 * i)), ...step(64)]),
      ...whileBelow(6, 10, [...madd(11, 0), ...step(16)]),
      ...sumInto([11, 12, 13, 14], F32X4_ADD),
      ...laneSum,
      ...get(11),
      ...lane(3),
      F32_ADD,
      ...set(15),
      ...whileBelow(6, 8, [...scalar, F32_MUL, F32_ADD, ...set(15), ...step(4)]),
      ...get(15),
    ],
    store: F32_STORE,
    rowBytes: 8,
  });
}

/** True when this runtime can run the SIMD kernel (feature-detected once). */
export function simdDotSupported(options: SimdDotOptions = {}): boolean {
  const api = options.webAssembly ?? defaultWasmApi();
  return api !== undefined && compileKernel(api, 'f32-dot', kernelBytes) !== null;
}

/**
 * Largest possible `|float32 kernel score − float64 JS score|` for a query and a row that are
 * both unit-normalised (or zero): `γ(dim+1)` in float32 plus the double rounding of the JS sum,
 * times the norms' float32 excess, all below `2 (dim + 2) 2^-24` for `dim ≤ SIMD_MAX_DIM`.
 * Holds for any summation order, and wasm SIMD keeps subnormals (no flush to zero), whose
 * absolute error (`dim × 2^-150`) the slack also covers.
 */
export function dotErrorBound(dim: number): number {
  return 2 * (dim + 2) * 2 ** -24;
}

/** Rows of `dim` floats in WebAssembly memory ({@link KernelRows.rows}) and a kernel scoring a query against all of them. */
export class SimdDot extends KernelRows<Float32Array> {
  readonly #dim: number;

  /** Use {@link createSimdDot}. */
  constructor(dim: number, memory: KernelMemory, scores: ScoresKernel) {
    super(memory, scores, dim, (buffer, length) => new Float32Array(buffer, 0, length));
    this.#dim = dim;
  }

  /**
   * Float32 `query · row` for the first `n` rows. The result is a view into the kernel's memory,
   * valid until the next `scores` or `grow` call: copy it if anything in between may grow.
   */
  scores(query: Float32Array, n: number): Float32Array {
    const m = this.memory;
    new Float32Array(m.buffer, m.queryPtr, this.#dim).set(query);
    this.scoresKernel(m.queryPtr, 0, n, this.#dim, m.outPtr);
    return new Float32Array(m.buffer, m.outPtr, n);
  }
}

/**
 * A {@link SimdDot} with room for `capacity` rows of `dim` floats (zeroed), or undefined when the
 * runtime has no WebAssembly SIMD, refuses to compile wasm (CSP), or cannot allocate the memory:
 * callers fall back to plain JavaScript.
 */
export function createSimdDot(dim: number, capacity: number, options: SimdDotOptions = {}): SimdDot | undefined {
  if (!Number.isInteger(dim) || dim < 1 || dim > SIMD_MAX_DIM || !Number.isInteger(capacity) || capacity < 0)
    return undefined;
  const kernel = instantiateKernel(options.webAssembly, 'f32-dot', kernelBytes, {
    rowBytes: dim * 4,
    queryBytes: dim * 4,
    capacity,
  });
  return kernel && new SimdDot(dim, kernel.memory, kernel.scores);
}
