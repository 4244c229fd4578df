/**
 * The few WebAssembly encodings the hand-assembled SIMD kernels (`simd-dot.ts`, `simd-int8.ts`)
 * are written in: no toolchain, a module is a list of bytes built here and compiled at run time.
 */

/** Bytes per WebAssembly memory page. */
export const PAGE = 65536;
/** wasm32 addresses 4 GiB. */
export const MAX_PAGES = 65536;
/** `b` rounded up to a multiple of 16 (v128 alignment). */
export const align16 = (b: number): number => Math.ceil(b / 16) * 16;

/** Unsigned/signed LEB128 of an integer in the i32 range (both encodings agree for v >= 0 here). */
export function leb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const SIMD = 0xfd;
/** A SIMD instruction (prefix 0xfd, opcode as a LEB128 u32). */
export const simd = (op: number): number[] => (op < 0x80 ? [SIMD, op] : [SIMD, (op & 0x7f) | 0x80, op >> 7]);
/** `local.get i` / `local.set i`. */
export const get = (i: number): number[] => [0x20, i];
export const set = (i: number): number[] => [0x21, i];
/** `i32.const v`. */
export const i32 = (v: number): number[] => [0x41, ...leb(v)];
export const I32_ADD = 0x6a;
export const I32_AND = 0x71;
export const I32_SHL = 0x74;
export const I32_GE_U = 0x4f;
export const F32_ADD = 0x92;
export const F32_MUL = 0x94;
export const F32_LOAD = [0x2a, 2, 0];
export const F32_STORE = [0x38, 2, 0];
export const I32_STORE = [0x36, 2, 0];
export const F32X4_ADD = simd(0xe4);
export const F32X4_MUL = simd(0xe6);
export const I32X4_ADD = simd(0xae);
export const I32X4_DOT_I16X8_S = simd(0xba);
export const I16X8_EXTEND_LOW_I8X16_S = simd(0x87);
export const I16X8_EXTEND_HIGH_I8X16_S = simd(0x88);
export const V128_ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
/** `f32x4.extract_lane l` / `i32x4.extract_lane l`. */
export const f32Lane = (l: number): number[] => [...simd(0x1f), l];
export const i32Lane = (l: number): number[] => [...simd(0x1b), l];
/** `v128.load` (16-byte alignment hint) at a constant byte offset from the address on the stack. */
export const v128Load = (offset: number): number[] => [...simd(0x00), 4, ...leb(offset)];
export const BLOCK = [0x02, 0x40];
export const LOOP = [0x03, 0x40];
export const END = 0x0b;
export const BR = 0x0c;
export const BR_IF = 0x0d;
export const I32 = 0x7f;
export const F32 = 0x7d;
export const V128 = 0x7b;

/** `while (local a < local b) { body }` (unsigned compare). */
export function whileBelow(a: number, b: number, body: number[]): number[] {
  return [...BLOCK, ...LOOP, ...get(a), ...get(b), I32_GE_U, BR_IF, 1, ...body, BR, 0, END, END];
}

/** Set each v128 local of `accs` to zero. */
export const zeroAll = (accs: readonly number[]): number[] => accs.flatMap((a) => [...V128_ZERO, ...set(a)]);

/** `accs[0] = (accs[0] + accs[1]) + (accs[2] + accs[3])` with the lane-wise `add`. */
export const sumInto = (accs: readonly [number, number, number, number], add: number[]): number[] => [
  ...get(accs[0]),
  ...get(accs[1]),
  ...add,
  ...get(accs[2]),
  ...get(accs[3]),
  ...add,
  ...add,
  ...set(accs[0]),
];

/**
 * The function of a scores kernel (see {@link ScoresKernel}): params `0 q, 1 rows, 2 n, 3 size,
 * 4 out`, locals from 5 declared by `locals` (local 5 must be an i32, the row; local 7 an i32, the
 * row's byte pointer). `setup` runs once; then for each row `row < n`, `perRow` leaves the row's
 * 4-byte score on the stack (after the address `out + 4 × row`, pushed before it), the score is
 * stored with `store`, and the row pointer moves on by the i32 in local `rowBytes`.
 */
