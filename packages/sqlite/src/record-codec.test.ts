import { describe, expect, it } from 'vitest';
import { crc32, decodeRecord, encodeRecord, RecordError } from './record-codec.js';

describe('record codec', () => {
  it('crc32 matches the IEEE reference values at every alignment', () => {
    const ascii = new TextEncoder().encode('123456789');
    expect(crc32(ascii)).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const long = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
    expect(crc32(long)).toBe(0x414fa339);
    const shifted = new Uint8Array(long.length + 3);
    shifted.set(long, 3);
    expect(crc32(shifted, 3)).toBe(0x414fa339);
  });

  it('round-trips header and tail, and rejects any flipped byte by checksum', async () => {
    const tail = new Uint8Array([1, 2, 3, 250]);
    const rec = await encodeRecord({ o: 'x', n: 1 }, tail, undefined);
    const back = await decodeRecord<{ o: string; n: number }>(rec, undefined);
    expect(back.header).toEqual({ o: 'x', n: 1 });
    expect([...back.tail]).toEqual([1, 2, 3, 250]);
    for (let i = 0; i < rec.length; i++) {
      const bad = rec.slice();
      bad[i]! ^= 0x10;
      await expect(decodeRecord(bad, undefined)).rejects.toBeInstanceOf(RecordError);
    }
  });
});
