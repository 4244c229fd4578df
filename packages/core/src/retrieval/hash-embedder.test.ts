import { describe, expect, it } from 'vitest';
import { isZerdaError } from '../model/errors.js';
import { runEmbedderConformance } from '../testing/embedder-conformance.js';
import { HashEmbedder } from './hash-embedder.js';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

describe('HashEmbedder', () => {
  it('is deterministic, unit-normalised and sized by dim', async () => {
    const e = new HashEmbedder();
    expect(e.dim).toBe(256);
    expect(e.modelId).toBe('hash-256');
    const [a, b] = await e.embed(['My dog Max loves the beach', 'My dog Max loves the beach']);
    expect(a).toHaveLength(256);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    const other = new HashEmbedder({ dim: 64 });
    expect(other.modelId).toBe('hash-64');
    expect((await other.embed(['x y z']))[0]).toHaveLength(64);
  });

  it('gives the zero vector for empty, whitespace-only or symbol-only text, never NaN', async () => {
    const e = new HashEmbedder({ dim: 32 });
    const vs = await e.embed(['', '   \n\t', '?!…', 'the', 'a'.repeat(10_000)]);
    for (const v of vs.slice(0, 3)) expect(Array.from(v).every((x) => x === 0)).toBe(true);
    for (const v of vs) expect(Array.from(v).some(Number.isNaN)).toBe(false);
    expect(dot(vs[3]!, vs[3]!)).toBeCloseTo(1, 5); // stopword-only text still gets a direction
  });

  it('related texts score higher than unrelated ones', async () => {
    const e = new HashEmbedder();
    const [q, rel, morph, unrel] = await e.embed([
      'adopting a puppy',
      'I adopted a golden retriever puppy last spring',
      'puppies adoption',
      'Quarterly tax filing deadline for the company',
    ]);
    expect(dot(q!, rel!)).toBeGreaterThan(dot(q!, unrel!) + 0.2);
    expect(dot(q!, morph!)).toBeGreaterThan(dot(q!, unrel!) + 0.2);
    expect(Math.abs(dot(q!, unrel!))).toBeLessThan(0.25);
  });

  it('keeps input order, reports progress and honours an aborted signal', async () => {
    const e = new HashEmbedder({ dim: 16 });
    const progress: number[] = [];
    const [a, b] = await e.embed(['alpha', 'beta'], { onProgress: (done) => progress.push(done) });
    expect(Array.from(a!)).toEqual(Array.from(e.embedOne('alpha')));
    expect(Array.from(b!)).toEqual(Array.from(e.embedOne('beta')));
    expect(progress).toEqual([1, 2]);
    const ac = new AbortController();
    ac.abort();
    await expect(e.embed(['x'], { signal: ac.signal })).rejects.toSatisfy((err) => isZerdaError(err, 'ABORTED'));
  });

  it('rejects bad input (VALIDATION) and use after close (CLOSED)', async () => {
    expect(() => new HashEmbedder({ dim: 4 })).toThrow(/dim/);
    const e = new HashEmbedder({ dim: 16 });
    await expect(e.embed([1 as unknown as string])).rejects.toSatisfy((err) => isZerdaError(err, 'VALIDATION'));
    await e.close();
    await expect(e.ready()).rejects.toSatisfy((err) => isZerdaError(err, 'CLOSED'));
    await expect(e.embed(['x'])).rejects.toSatisfy((err) => isZerdaError(err, 'CLOSED'));
  });
});

runEmbedderConformance('HashEmbedder', () => new HashEmbedder());
