/** The most dimensions a pgvector `vector` holds. */
export const VECTOR_MAX_DIM = 16_000;

/**
 * A `vector[]` parameter in PostgreSQL's binary array format (sent as a Buffer, which `pg` passes
 * in binary): per element pgvector's binary form, `int16 dim, int16 0, float4[dim]`, big-endian.
 * 4 bytes a dimension instead of ~10 characters of decimal text, and no parsing on the server.
 */
export function encodeVectorArray(vectorOid: number, vectors: readonly Float32Array[]): Buffer {
  let size = 20;
  for (const v of vectors) size += 4 + 4 + 4 * v.length;
  const buf = Buffer.allocUnsafe(size);
  buf.writeInt32BE(1, 0); // dimensions of the array
  buf.writeInt32BE(0, 4); // no NULL elements
  buf.writeUInt32BE(vectorOid, 8);
  buf.writeInt32BE(vectors.length, 12);
  buf.writeInt32BE(1, 16); // lower bound
  let o = 20;
  for (const v of vectors) {
    buf.writeInt32BE(4 + 4 * v.length, o);
    buf.writeInt16BE(v.length, o + 4);
    buf.writeInt16BE(0, o + 6);
    o += 8;
    for (let i = 0; i < v.length; i++, o += 4) buf.writeFloatBE(v[i]!, o);
  }
  return buf;
}

/** Decode pgvector's binary form (`vector_send(embedding)`, a bytea) into `out` at `offset`. */
export function decodeVector(bytes: Buffer, out: Float32Array, offset: number): void {
  const dim = bytes.readInt16BE(0);
  for (let i = 0; i < dim; i++) out[offset + i] = bytes.readFloatBE(4 + 4 * i);
}
