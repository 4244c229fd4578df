/**
 * Float32 dot products of one query against many rows, computed by a small hand-assembled
 * WebAssembly SIMD kernel (f32x4, four accumulators). The rows live in the kernel's own
 * `WebAssembly.Memory`, so a scan reads them in place; {@link SimdDot.rows} is a view over them.
 *
 * Memory layout (bytes): rows (`capacity × dim` floats) at 0, then the query (`dim` floats), then
 * the scores (`capacity` floats), each start 16-byte aligned. Growing keeps the rows in place (wasm
 * memory grows at its end); the query and scores areas are scratch and simply move up.
 */

/** The parts of the `WebAssembly` namespace this module uses (injectable, e.g. to test fallbacks). */
export interface WebAssemblyApi {
  validate(bytes: BufferSource): boolean;
  Module: new (bytes: BufferSource) => WebAssembly.Module;
  Instance: new (module: WebAssembly.Module, imports?: WebAssembly.Imports) => WebAssembly.Instance;
  Memory: new (descriptor: WebAssembly.MemoryDescriptor) => WebAssembly.Memory;
}

/** Options of {@link createSimdDot}. */
export interface SimdDotOptions {
  /** The WebAssembly namespace to use. Default `globalThis.WebAssembly`. */
  webAssembly?: WebAssemblyApi | undefined;
}

const PAGE = 65536;
/** wasm32 addresses 4 GiB. */
const MAX_PAGES = 65536;
/**
 * Largest dimension {@link dotErrorBound} is proven for (its slack needs `dim × 2^-24` well
 * below 1); rows of a million floats would be 4 MB each, far beyond any embedding.
 */
export const SIMD_MAX_DIM = 1 << 20;

const SIMD = 0xfd;
const simd = (op: number): number[] => (op < 0x80 ? [SIMD, op] : [SIMD, (op & 0x7f) | 0x80, op >> 7]);
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const i32 = (v: number): number[] => [0x41, ...leb(v)];
const I32_ADD = 0x6a;
const I32_AND = 0x71;
const I32_SHL = 0x74;
const I32_GE_U = 0x4f;
const F32_ADD = 0x92;
const F32_MUL = 0x94;
const F32_LOAD = [0x2a, 2, 0];
const F32_STORE = [0x38, 2, 0];
const F32X4_ADD = simd(0xe4);
const F32X4_MUL = simd(0xe6);
const V128_ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const lane = (l: number): number[] => [...simd(0x1f), l];
const v128Load = (offset: number): number[] => [...simd(0x00), 4, ...leb(offset)];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;

