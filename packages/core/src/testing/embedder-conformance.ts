import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../model/embedder.js';
import { isZerdaError } from '../model/errors.js';

/** Makes a fresh embedder. */
export type EmbedderFactory = () => Promise<Embedder> | Embedder;

/**
 * Register vitest tests that check an embedder against the rules documented on {@link Embedder}:
 * one unit vector of length `dim` per text in order, the zero vector for blank text, the same
 * vector for the same text, `CLOSED` after close, and an idempotent `close()`.
 */
export function runEmbedderConformance(name: string, factory: EmbedderFactory): void {
  describe(`Embedder conformance: ${name}`, () => {
    let e: Embedder;
    beforeEach(async () => {
      e = await factory();
      await e.ready();
    });
    afterEach(async () => {
      await e.close();
    });

    it('gives one unit vector of length dim per text, in order; blank text gives the zero vector', async () => {
      const texts = ['the cat sat on the mat', 'quarterly tax report', '   '];
      const rows = await e.embed(texts);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row).toBeInstanceOf(Float32Array);
        expect(row.length).toBe(e.dim);
        expect(row.every((x) => Number.isFinite(x))).toBe(true);
      }
      expect(norm(rows[0]!)).toBeCloseTo(1, 4);
      expect(norm(rows[1]!)).toBeCloseTo(1, 4);
      expect(norm(rows[2]!)).toBe(0);
      expect(await e.embed([])).toEqual([]);
    });

    it('gives the same vector for the same text', async () => {
      const [a] = await e.embed(['a sentence about sailing']);
      const [b, c] = await e.embed(['something else entirely', 'a sentence about sailing']);
      expect(dot(a!, c!)).toBeCloseTo(1, 4);
      expect(dot(a!, b!)).toBeLessThan(0.99);
    });

    it('rejects embed with CLOSED after close; close is idempotent', async () => {
      await e.close();
      await e.close();
      let code: unknown;
      try {
        await e.embed(['x']);
      } catch (err) {
        code = isZerdaError(err) ? err.code : err;
      }
      expect(code).toBe('CLOSED');
    });
  });
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}