export function scoresKernelBytes(spec: {
  locals: number[];
  setup: number[];
  perRow: number[];
  store: number[];
  rowBytes: number;
}): Uint8Array<ArrayBuffer> {
  const body = [
    ...spec.locals,
    ...spec.setup,
    ...get(1),
    ...set(7),
    ...i32(0),
    ...set(5),
    ...whileBelow(5, 2, [
      ...get(4),
      ...get(5),
      ...i32(2),
      I32_SHL,
      I32_ADD,
      ...spec.perRow,
      ...spec.store,
      ...get(7),
      ...get(spec.rowBytes),
      I32_ADD,
      ...set(7),
      ...get(5),
      ...i32(1),
      I32_ADD,
      ...set(5),
    ]),
    END,
  ];
  return kernelModuleBytes('scores', 5, body);
}

/**
 * A module that imports its memory as `env.mem` and exports one function `name` taking `params`
 * i32 arguments and returning nothing; `body` is that function's locals declaration and code.
 */
export function kernelModuleBytes(name: string, params: number, body: number[]): Uint8Array<ArrayBuffer> {
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const str = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, params, ...new Array<number>(params).fill(I32), 0]),
    ...section(2, [1, ...str('env'), ...str('mem'), 2, 0, 0]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...str(name), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

/** The compiled module per WebAssembly namespace and per kernel; null where it cannot compile. */
const compiled = new WeakMap<object, Map<string, WebAssembly.Module | null>>();

/** The parts of the `WebAssembly` namespace the kernels use (injectable, e.g. to test fallbacks). */
export interface WebAssemblyApi {
  validate(bytes: BufferSource): boolean;
  Module: new (bytes: BufferSource) => WebAssembly.Module;
  Instance: new (module: WebAssembly.Module, imports?: WebAssembly.Imports) => WebAssembly.Instance;
  Memory: new (descriptor: WebAssembly.MemoryDescriptor) => WebAssembly.Memory;
}

/** `globalThis.WebAssembly`, when there is one. */
export function defaultWasmApi(): WebAssemblyApi | undefined {
  const api = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  return typeof api === 'object' && api !== null ? api : undefined;
}

/**
 * The compiled kernel `key` (its bytes from `build`, made once), or null when SIMD is unsupported
 * (validation fails) or compiling is refused (a CSP without `'wasm-unsafe-eval'` throws at compile;
 * the browser still logs, and reports, that one violation). Decided once per namespace and kernel.
 * Synchronous compiling is fine on a main thread for modules this small (Chromium refuses it only
 * for large modules).
 */
export function compileKernel(
  api: WebAssemblyApi,
  key: string,
  build: () => Uint8Array<ArrayBuffer>,
): WebAssembly.Module | null {
  let perApi = compiled.get(api);
  if (!perApi) compiled.set(api, (perApi = new Map()));
  const known = perApi.get(key);
  if (known !== undefined) return known;
  let module: WebAssembly.Module | null = null;
  try {
    const bytes = build();
    // The kernel itself is the feature probe: it validates only where the SIMD it uses exists.
    if (api.validate(bytes)) module = new api.Module(bytes);
  } catch {
    module = null;
  }
  perApi.set(key, module);
  return module;
}

/** What both kernels export: `scores(query, rows, n, size, out)`, pointers in bytes, `size` per kernel. */
export type ScoresKernel = (q: number, rows: number, n: number, size: number, out: number) => void;

/**
 * A kernel's own memory, laid out as `capacity` rows of `rowBytes` at 0, then a query area of
 * `queryBytes`, then `capacity` 4-byte scores, each start 16-byte aligned. Growing keeps the rows in
 * place (wasm memory grows at its end); the query and scores areas are scratch and move up.
 */
export class KernelMemory {
  readonly #memory: WebAssembly.Memory;
  readonly #rowBytes: number;
  readonly #queryBytes: number;
  #capacity = 0;
  #queryPtr = 0;
  #outPtr = 0;

  constructor(memory: WebAssembly.Memory, rowBytes: number, queryBytes: number) {
    this.#memory = memory;
    this.#rowBytes = rowBytes;
    this.#queryBytes = queryBytes;
  }

  /** The memory's buffer now (a new one after each growth). */
  get buffer(): ArrayBuffer {
    return this.#memory.buffer;
  }
  /** Rows allocated. */
  get capacity(): number {
    return this.#capacity;
  }
  /** Byte offset of the query area. */
  get queryPtr(): number {
    return this.#queryPtr;
  }
  /** Byte offset of the scores area. */
  get outPtr(): number {
    return this.#outPtr;
  }

  /**
   * Room for `capacity` rows (never shrinks). Returns false, and changes nothing, when the memory
   * cannot grow (the 4 GiB wasm32 limit, a `maximum`, or no memory left).
   */
  grow(capacity: number): boolean {
    if (capacity <= this.#capacity) return true;
    const queryPtr = align16(capacity * this.#rowBytes);
    const outPtr = align16(queryPtr + this.#queryBytes);
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
    this.#queryPtr = queryPtr;
    this.#outPtr = outPtr;
    return true;
  }
}

/**
 * Rows in a kernel's memory (`perRow` elements each), seen through a typed-array view that is made
 * again after each growth (growing detaches the previous one). The base of both kernels' classes.
 */
export class KernelRows<T extends Float32Array | Int8Array> {
  protected readonly memory: KernelMemory;
  protected readonly scoresKernel: ScoresKernel;
  readonly #perRow: number;
  readonly #view: (buffer: ArrayBuffer, length: number) => T;
  #rows: T;

  constructor(
    memory: KernelMemory,
    scores: ScoresKernel,
    perRow: number,
    view: (buffer: ArrayBuffer, length: number) => T,
  ) {
    this.memory = memory;
    this.scoresKernel = scores;
    this.#perRow = perRow;
    this.#view = view;
    this.#rows = view(memory.buffer, memory.capacity * perRow);
  }

  /** Rows allocated. */
  get capacity(): number {
    return this.memory.capacity;
  }

  /**
   * The rows (`capacity × perRow` elements) as a view into the kernel's memory. Growing detaches
   * the previous view: read this again after {@link grow}, and never keep it across one.
   */
  get rows(): T {
    return this.#rows;
  }

  /**
   * Make room for `capacity` rows (never shrinks), keeping the rows in place. Returns false, and
   * changes nothing, when the memory cannot grow (the 4 GiB wasm32 limit, a `maximum`, or no
   * memory left).
   */
  grow(capacity: number): boolean {
    if (capacity <= this.memory.capacity) return true;
    if (!this.memory.grow(capacity)) return false;
    this.#rows = this.#view(this.memory.buffer, capacity * this.#perRow);
    return true;
  }
}

/**
 * The kernel `key` (bytes from `build`) instantiated over a fresh memory with room for `capacity`
 * rows, or undefined where the runtime has no WebAssembly (SIMD), refuses to compile it (CSP), or
 * cannot allocate the memory: callers fall back to plain JavaScript.
 */
export function instantiateKernel(
  webAssembly: WebAssemblyApi | undefined,
  key: string,
  build: () => Uint8Array<ArrayBuffer>,
  layout: { rowBytes: number; queryBytes: number; capacity: number },
): { memory: KernelMemory; scores: ScoresKernel } | undefined {
  const api = webAssembly ?? defaultWasmApi();
  if (!api) return undefined;
  const module = compileKernel(api, key, build);
  if (!module) return undefined;
  try {
    const raw = new api.Memory({ initial: 1 });
    const instance = new api.Instance(module, { env: { mem: raw } });
    const memory = new KernelMemory(raw, layout.rowBytes, layout.queryBytes);
    if (!memory.grow(Math.max(layout.capacity, 1))) return undefined;
    return { memory, scores: instance.exports.scores as ScoresKernel };
  } catch {
    return undefined;
  }
}