function leb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

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
  // prettier-ignore
  const body = [
    3,
    6,
    0x7f,
    4,
    0x7b,
    1,
    0x7d,
    ...get(3),
    ...i32(2),
    I32_SHL,
    ...set(8),
    ...get(8),
    ...i32(-64),
    I32_AND,
    ...set(9),
    ...get(8),
    ...i32(-16),
    I32_AND,
    ...set(10),
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
    ...accs.flatMap((a) => [...V128_ZERO, ...set(a)]),
    ...i32(0),
    ...set(6),
    ...BLOCK,
    ...LOOP,
    ...get(6),
    ...get(9),
    I32_GE_U,
    BR_IF,
    1,
    ...accs.flatMap((a, i) => madd(a, 16 * i)),
    ...step(64),
    BR,
    0,
    END,
    END,
    ...BLOCK,
    ...LOOP,
    ...get(6),
    ...get(10),
    I32_GE_U,
    BR_IF,
    1,
    ...madd(11, 0),
    ...step(16),
    BR,
    0,
    END,
    END,
    ...get(11),
    ...get(12),
    ...F32X4_ADD,
    ...get(13),
    ...get(14),
    ...F32X4_ADD,
    ...F32X4_ADD,
    ...set(11),
    ...get(11),
    ...lane(0),
    ...get(11),
    ...lane(1),
    F32_ADD,
    ...get(11),
    ...lane(2),
    F32_ADD,
    ...get(11),
    ...lane(3),
    F32_ADD,
    ...set(15),
    ...BLOCK,
    ...LOOP,
    ...get(6),
    ...get(8),
    I32_GE_U,
    BR_IF,
    1,
    ...get(15),
    ...get(0),
    ...get(6),
    I32_ADD,
    ...F32_LOAD,
    ...get(7),
    ...get(6),
    I32_ADD,
    ...F32_LOAD,
    F32_MUL,
    F32_ADD,
    ...set(15),
    ...step(4),
    BR,
    0,
    END,
    END,
    ...get(4),
    ...get(5),
    ...i32(2),
    I32_SHL,
    I32_ADD,
    ...get(15),
    ...F32_STORE,
    ...get(7),
    ...get(8),
    I32_ADD,
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
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(2, [1, ...name('env'), ...name('mem'), 2, 0, 0]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('scores'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

let bytes: Uint8Array<ArrayBuffer> | undefined;
/** Compiled kernel per WebAssembly namespace; null when that runtime cannot compile it. */
const compiled = new WeakMap<object, WebAssembly.Module | null>();

function defaultApi(): WebAssemblyApi | undefined {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  return typeof api === 'object' && api !== null ? api : undefined;
}

/**
 * The compiled kernel, or null when SIMD is unsupported (validation fails) or compiling is refused
 * (a CSP without `'wasm-unsafe-eval'` throws at compile; the browser still logs, and reports, that
 * one violation). Decided once per namespace. Synchronous compiling is fine on a main thread for a
 * module this small (491 bytes; Chromium refuses it only for large modules).
 */
function kernelModule(api: WebAssemblyApi): WebAssembly.Module | null {
  const known = compiled.get(api);
  if (known !== undefined) return known;
  let module: WebAssembly.Module | null = null;
  try {
    bytes ??= kernelBytes();
    // The kernel itself is the feature probe: it validates only where f32x4 SIMD exists.
    if (api.validate(bytes)) module = new api.Module(bytes);
  } catch {
    module = null;
  }
  compiled.set(api, module);
  return module;
}

/** True when this runtime can run the SIMD kernel (feature-detected once). */
export function simdDotSupported(options: SimdDotOptions = {}): boolean {
  const api = options.webAssembly ?? defaultApi();
  return api !== undefined && kernelModule(api) !== null;
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

const align16 = (b: number): number => Math.ceil(b / 16) * 16;

/** Rows of `dim` floats in WebAssembly memory and a kernel scoring a query against all of them. */
export class SimdDot {
  readonly #dim: number;
  readonly #memory: WebAssembly.Memory;
  readonly #scores: (q: number, data: number, n: number, dim: number, out: number) => void;
  #capacity = 0;
  #rows: Float32Array = new Float32Array(0);
  #qPtr = 0;
  #outPtr = 0;

  /** Use {@link createSimdDot}. */
  constructor(
    dim: number,
    memory: WebAssembly.Memory,
    scores: (q: number, data: number, n: number, dim: number, out: number) => void,
  ) {
    this.#dim = dim;
    this.#memory = memory;
    this.#scores = scores;
  }

  /** Rows allocated. */
  get capacity(): number {
    return this.#capacity;
  }

  /**
   * The rows (`capacity × dim` floats) as a view into the kernel's memory. Growing detaches the
   * previous view: read this again after {@link grow}, and never keep it across one.
   */
  get rows(): Float32Array {
    return this.#rows;
  }

  /**
   * Make room for `capacity` rows (never shrinks), keeping the rows in place. Returns false, and
   * changes nothing, when the memory cannot grow (the 4 GiB wasm32 limit, a `maximum`, or no
   * memory left).
   */
  grow(capacity: number): boolean {
    if (capacity <= this.#capacity) return true;
    const qPtr = align16(capacity * this.#dim * 4);
    const outPtr = align16(qPtr + this.#dim * 4);
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
    this.#rows = new Float32Array(this.#memory.buffer, 0, capacity * this.#dim);
    return true;
  }

  /**
   * Float32 `query · row` for the first `n` rows. The result is a view into the kernel's memory,
   * valid until the next `scores` or `grow` call: copy it if anything in between may grow.
   */
  scores(query: Float32Array, n: number): Float32Array {
    const buffer = this.#memory.buffer;
    new Float32Array(buffer, this.#qPtr, this.#dim).set(query);
    this.#scores(this.#qPtr, 0, n, this.#dim, this.#outPtr);
    return new Float32Array(buffer, this.#outPtr, n);
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
  const api = options.webAssembly ?? defaultApi();
  if (!api) return undefined;
  const module = kernelModule(api);
  if (!module) return undefined;
  try {
    const memory = new api.Memory({ initial: 1 });
    const instance = new api.Instance(module, { env: { mem: memory } });
    const scores = instance.exports.scores as (q: number, data: number, n: number, dim: number, out: number) => void;
    const dot = new SimdDot(dim, memory, scores);
    return dot.grow(Math.max(capacity, 1)) ? dot : undefined;
  } catch {
    return undefined;
  }
}
