import { invalid } from '../model/errors.js';
import { quantise, ROW_CODE_MAX } from '../retrieval/simd-int8.js';

/**
 * How an adapter keeps vector rows at rest. `'float32'`: the floats as given (4 bytes a dimension,
 * exact). `'int8'`: per row a float32 scale and one int8 code a dimension (`dim + 4` bytes, ~4x
 * smaller: 100k × 512 is 51.6 MB instead of 205 MB), symmetric per-row quantisation; `loadVectors`
 * then returns the dequantised rows (`code × scale`, each within `scale / 2` of what was put, the
 * same before and after reopening), so recall is close to, not identical with, `'float32'`.
 */
export type VectorPrecision = 'float32' | 'int8';

/** The precisions {@link VectorPrecision} allows. */
export const VECTOR_PRECISIONS: readonly VectorPrecision[] = ['float32', 'int8'];

/** Throws `VALIDATION` unless `value` is a {@link VectorPrecision}. */
export function checkVectorPrecision(field: string, value: unknown): VectorPrecision {
  if (value !== 'float32' && value !== 'int8') invalid(field, "'float32' | 'int8'", value);
  return value;
}

/** Bytes one row of `dim` takes at `precision`. */
export function vectorRowBytes(dim: number, precision: VectorPrecision): number {
  return precision === 'int8' ? dim + 4 : dim * 4;
}

/**
 * The rows of `data` (`dim` floats each) as bytes at `precision`, row after row: float32 rows
 * little-endian; int8 rows as `[scale: float32 LE][dim codes]`.
 */
export function encodeVectorRows(data: Float32Array, dim: number, precision: VectorPrecision): Uint8Array {
  const rows = data.length / dim;
  if (precision === 'float32')
    return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  const stride = dim + 4;
  const out = new Uint8Array(rows * stride);
  const view = new DataView(out.buffer);
  const codes = new Int8Array(out.buffer);
  const stats = new Float64Array(3);
  for (let r = 0; r < rows; r++) {
    quantise(data, r * dim, dim, ROW_CODE_MAX, codes, r * stride + 4, stats, 0);
    view.setFloat32(r * stride, stats[0]!, true);
  }
  return out;
}

/**
 * The precision of `byteLength` bytes holding `rows` rows of `dim`, or undefined when the length
 * fits neither (`4 × dim` and `dim + 4` never coincide for an integer `dim`, so the length alone
 * tells the two apart, and one store may hold rows of both).
 */
export function vectorRowsPrecision(byteLength: number, rows: number, dim: number): VectorPrecision | undefined {
  if (byteLength === rows * dim * 4) return 'float32';
  if (byteLength === rows * (dim + 4)) return 'int8';
  return undefined;
}

/**
 * Decode `rows` rows of `dim` (either precision, see {@link encodeVectorRows}) into `out` from
 * float `outOff` on. Returns false, writing nothing, when the length fits neither precision.
 */
export function decodeVectorRowsInto(
  bytes: Uint8Array,
  rows: number,
  dim: number,
  out: Float32Array,
  outOff = 0,
): boolean {
  const precision = vectorRowsPrecision(bytes.byteLength, rows, dim);
  if (precision === undefined) return false;
  if (precision === 'float32') {
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    out.set(new Float32Array(copy.buffer), outOff);
    return true;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const codes = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stride = dim + 4;
  for (let r = 0; r < rows; r++) {
    const scale = view.getFloat32(r * stride, true);
    const from = r * stride + 4;
    const to = outOff + r * dim;
    for (let j = 0; j < dim; j++) out[to + j] = codes[from + j]! * scale;
  }
  return true;
}
