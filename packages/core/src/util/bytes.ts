// Byte helpers shared by adapters and the export format (plain JS: atob/btoa exist in browsers,
// workers and Node alike).

/** The bytes of a Float32Array (a copy, little-endian on every platform Zerda runs on). */
export function floatsToBytes(data: Float32Array): Uint8Array {
  return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
}

/** A Float32Array over a copy of `bytes` (which may be unaligned). */
export function bytesToFloats(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, bytes.byteLength / 4);
}

/** Base64 of bytes (no dependency on Buffer or btoa of large strings). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) s += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(s);
}

/** Bytes of a base64 string. Throws on invalid input. */
export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
