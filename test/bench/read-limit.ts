/**
 * The machine's memory-read limit for a vector scan, measured beside it: a WebAssembly SIMD loop
 * that only *reads* a block (four v128 loads per 64 bytes, summed into four i32x4 accumulators so
 * the loads cannot be skipped) and does nothing else. A scan of the same block cannot be faster
 * than this loop unless it reads fewer bytes. Bench-only; never part of CI.
 */
import {
  BLOCK,
  BR,
  BR_IF,
  END,
  get,
  i32,
  I32_ADD,
  I32_GE_U,
  I32X4_ADD,
  kernelModuleBytes,
  LOOP,
  PAGE,
  set,
  simd,
  V128,
  V128_ZERO,
  v128Load,
} from '../../packages/core/src/retrieval/wasm-asm.js';

/** `read(ptr, end, out)`: reads bytes `[ptr, end)` (a multiple of 64), writes a 16-byte checksum at `out`. */
function readKernelBytes(): Uint8Array<ArrayBuffer> {
  // params: 0 p, 1 end, 2 out. locals: 3-6 acc.
  const body = [
    1,
    4,
    V128,
    ...[3, 4, 5, 6].flatMap((a) => [...V128_ZERO, ...set(a)]),
    ...BLOCK,
    ...LOOP,
    ...get(0),
    ...get(1),
    I32_GE_U,
    BR_IF,
    1,
    ...[3, 4, 5, 6].flatMap((a, i) => [...get(a), ...get(0), ...v128Load(16 * i), ...I32X4_ADD, ...set(a)]),
    ...get(0),
    ...i32(64),
    I32_ADD,
    ...set(0),
    BR,
    0,
    END,
    END,
    ...get(2),
    ...get(3),
    ...get(4),
    ...I32X4_ADD,
    ...get(5),
    ...get(6),
    ...I32X4_ADD,
    ...I32X4_ADD,
    ...simd(0x0b), // v128.store
    4,
    0,
    END,
  ];
  return kernelModuleBytes('read', 3, body);
}

/** A copy of `data` in WebAssembly memory and a function that reads all of it once. */
export interface ReadLimit {
  /** Bytes read per call. */
  bytes: number;
  /** Read the whole copy once; returns a checksum (so nothing is optimised away). */
  read(): number;
}

/** Copy `data` into WebAssembly memory (as the float32 kernel holds its rows) for {@link ReadLimit.read}. */
export function createReadLimit(data: Float32Array): ReadLimit {
  const bytes = Math.ceil(data.byteLength / 64) * 64;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((bytes + 16) / PAGE) });
  new Float32Array(memory.buffer, 0, data.length).set(data);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(readKernelBytes()), { env: { mem: memory } });
  const read = instance.exports.read as (p: number, end: number, out: number) => void;
  const out = new Int32Array(memory.buffer, bytes, 4);
  return {
    bytes,
    read() {
      read(0, bytes, bytes);
      return out[0]! ^ out[1]! ^ out[2]! ^ out[3]!;
    },
  };
}
