import { describe, expect, it } from 'vitest';
import { createCipher } from '@zerda/core';
import { crc32, decodeRecord, ENCODE_STEP, encodeRecord, RecordError } from './record-codec.js';

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

  it('a tail of several steps (a snapshot) is copied and checksummed in steps, the event loop running between them, plain and encrypted', async () => {
    const tail = new Uint8Array(3 * ENCODE_STEP + 12345);
    for (let i = 0; i < tail.length; i++) tail[i] = (i * 2654435761) >>> 24;
    const cipher = createCipher({ passphrase: 'correct horse', iterations: 1000, allowWeakIterations: true });
    for (const c of [undefined, cipher]) {
      let ticks = 0;
      let running = true;
      const tick = (): void => {
        ticks++;
        if (running) setImmediate(tick);
      };
      setImmediate(tick);
      const rec = await encodeRecord({ o: 'snap', upto: 7 }, tail, c);
      running = false;
      // Three steps after the first, each preceded by a turn of the event loop (encrypting adds its own).
      expect(ticks).toBeGreaterThanOrEqual(3);
      expect(new DataView(rec.buffer, rec.byteOffset).getUint32(0, true)).toBe(crc32(rec, 4));
      const back = await decodeRecord<{ o: string; upto: number }>(rec, c);
      expect(back.header).toEqual({ o: 'snap', upto: 7 });
      expect(Buffer.from(back.tail).equals(Buffer.from(tail))).toBe(true);
    }
  });
});
