/**
 * Benchmark-only probe: the same exact top-k scan as `VectorIndex`, with the dot products done by a
 * tiny hand-assembled WebAssembly SIMD kernel (f32x4, four accumulators, float32 sums). It answers
 * "what would WASM SIMD buy over scalar JS?" for the 30 ms @ 100k target; it is not part of any
 * package. Requires `dim % 16 === 0`. `VectorIndex` now ships the product version of this kernel
 * (packages/core/src/simd-dot.ts: any dim, growable memory, exact re-scoring); the probe stays as a
 * reference for the bare kernel's speed.
 */
import type { VectorBlock } from '@zerda/core';
import { TopK, type Scored } from '../../packages/core/src/top-k.js';

const SIMD = 0xfd;
const simd = (op: number): number[] => (op < 0x80 ? [SIMD, op] : [SIMD, (op & 0x7f) | 0x80, op >> 7]);
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const i32 = (v: number): number[] => [0x41, ...leb(v)];
const ADD = 0x6a;
const SHL = 0x74;
const GE_U = 0x4f;
const F32X4_ADD = simd(228);
const F32X4_MUL = simd(230);
const lane = (l: number): number[] => [...simd(0x1f), l];
const v128Load = (offset: number): number[] => [...simd(0x00), 4, ...leb(offset)];

function leb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

/** `scores(q, data, n, dim, out)`: out[row] = q · data[row] (float32) for every row. */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  // params: 0 q, 1 data, 2 n, 3 dim; 4 out. locals: 5 row, 6 j (bytes), 7 rowPtr, 8 dimBytes, 9-12 acc.
  const accs = [9, 10, 11, 12];
  const body = [
    2, 4, 0x7f, 4, 0x7b, // locals: 4 x i32, 4 x v128
    ...get(3), ...i32(2), SHL, ...set(8),
    ...get(1), ...set(7),
    ...i32(0), ...set(5),
    0x02, 0x40, 0x03, 0x40, // block, loop (rows)
    ...get(5), ...get(2), GE_U, 0x0d, 1,
    ...accs.flatMap((a) => [...simd(0x0c), ...new Array(16).fill(0), ...set(a)]),
    ...i32(0), ...set(6),
    0x02, 0x40, 0x03, 0x40, // block, loop (64 bytes per step)
    ...get(6), ...get(8), GE_U, 0x0d, 1,
    ...accs.flatMap((a, i) => [
      ...get(a),
      ...get(0), ...get(6), ADD, ...v128Load(16 * i),
      ...get(7), ...get(6), ADD, ...v128Load(16 * i),
      ...F32X4_MUL, ...F32X4_ADD, ...set(a),
    ]),
    ...get(6), ...i32(64), ADD, ...set(6),
    0x0c, 0, 0x0b, 0x0b,
    ...get(9), ...get(10), ...F32X4_ADD, ...get(11), ...get(12), ...F32X4_ADD, ...F32X4_ADD, ...set(9),
    ...get(4), ...get(5), ...i32(2), SHL, ADD,
    ...get(9), ...lane(0), ...get(9), ...lane(1), 0x92, ...get(9), ...lane(2), 0x92, ...get(9), ...lane(3), 0x92,
    0x38, 2, 0, // f32.store
    ...get(7), ...get(8), ADD, ...set(7),
    ...get(5), ...i32(1), ADD, ...set(5),
    0x0c, 0, 0x0b, 0x0b,
    0x0b,
  ];
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('mem'), 2, 0, ...name('scores'), 0, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

/** Exact top-k over unit rows kept in WebAssembly memory, scored by the SIMD kernel. */
export class WasmSimdIndex {
  readonly #dim: number;
  readonly #n: number;
  readonly #ids: string[];
  readonly #mem: WebAssembly.Memory;
  readonly #scores: (q: number, data: number, n: number, dim: number, out: number) => void;
  readonly #qPtr = 0;
  readonly #outPtr: number;
  readonly #dataPtr: number;

  private constructor(dim: number, ids: string[]) {
    if (dim % 16 !== 0) throw new Error('WasmSimdIndex needs dim % 16 === 0');
    this.#dim = dim;
    this.#n = ids.length;
    this.#ids = ids;
    const instance = new WebAssembly.Instance(new WebAssembly.Module(kernelBytes()));
    this.#mem = instance.exports.mem as WebAssembly.Memory;
    this.#scores = instance.exports.scores as (q: number, data: number, n: number, dim: number, out: number) => void;
    this.#outPtr = Math.ceil((dim * 4) / 16) * 16;
    this.#dataPtr = this.#outPtr + Math.ceil((this.#n * 4) / 16) * 16;
    const bytes = this.#dataPtr + this.#n * dim * 4;
    this.#mem.grow(Math.ceil(bytes / 65536));
  }

  /** Copy and unit-normalise the rows of `block`. */
  static fromBlock(block: VectorBlock): WasmSimdIndex {
    const dim = block.model.dim;
    const index = new WasmSimdIndex(dim, block.ids.slice());
    const data = new Float32Array(index.#mem.buffer, index.#dataPtr, index.#n * dim);
    const src = block.data;
    for (let off = 0; off < data.length; off += dim) {
      let norm = 0;
      for (let j = 0; j < dim; j++) norm += src[off + j]! * src[off + j]!;
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 1;
      for (let j = 0; j < dim; j++) data[off + j] = src[off + j]! * inv;
    }
    return index;
  }

  /** The `k` best rows by cosine, best first (float32 scores). */
  search(query: Float32Array, k: number): Scored[] {
    const dim = this.#dim;
    const q = new Float32Array(this.#mem.buffer, this.#qPtr, dim);
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += query[j]! * query[j]!;
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < dim; j++) q[j] = query[j]! * inv;
    this.#scores(this.#qPtr, this.#dataPtr, this.#n, dim, this.#outPtr);
    const out = new Float32Array(this.#mem.buffer, this.#outPtr, this.#n);
    const top = new TopK(k);
    for (let row = 0; row < this.#n; row++) {
      const s = out[row]!;
      if (s >= top.threshold) top.push(this.#ids[row]!, s);
    }
    return top.sorted();
  }
}
